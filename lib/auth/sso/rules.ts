import { z } from "zod";
import { singleLineText } from "@/lib/validation";

/**
 * The rules single sign-on decides by, pure so that a unit test holds each one. The claims are
 * the ID token's (verified by openid-client against the IdP's JWKS), completed by the userinfo
 * endpoint where the token leaves the email out.
 */

/**
 * RFC 8176 methods (`amr`) that prove more than a password: the IdP's own multi-factor
 * ("mfa", "mca"), a one-time code ("otp"), a key or smart card ("hwk", "swk", "sc", "pop") or a
 * biometric ("fpt", "face", "iris", "retina", "vbm"). A code by text message or phone call
 * ("sms", "tel") is left out, as are "pwd", "pin", "kba", "rba", "geo", "wia", "user": with
 * only those, our own second factor is asked for.
 */
export const IDP_SECOND_FACTOR_METHODS = [
  "mfa",
  "mca",
  "otp",
  "hwk",
  "swk",
  "sc",
  "pop",
  "fpt",
  "face",
  "iris",
  "retina",
  "vbm",
] as const;

/** Whether the IdP says it asked for a second factor itself (its `amr`), so that ours need not be asked. */
export function idpProvedSecondFactor(amr: unknown): boolean {
  if (!Array.isArray(amr)) return false;
  return amr.some((method) => typeof method === "string" && (IDP_SECOND_FACTOR_METHODS as readonly string[]).includes(method));
}

/** The token's `amr` as a short list of short strings (it is recorded in the audit log). */
export function amrOf(amr: unknown): string[] {
  if (!Array.isArray(amr)) return [];
  return amr
    .filter((m): m is string => typeof m === "string")
    .slice(0, 10)
    .map((m) => m.slice(0, 32));
}

/** Why an SSO sign-in is refused (the audit row's reason, the sign-in page's message). */
export type SsoRefusal = "unverified" | "email_characters" | "domain" | "unknown_account" | "deactivated";

const email = z.string().toLowerCase().max(254).pipe(z.email());

/**
 * The email the IdP vouches for, or why there is none. `email_verified` must be `true` (a
 * boolean, as OpenID Connect defines it); Microsoft Entra ID issues no `email_verified` but its
 * optional claim `xms_edov` (the email's domain is verified by its owner), which counts the same.
 *
 * The address must be plain ASCII as sent, checked before it is lower-cased: a character that
 * Unicode normalisation (NFKC) or lower-casing turns into a plain letter (U+212A KELVIN SIGN
 * becomes "k") would sign in as another person's address, and one NFKC keeps (a Cyrillic "а")
 * only looks like theirs. Our accounts' addresses are ASCII, so nothing true is lost.
 */
export function verifiedEmail(
  claims: Record<string, unknown>,
): { ok: true; email: string } | { ok: false; reason: "unverified" | "email_characters" } {
  if (typeof claims.email !== "string") return { ok: false, reason: "unverified" };
  const verified = claims.email_verified === true || claims.xms_edov === true;
  if (!verified) return { ok: false, reason: "unverified" };
  const address = claims.email.trim();
  if (!isPlainAscii(address)) return { ok: false, reason: "email_characters" };
  const parsed = email.safeParse(address);
  return parsed.success ? { ok: true, email: parsed.data } : { ok: false, reason: "unverified" };
}

/** Unchanged by NFKC and printable ASCII only. */
function isPlainAscii(text: string): boolean {
  return text.normalize("NFKC") === text && /^[\x20-\x7e]*$/.test(text);
}

/** The domain part of an address, lower-case. */
export function emailDomain(address: string): string {
  return address.slice(address.lastIndexOf("@") + 1).toLowerCase();
}

/**
 * What to do with a verified email: sign in the account it names (if active), create one when
 * the email's domain is allowed, or refuse. An account that exists is matched whatever its
 * domain: an admin created it.
 */
export function decideAccount(
  account: { active: boolean } | null,
  address: string,
  allowedDomains: readonly string[],
): { act: "sign_in" } | { act: "create" } | { act: "refuse"; reason: SsoRefusal } {
  if (account) return account.active ? { act: "sign_in" } : { act: "refuse", reason: "deactivated" };
  if (allowedDomains.includes(emailDomain(address))) return { act: "create" };
  return { act: "refuse", reason: allowedDomains.length ? "domain" : "unknown_account" };
}

const personName = singleLineText().trim().min(1).max(120);

/** The name a new account takes: the IdP's `name` if it meets our text rule, else the email's local part. */
export function displayName(claims: Record<string, unknown>, address: string): string {
  const name = personName.safeParse(claims.name);
  return name.success ? name.data : address.slice(0, address.lastIndexOf("@"));
}
