import "server-only";
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { AppError } from "@/lib/errors";

/**
 * The one rule for a password someone chooses, on every path that sets one (an invitation's
 * acceptance, a reset link's completion, `npm run staff:create` and local mode's demo accounts
 * through createStaffAsOperator): not the person's own email address, and rated at least
 * "safely unguessable" (3 of 4) by zxcvbn-ts, with its common-password and English
 * dictionaries and the person's address and name as words an attacker would try first. The
 * schemas' length limits (12 to 256) apply before it.
 */
export const MIN_SCORE = 3;

export type PasswordOwner = { email: string; name: string };

let checker: Promise<ZxcvbnFactory> | undefined;

/** The dictionaries are some megabytes and take about a second: loaded once per process, when a first password is judged. */
function loadChecker(): Promise<ZxcvbnFactory> {
  checker ??= (async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([
      import("@zxcvbn-ts/core"),
      import("@zxcvbn-ts/language-common"),
      import("@zxcvbn-ts/language-en"),
    ]);
    return new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
      translations: en.translations,
    });
  })();
  return checker;
}

/** Why this password is refused, in words for its field; null when it may be used. */
export async function passwordWeakness(password: string, owner: PasswordOwner): Promise<string | null> {
  const email = owner.email.trim().toLowerCase();
  const localPart = email.split("@")[0] ?? email;
  const typed = password.trim().toLowerCase();
  if (typed.includes(email) || typed === localPart) return "It contains your email address: choose something else.";
  const words = [email, localPart, owner.name, ...owner.name.split(/\s+/)].filter((word) => word.length > 0);
  const result = (await loadChecker()).check(password, words);
  if (result.score >= MIN_SCORE) return null;
  if (result.sequence.some((match) => match.pattern === "dictionary" && match.dictionaryName === "userInputs"))
    return "It is built on your name or email address, which is easy to guess: add unrelated words.";
  return ["Too easy to guess.", result.feedback.warning, "Use a longer phrase of unrelated words."].filter(Boolean).join(" ");
}

/** The rule as a field error of the request (400), for the paths that set a password. */
export async function assertStrongPassword(password: string, owner: PasswordOwner): Promise<void> {
  const weakness = await passwordWeakness(password, owner);
  if (weakness) throw new AppError("invalid_request", "Some fields are not valid.", { fieldErrors: { password: [weakness] } });
}
