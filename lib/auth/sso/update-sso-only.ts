import "server-only";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import { writeSetting } from "@/lib/settings/write-setting";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { readSsoOnly, SSO_ONLY_KEY, ssoOnlySchema, type SsoOnlyState } from "./sso-only";

/**
 * An admin turns SSO-only mode on or off (step-up at the route, as other policy changes). On
 * only while SSO is configured. Sessions already open stay open: the mode decides sign-ins.
 */
export async function updateSsoOnly(actor: Actor, input: unknown): Promise<SsoOnlyState> {
  assertCan(actor, "settings.manage");
  const { ssoOnly } = parseInput(ssoOnlySchema, input);
  await db().$transaction(async (tx) => {
    const before = await readSsoOnly(tx);
    if (ssoOnly && !before.configured) {
      const message = "Single sign-on is not configured: set SSO_ISSUER, SSO_CLIENT_ID and SSO_CLIENT_SECRET first.";
      throw new AppError("sso_not_configured", message, { status: 409, fieldErrors: { ssoOnly: [message] } });
    }
    if (before.ssoOnly === ssoOnly) return;
    await writeSetting(tx, actor, { action: "settings.sso_only", key: SSO_ONLY_KEY, from: before.ssoOnly, to: ssoOnly });
  });
  return readSsoOnly();
}
