import { describe, expect, test } from "vitest";
import { SECOND_FACTOR_METHODS } from "@/lib/auth/second-factor/methods";
import { FACTOR_DESCRIPTIONS, SECOND_FACTOR_KINDS } from "@/lib/auth/second-factor/kinds";
import { proofSchema } from "@/lib/auth/second-factor/schemas";
import { PROOF_METHODS } from "@/lib/auth/proof-method";
import { auditDetails } from "@/lib/audit/read-details";
import { secondFactorsInWords, countFactors } from "@/lib/staff/staff-view";

/**
 * What a method entry is missing, in words: a kind without an entry (or an entry without a
 * kind), a hook that is not a function, a description without its words, a kind the proof's
 * body does not take. Empty when every kind is complete.
 */
function gaps(methods: Record<string, unknown>): string[] {
  const found: string[] = [];
  const proofMembers = proofSchema.options.map((member) => member.shape.method.value as string);
  for (const kind of new Set([...SECOND_FACTOR_KINDS, ...Object.keys(methods)])) {
    const method = methods[kind] as Record<string, Record<string, unknown> | undefined> | undefined;
    if (!method) {
      found.push(`${kind}: no method`);
      continue;
    }
    if (!(SECOND_FACTOR_KINDS as readonly string[]).includes(kind)) found.push(`${kind}: not one of SECOND_FACTOR_KINDS`);
    for (const [part, hook] of [
      ["enrol", "start"],
      ["enrol", "finish"],
      ["prove", "verify"],
    ] as const)
      if (typeof method[part]?.[hook] !== "function") found.push(`${kind}: no ${part}.${hook}`);
    if (!["code", null].includes(method.prove?.refusalField as string | null)) found.push(`${kind}: no prove.refusalField`);
    const describe = method.describe as { label?: unknown; hint?: unknown; counted?: unknown } | undefined;
    if (typeof describe?.label !== "string" || !describe.label) found.push(`${kind}: no describe.label`);
    if (typeof describe?.hint !== "string" || !describe.hint) found.push(`${kind}: no describe.hint`);
    if (typeof describe?.counted !== "function" || !describe.counted(1) || !describe.counted(2))
      found.push(`${kind}: no describe.counted`);
    if (!proofMembers.includes(kind)) found.push(`${kind}: proofSchema takes no {method: "${kind}"}`);
  }
  return found;
}

describe("second-factor methods", () => {
  test("every kind has a complete method: enrol, prove and describe hooks, and a proof body", () => {
    expect(gaps(SECOND_FACTOR_METHODS)).toEqual([]);
  });

  test("an incomplete entry is named: a missing hook, a missing description, a kind without a method", () => {
    const noProve = { ...SECOND_FACTOR_METHODS.totp, prove: undefined };
    const noHint = { ...SECOND_FACTOR_METHODS.passkey, describe: { ...FACTOR_DESCRIPTIONS.passkey, hint: "" } };
    expect(gaps({ totp: noProve, passkey: noHint })).toEqual([
      "totp: no prove.verify",
      "totp: no prove.refusalField",
      "passkey: no describe.hint",
    ]);
    expect(gaps({ totp: SECOND_FACTOR_METHODS.totp })).toEqual(["passkey: no method"]);
    expect(gaps({ ...SECOND_FACTOR_METHODS, sms: SECOND_FACTOR_METHODS.totp })).toEqual([
      "sms: not one of SECOND_FACTOR_KINDS",
      'sms: proofSchema takes no {method: "sms"}',
    ]);
  });

  test("each method describes itself with its kind's words, which pages and the audit log read", () => {
    for (const kind of SECOND_FACTOR_KINDS) {
      expect(SECOND_FACTOR_METHODS[kind].describe).toBe(FACTOR_DESCRIPTIONS[kind]);
      expect(PROOF_METHODS).toContain(kind);
      const label = FACTOR_DESCRIPTIONS[kind].label;
      expect(auditDetails("second_factor.enrol", { kind, name: "Work phone" })).toEqual([
        { label: "kind", text: label },
        { label: "name", text: "Work phone" },
      ]);
      expect(auditDetails("auth.second_factor", { method: kind, purpose: "step_up" })[0]).toEqual({
        label: "method",
        text: label,
      });
    }
    expect(auditDetails("auth.second_factor", { method: "recovery", purpose: "sign_in" })[0]).toEqual({
      label: "method",
      text: "Recovery code",
    });
  });

  test("the Staff page names each kind a person has, counting passkeys", () => {
    const counts = (totp: number, passkey: number) => ({ secondFactors: countFactors((kind) => ({ totp, passkey })[kind]) });
    expect(secondFactorsInWords(counts(0, 0))).toBe("");
    expect(secondFactorsInWords(counts(1, 0))).toBe("Authenticator app");
    expect(secondFactorsInWords(counts(2, 1))).toBe("Authenticator app and Passkey");
    expect(secondFactorsInWords(counts(0, 3))).toBe("3 passkeys");
  });
});
