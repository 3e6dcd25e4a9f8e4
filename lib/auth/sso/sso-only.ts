import "server-only";
import { z } from "zod";
import { db, type Tx } from "@/lib/db/client";
import { ssoConfig } from "@/lib/env";
import { AppError } from "@/lib/errors";

/**
 * The workspace setting that makes single sign-on the only way in (Settings, admins): while it
 * is on and SSO is configured, a password signs nobody in except the break-glass account
 * (SSO_BREAK_GLASS_EMAIL), the way back in when the IdP fails. Kept in the Setting table under
 * its own key. Should SSO's configuration be removed while it is on, passwords work again (the
 * setting stays, and holds once SSO is back): a workspace is never left with no way in.
 */
export const SSO_ONLY_KEY = "ssoOnly";

export const ssoOnlySchema = z.strictObject({ ssoOnly: z.boolean({ error: "Choose on or off." }) });

export type SsoOnlyState = {
  ssoOnly: boolean;
  /** Whether SSO is configured (the setting can be turned on only then). */
  configured: boolean;
  /** The button's name of the configured IdP. */
  name: string | null;
  breakGlassEmail: string | null;
};

export async function readSsoOnly(tx: Tx = db()): Promise<SsoOnlyState> {
  const row = await tx.setting.findUnique({ where: { key: SSO_ONLY_KEY } });
  const sso = ssoConfig();
  return {
    ssoOnly: row?.value === true,
    configured: sso !== null,
    name: sso?.name ?? null,
    breakGlassEmail: sso?.breakGlassEmail ?? null,
  };
}

/** Whether a password works for `email`: always, unless SSO-only mode holds and this is not the break-glass account. */
export function passwordAllowed(state: SsoOnlyState, email: string): boolean {
  if (!state.ssoOnly || !state.configured) return true;
  return state.breakGlassEmail !== null && state.breakGlassEmail === email;
}

/** Whether a correct password for `email` may still sign in (passwordAllowed, read now). */
export async function passwordMaySignIn(tx: Tx, email: string): Promise<boolean> {
  return passwordAllowed(await readSsoOnly(tx), email);
}

/**
 * The same rule for setting a password (an invitation's or a reset link's use, a reset link's
 * issue): refused with 409 `sso_only` while passwords are off for `email`; `detail` says what to
 * do instead, given the IdP's name.
 */
export async function assertPasswordAllowed(tx: Tx, email: string, detail: (idpName: string) => string): Promise<void> {
  const state = await readSsoOnly(tx);
  if (!passwordAllowed(state, email)) throw new AppError("sso_only", detail(state.name ?? "single sign-on"), { status: 409 });
}
