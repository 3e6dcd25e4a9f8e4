import { describe, expect, test } from "vitest";
import { db } from "@/lib/db/client";
import { getSettings } from "@/lib/settings/get-settings";
import { updateSettings } from "@/lib/settings/update-settings";
import { makeStaff } from "../support/db";

describe("thresholds on the Settings page", () => {
  test("an admin changes a threshold; it is stored and audited with old and new values", async () => {
    const admin = await makeStaff(["admin"]);
    const before = await getSettings();
    const next = before.revealQuotaPerHour === 7 ? 8 : 7;
    const after = await updateSettings(admin, { revealQuotaPerHour: next, orderConfirmationAmount: "750.50" });
    expect(after.revealQuotaPerHour).toBe(next);
    expect(after.orderConfirmationAmount).toBe("750.50");
    const audit = await db().auditEvent.findFirst({
      where: { action: "settings.update", targetId: "revealQuotaPerHour", actorId: admin.staffId },
    });
    expect(audit?.details).toEqual({ from: before.revealQuotaPerHour, to: next });
  });

  test.each([
    [{ revealQuotaPerHour: 0 }, "revealQuotaPerHour"],
    [{ revealQuotaPerHour: "ten" }, "revealQuotaPerHour"],
    [{ orderConfirmationAmount: "-5" }, "orderConfirmationAmount"],
    [{ orderConfirmationAmount: "1.234" }, "orderConfirmationAmount"],
    [{ lowBalance: { usd: "10" } }, "lowBalance.usd"],
    [{ withdrawalApprovalHours: 1000 }, "withdrawalApprovalHours"],
    [{ somethingElse: 1 }, "_"],
  ])("bad input %j is a field error and changes nothing", async (input, field) => {
    const admin = await makeStaff(["admin"]);
    const before = await getSettings();
    const error = await updateSettings(admin, input).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "invalid_request" });
    expect(Object.keys((error as { fieldErrors: object }).fieldErrors)).toContain(field);
    expect(await getSettings()).toEqual(before);
  });

  test("only admins change thresholds", async () => {
    for (const role of ["buyer", "support", "finance", "approver", "viewer"]) {
      await expect(updateSettings(await makeStaff([role]), { revealQuotaPerHour: 5 })).rejects.toMatchObject({
        code: "forbidden",
      });
    }
  });
});
