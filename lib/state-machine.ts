import { isOneOf } from "@/lib/is-one-of";

/**
 * The shape every state machine of the app shares (withdrawals, orders, bulk orders and
 * their rows): its states, the moves it allows, and the one function each move goes
 * through. The table is data; `assertMove` refuses what the table does not hold, with the
 * error the machine's owner chooses (a programming error, or a conflict the person sees).
 * No server-only imports: pages read the states and labels too.
 */
export type StateMachine<S extends string> = {
  states: readonly S[];
  moves: Record<S, readonly S[]>;
  labels: Record<S, string>;
  is(value: string): value is S;
  canMove(from: S, to: S): boolean;
  /** The states a move to `to` starts from: the WHERE of a conditional update. */
  leadingTo(to: S): S[];
  assertMove(from: string, to: S): void;
  /** "approved, sending": how a refusal names the state a row is in (an unknown one as it is). */
  words(state: string): string;
};

export function defineStateMachine<const S extends string>(machine: {
  states: readonly S[];
  moves: Record<S, readonly S[]>;
  labels: Record<S, string>;
  refuse: (from: string, to: S) => Error;
}): StateMachine<S> {
  const { states } = machine;
  const is = (value: string): value is S => isOneOf(states, value);
  const canMove = (from: S, to: S) => machine.moves[from].includes(to);
  return {
    states,
    moves: machine.moves,
    labels: machine.labels,
    is,
    canMove,
    leadingTo: (to) => states.filter((from) => canMove(from, to)),
    assertMove(from, to) {
      if (!is(from) || !canMove(from, to)) throw machine.refuse(from, to);
    },
    words: (state) => (is(state) ? machine.labels[state].toLowerCase() : state),
  };
}
