import { beforeAll, describe, expect, test } from "vitest";
import { db } from "@/lib/db/client";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { readSsoOnly } from "@/lib/auth/sso/sso-only";
import { updateSsoOnly } from "@/lib/auth/sso/update-sso-only";
import { makeStaff, uniqueIp } from "../support/db";

/** Without SSO_* (local mode as it starts): SSO-only mode cannot be turned on, and a stale "on" locks nobody out. */
beforeAll(() => {
  for (const key of ["SSO_ISSUER", "SSO_CLIENT_ID", "SSO_CLIENT_SECRET"]) delete process.env[key];
});

describe("SSO-only mode without SSO configured", () => {
  test("cannot be turned on: a 409 with the field's message, nothing stored or audited", async () => {
    const admin = await makeStaff(["admin"]);
    const audited = () => db().auditEvent.count({ where: { action: "settings.sso_only" } });
    const before = await audited();
    await expect(updateSsoOnly(admin, { ssoOnly: true })).rejects.toMatchObject({
      code: "sso_not_configured",
      status: 409,
      fieldErrors: { ssoOnly: [expect.stringContaining("SSO_ISSUER")] },
    });
    expect(await db().setting.findUnique({ where: { key: "ssoOnly" } })).toBeNull();
    expect(await audited()).toBe(before);
    await expect(updateSsoOnly(admin, { ssoOnly: "yes" })).rejects.toMatchObject({ code: "invalid_request" });
    const buyer = await makeStaff(["buyer"]);
    await expect(updateSsoOnly(buyer, { ssoOnly: false })).rejects.toMatchObject({ code: "forbidden" });
  });

  test("a setting left on from when SSO was configured refuses no password", async () => {
    await db().setting.upsert({ where: { key: "ssoOnly" }, create: { key: "ssoOnly", value: true }, update: { value: true } });
    try {
      expect(await readSsoOnly()).toMatchObject({ ssoOnly: true, configured: false });
      const staff = await makeStaff(["buyer"]);
      const result = await signInWithPassword(
        { email: staff.email, password: staff.password },
        { ip: uniqueIp(), userAgent: "vitest" },
      );
      expect(result.ok).toBe(true);
    } finally {
      await db().setting.delete({ where: { key: "ssoOnly" } });
    }
  });
});
