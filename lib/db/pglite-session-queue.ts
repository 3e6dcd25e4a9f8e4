import type { PGlite } from "@electric-sql/pglite";

/**
 * A replacement for pglite-socket's query queue. PGlite has one database session that all
 * socket connections share; the stock queue (0.2.17) hands that session to whichever
 * connection sent the next *message*, so the extended-query messages of two connections
 * interleave (A's Parse, B's Parse, A's Bind…): statements are lost ("unnamed prepared
 * statement does not exist") or results go to the wrong client. Seen here as an
 * INSERT … RETURNING answering no rows under concurrency.
 *
 * This queue gives the session to one connection from its first message until the end
 * of that message group — a Sync, a simple Query, a Terminate or the start-up packet —
 * and keeps it there while a transaction is open, so each client sees exactly the
 * session a real PostgreSQL backend would give it.
 *
 * It also runs a message group in one call, as a backend reads it from its socket. The
 * stock handler passes the messages one at a time, and PGlite answered each at once, each
 * answer its own write: one extended query (Parse, Bind, Describe, Execute, Sync) was five
 * calls into PGlite, five writes here and five reads in the client. A backend sends
 * nothing for Parse, Bind, Describe, Execute or Close until a Sync or a Flush, so those are
 * kept (and acknowledged to the handler at once) until the connection's next message that
 * asks for output; then PGlite runs them all (it reads every message of its input) and the
 * answers go out in one write.
 */
type Item = {
  handlerId: number;
  /** One or more whole protocol messages; the last one is never held back. */
  message: Uint8Array;
  /** The type byte of the last message (0 for the start-up packet). */
  last: number;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
};

const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const TERMINATE = 0x58; // 'X'
/** Parse, Bind, Describe, Execute, Close: a backend answers these only at the next Sync or Flush. */
const HELD_BACK = new Set([0x50, 0x42, 0x44, 0x45, 0x43]);

export class SessionQueue {
  private queue: Item[] = [];
  private processing = false;
  private owner: number | null = null;
  /** Per connection, the messages held back since its last message that asked for output. */
  private held = new Map<number, Uint8Array[]>();

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    const type = message[0]!;
    if (HELD_BACK.has(type)) {
      const held = this.held.get(handlerId) ?? [];
      held.push(message);
      this.held.set(handlerId, held);
      return Promise.resolve(0);
    }
    // A Terminate runs alone: PGlite answers it without running its input. Whatever was held
    // is dropped, as a backend drops a group that never reached its Sync.
    const held = this.held.get(handlerId);
    this.held.delete(handlerId);
    const input = held && type !== TERMINATE ? Buffer.concat([...held, message]) : message;
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message: input, last: type, onData, resolve, reject });
      void this.process();
    });
  }

  private async process(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const index = this.owner === null ? 0 : this.queue.findIndex((item) => item.handlerId === this.owner);
        if (index === -1) break; // the owner's next message has not arrived yet
        const [item] = this.queue.splice(index, 1) as [Item];
        this.owner = item.handlerId;
        const answers: Uint8Array[] = [];
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                answers.push(data.slice()); // a view of PGlite's memory, reused by its next answer
              },
            }),
          );
          if (answers.length > 0) item.onData(answers.length === 1 ? answers[0]! : Buffer.concat(answers));
          item.resolve(bytes);
        } catch (error) {
          item.reject(error);
        }
        if (endsGroup(item.last) && !this.db.isInTransaction()) this.owner = null;
      }
    } finally {
      this.processing = false;
    }
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number): void {
    this.held.delete(handlerId);
    this.queue = this.queue.filter((item) => {
      if (item.handlerId !== handlerId) return true;
      item.reject(new Error("Handler disconnected"));
      return false;
    });
  }

  /** A client that leaves mid-transaction must not leave the shared session inside it. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec("ROLLBACK");
    this.owner = null;
    await this.process();
  }
}

/** The start-up packet has no type byte: it begins with its length, whose first byte is 0. */
function endsGroup(type: number): boolean {
  return type === SYNC || type === QUERY || type === TERMINATE || type === 0;
}
