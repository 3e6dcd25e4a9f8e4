/**
 * The kinds of second factor, in the order pages list them, and how each reads to a person.
 * Pages, the audit log and client components read this file (it imports nothing); the server's
 * hooks of each kind are its entry in ./methods.ts, which a unit test holds to these kinds.
 */
export const SECOND_FACTOR_KINDS = ["totp", "passkey"] as const;
export type SecondFactorKind = (typeof SECOND_FACTOR_KINDS)[number];

export type FactorDescription = {
  /** The kind in words, and the name a factor is given when the person gives it none. */
  label: string;
  /** What it is, under its heading where a person adds one. */
  hint: string;
  /** A person's factors of this kind as the Staff page counts them ("2 passkeys"). */
  counted: (count: number) => string;
};

export const FACTOR_DESCRIPTIONS: Record<SecondFactorKind, FactorDescription> = {
  totp: {
    label: "Authenticator app",
    hint: "Google Authenticator, Microsoft Authenticator, 1Password or any app that shows 6-digit codes.",
    counted: () => "Authenticator app",
  },
  passkey: {
    label: "Passkey",
    hint: "Your device's fingerprint, face or PIN, or a security key.",
    counted: (count) => (count === 1 ? "Passkey" : `${count} passkeys`),
  },
};

export function isSecondFactorKind(kind: string): kind is SecondFactorKind {
  return (SECOND_FACTOR_KINDS as readonly string[]).includes(kind);
}

/** A stored factor's kind (the database's check constraint allows only these). */
export function secondFactorKind(kind: string): SecondFactorKind {
  if (!isSecondFactorKind(kind)) throw new Error(`Unknown second-factor kind: ${kind}`);
  return kind;
}
