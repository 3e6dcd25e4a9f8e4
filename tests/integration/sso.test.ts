import { afterAll, beforeAll, describe, expect, onTestFinished, test } from "vitest";
import { db } from "@/lib/db/client";
import { beginSsoSignIn, completeSsoSignIn } from "@/lib/auth/sso/sso-round-trip";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { assertFreshProof, proofMethods } from "@/lib/auth/step-up";
import { updateSsoOnly } from "@/lib/auth/sso/update-sso-only";
import { POLICY_KEY } from "@/lib/auth/second-factor/policy";
import { inviteStaff } from "@/lib/staff/access-links/invite-staff";
import { acceptInvitation } from "@/lib/staff/access-links/accept-invitation";
import { issuePasswordResetLink } from "@/lib/staff/access-links/issue-password-reset-link";
import { completePasswordReset } from "@/lib/staff/access-links/complete-password-reset";
import { readAccessLink } from "@/lib/staff/access-links/read-access-link";
import type { LinkDelivery } from "@/lib/staff/access-links/deliver-link";
import { makeStaff, uniqueIp } from "../support/db";
import { startTestIdp, visitIdp, type TestIdp } from "../support/oidc-idp";

/**
 * The SSO round trip's two legs (lib/auth/sso/sso-round-trip.ts) against a real OpenID Connect
 * provider on loopback (tests/support/oidc-idp.ts), the browser's part played by fetch: what the
 * e2e spec (tests/e2e/sso.spec.ts) does not reach cheaply — a forged, replayed or cancelled
 * answer, a person with our own factor, and SSO-only mode's password rule per account.
 */
const CLIENT = { id: "integration-client", secret: "integration-sso-secret-0123456789" };
const APP_URL = "http://localhost:3999";
const SSO_ENV = ["SSO_ISSUER", "SSO_CLIENT_ID", "SSO_CLIENT_SECRET", "SSO_BREAK_GLASS_EMAIL", "APP_URL"] as const;
const saved = Object.fromEntries(SSO_ENV.map((k) => [k, process.env[k]]));
const from = () => ({ ip: uniqueIp(), userAgent: "vitest" });
let idp: TestIdp;
let known: Awaited<ReturnType<typeof makeStaff>>;
let breakGlass: Awaited<ReturnType<typeof makeStaff>>;
let withApp: Awaited<ReturnType<typeof makeStaff>>;
let invitedEmail: string;

beforeAll(async () => {
  const suffix = Math.random().toString(36).slice(2, 10);
  const emails = {
    known: `sso-known-${suffix}@test.local`,
    breakGlass: `sso-break-glass-${suffix}@test.local`,
    withApp: `sso-with-app-${suffix}@test.local`,
    invited: `sso-invited-${suffix}@elsewhere.example`,
  };
  invitedEmail = emails.invited;
  idp = await startTestIdp({
    port: 0,
    client: { ...CLIENT, redirectUri: `${APP_URL}/api/auth/sso/callback` },
    accounts: [
      { login: "mfa", email: emails.known, emailVerified: true, name: "Known", amr: ["pwd", "hwk"] },
      { login: "pwd", email: emails.known, emailVerified: true, name: "Known", amr: ["pwd"] },
      { login: "other", email: emails.breakGlass, emailVerified: true, name: "Someone Else", amr: ["pwd"] },
      // sso-known-… with U+212A KELVIN SIGN for its "k", which lower-cases to a plain "k".
      { login: "kelvin", email: emails.known.replace("k", "\u212A"), emailVerified: true, name: "Look-alike", amr: ["mfa"] },
      { login: "invited", email: emails.invited, emailVerified: true, name: "Named At The IdP", amr: ["pwd", "otp"] },
      { login: "app-pwd", email: emails.withApp, emailVerified: true, name: "With App", amr: ["pwd"] },
      { login: "app-otp", email: emails.withApp, emailVerified: true, name: "With App", amr: ["pwd", "otp"] },
    ],
  });
  // Read once, at the first getEnv() of this file's modules (the first database call): set before.
  Object.assign(process.env, {
    SSO_ISSUER: idp.issuer,
    SSO_CLIENT_ID: CLIENT.id,
    SSO_CLIENT_SECRET: CLIENT.secret,
    SSO_BREAK_GLASS_EMAIL: emails.breakGlass,
    APP_URL,
  });
  known = await makeStaff(["buyer"], { email: emails.known });
  breakGlass = await makeStaff(["admin"], { email: emails.breakGlass });
  withApp = await makeStaff(["admin"], { email: emails.withApp });
});

afterAll(async () => {
  for (const key of SSO_ENV)
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  await db().setting.deleteMany({ where: { key: "ssoOnly" } });
  await idp?.close();
});

/** Leg one, the IdP as `login`, and the callback's query with the sealed flow the browser would bring back. */
async function roundTrip(login: string) {
  const begun = await beginSsoSignIn("/orders");
  const callback = await visitIdp(begun.location, login);
  expect(callback.pathname).toBe("/api/auth/sso/callback");
  return { query: callback.searchParams, flow: begun.cookies[0]!.value };
}

const sessionOf = (answer: { cookies: { name: string; value: string }[] }) =>
  answer.cookies.find((c) => c.name.endsWith("next-auth.session-token"))?.value;

describe("single sign-on round trip", () => {
  test("leg one sends the browser to the IdP with PKCE (S256), state and nonce, the flow sealed in a cookie", async () => {
    const begun = await beginSsoSignIn("/orders");
    const url = new URL(begun.location);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    for (const name of ["code_challenge", "state", "nonce"]) expect(url.searchParams.get(name)).toBeTruthy();
    expect(url.searchParams.get("scope")).toBe("openid email profile");
    const [flow] = begun.cookies;
    expect(flow).toMatchObject({ name: "sso-flow", options: { httpOnly: true, sameSite: "lax", path: "/api/auth/sso" } });
    // The verifier travels sealed: neither it nor the state is readable in the cookie.
    expect(flow!.value).not.toContain(url.searchParams.get("state")!);
  });

  test("a person with our own second factor: the IdP's hardware key stands in for it, a password alone does not", async () => {
    await db().secondFactor.create({
      data: { staffId: known.staffId, kind: "totp", name: "Phone", totpSecret: "sealed", confirmedAt: new Date() },
    });
    const steps: (string | null)[] = [];
    for (const login of ["mfa", "pwd"]) {
      const { query, flow } = await roundTrip(login);
      const answer = await completeSsoSignIn(query, flow, from());
      expect(answer.location).toBe(`${APP_URL}/signin/verify?callbackUrl=%2Forders`);
      const session = await db().staffSession.findFirstOrThrow({
        where: { staffId: known.staffId, firstFactor: "sso" },
        orderBy: { createdAt: "desc" },
      });
      expect(sessionOf(answer)).toBeTruthy();
      steps.push(session.pendingStep);
    }
    expect(steps).toEqual([null, "second_factor"]);
  });

  test("an answer replayed, brought back with another flow's cookie, or with none signs nobody in", async () => {
    const sessions = () => db().staffSession.count({ where: { staffId: known.staffId } });
    const first = await roundTrip("mfa");
    const other = await roundTrip("mfa");
    const before = await sessions();
    expect(await completeSsoSignIn(first.query, other.flow, from())).toMatchObject({
      location: `${APP_URL}/signin?sso=failed&callbackUrl=%2Forders`,
    });
    expect(await completeSsoSignIn(first.query, undefined, from())).toMatchObject({ location: `${APP_URL}/signin?sso=expired` });
    expect(await completeSsoSignIn(first.query, "not-a-sealed-flow", from())).toMatchObject({
      location: `${APP_URL}/signin?sso=expired`,
    });
    expect(await sessions()).toBe(before);
    // Used once, the code is spent: the same answer again opens no second session.
    expect(sessionOf(await completeSsoSignIn(first.query, first.flow, from()))).toBeTruthy();
    const replay = await completeSsoSignIn(first.query, first.flow, from());
    expect(replay.location).toBe(`${APP_URL}/signin?sso=failed&callbackUrl=%2Forders`);
    expect(sessionOf(replay)).toBeUndefined();
    expect(await sessions()).toBe(before + 1);
  });

  test("a verified email with a look-alike letter is refused, not matched to the account it resembles", async () => {
    const sessions = () => db().staffSession.count({ where: { staffId: known.staffId } });
    const before = await sessions();
    const { query, flow } = await roundTrip("kelvin");
    const answer = await completeSsoSignIn(query, flow, from());
    expect(answer.location).toBe(`${APP_URL}/signin?sso=email_characters&callbackUrl=%2Forders`);
    expect(sessionOf(answer)).toBeUndefined();
    expect(await sessions()).toBe(before);
    const refused = await db().auditEvent.findMany({
      where: { action: "auth.sso_sign_in_refused", actorEmail: known.email.replace("k", "\u212A") },
    });
    expect(refused.map((r) => r.details)).toEqual([{ reason: "email_characters" }]);
  });

  test("the IdP's own refusal (the person cancelled) reads as cancelled", async () => {
    const begun = await beginSsoSignIn("/");
    const state = new URL(begun.location).searchParams.get("state")!;
    const query = new URLSearchParams({ error: "access_denied", state, iss: idp.issuer });
    expect(await completeSsoSignIn(query, begun.cookies[0]!.value, from())).toMatchObject({
      location: `${APP_URL}/signin?sso=cancelled`,
    });
  });
});

describe("step-up for a session opened by SSO", () => {
  test("is a fresh sign-in at the IdP (prompt=login, max_age=0) as the same person, never a password", async () => {
    await db().secondFactor.deleteMany({ where: { staffId: known.staffId } });
    // The policy covers buyers (other files leave it as they like): the IdP's hardware key stands in, the session owes nothing more.
    const policyBefore = await db().setting.findUnique({ where: { key: POLICY_KEY } });
    await db().setting.upsert({
      where: { key: POLICY_KEY },
      create: { key: POLICY_KEY, value: ["buyer"] },
      update: { value: ["buyer"] },
    });
    onTestFinished(async () => {
      if (policyBefore) await db().setting.update({ where: { key: POLICY_KEY }, data: { value: policyBefore.value ?? [] } });
      else await db().setting.delete({ where: { key: POLICY_KEY } });
    });
    const { query, flow } = await roundTrip("mfa");
    await completeSsoSignIn(query, flow, from());
    const session = await db().staffSession.findFirstOrThrow({
      where: { staffId: known.staffId, firstFactor: "sso" },
      orderBy: { createdAt: "desc" },
    });
    const stale = new Date(Date.now() - 3_600_000);
    await db().staffSession.update({ where: { id: session.id }, data: { reauthAt: stale } });
    expect(await proofMethods(known.staffId, session.id)).toEqual(["sso"]);
    await expect(
      assertFreshProof({ sessionId: session.id, reauthAt: stale, actor: { staffId: known.staffId } }),
    ).rejects.toMatchObject({ code: "step_up_required", extra: { stepUp: { methods: ["sso"] } } });

    const stepUp = async (login: string) => {
      const begun = await beginSsoSignIn("/settings", "step_up");
      const url = new URL(begun.location);
      expect([url.searchParams.get("prompt"), url.searchParams.get("max_age")]).toEqual(["login", "0"]);
      const callback = await visitIdp(begun.location, login);
      return completeSsoSignIn(callback.searchParams, begun.cookies[0]!.value, { ...from(), sessionId: session.id });
    };
    const reauthAt = async () => (await db().staffSession.findUniqueOrThrow({ where: { id: session.id } })).reauthAt;

    // Someone else at the IdP renews nothing, and opens no session.
    const other = await stepUp("other");
    expect(other.location).toBe(`${APP_URL}/settings`);
    expect(sessionOf(other)).toBeUndefined();
    expect(await reauthAt()).toEqual(stale);

    // The policy asks buyers for a second factor, which the IdP's key gave at sign-in: a password alone is less.
    const weaker = await stepUp("pwd");
    expect(weaker.location).toBe(`${APP_URL}/settings`);
    expect(await reauthAt()).toEqual(stale);

    const same = await stepUp("mfa");
    expect(same.location).toBe(`${APP_URL}/settings`);
    expect(sessionOf(same)).toBeUndefined();
    expect((await reauthAt()).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const audit = await db().auditEvent.findMany({ where: { action: "auth.sso_step_up", targetId: session.id } });
    expect(audit.map((a) => a.details)).toEqual([{ amr: ["pwd", "hwk"] }]);
  });

  test("a person with an authenticator app is not stepped up by a password at the IdP, only by the IdP's second factor", async () => {
    await db().secondFactor.create({
      data: { staffId: withApp.staffId, kind: "totp", name: "Phone", totpSecret: "sealed", confirmedAt: new Date() },
    });
    const signedIn = await signInWithPassword({ email: withApp.email, password: withApp.password }, from());
    if (!signedIn.ok) throw new Error("the password sign-in failed");
    // The code was given at sign-in (the session owes nothing), and the proof has since gone stale.
    const stale = new Date(Date.now() - 3_600_000);
    await db().staffSession.update({ where: { id: signedIn.sessionId }, data: { pendingStep: null, reauthAt: stale } });
    expect(await proofMethods(withApp.staffId, signedIn.sessionId)).toEqual(["totp", "recovery"]);

    // The browser is sent round the IdP for a step-up all the same (GET /api/auth/sso?purpose=step-up).
    const stepUp = async (login: string) => {
      const begun = await beginSsoSignIn("/staff", "step_up");
      const callback = await visitIdp(begun.location, login);
      return completeSsoSignIn(callback.searchParams, begun.cookies[0]!.value, { ...from(), sessionId: signedIn.sessionId });
    };
    const reauthAt = async () => (await db().staffSession.findUniqueOrThrow({ where: { id: signedIn.sessionId } })).reauthAt;
    const renewals = () => db().auditEvent.count({ where: { action: "auth.sso_step_up", targetId: signedIn.sessionId } });

    expect((await stepUp("app-pwd")).location).toBe(`${APP_URL}/staff`);
    expect(await reauthAt()).toEqual(stale);
    expect(await renewals()).toBe(0);
    await expect(
      assertFreshProof({ sessionId: signedIn.sessionId, reauthAt: await reauthAt(), actor: { staffId: withApp.staffId } }),
    ).rejects.toMatchObject({ code: "step_up_required", extra: { stepUp: { methods: ["totp", "recovery"] } } });

    await stepUp("app-otp");
    expect((await reauthAt()).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(await renewals()).toBe(1);
  });

  test("a session opened by password keeps the password as its step-up", async () => {
    const result = await signInWithPassword({ email: known.email, password: known.password }, from());
    expect(result.ok).toBe(true);
    if (result.ok) expect(await proofMethods(known.staffId, result.sessionId)).toEqual(["password"]);
  });
});

describe("SSO-only mode and passwords", () => {
  test("an admin turns it on and off, each change audited once", async () => {
    const admin = await makeStaff(["admin"]);
    const audited = () => db().auditEvent.findMany({ where: { action: "settings.sso_only", actorId: admin.staffId } });
    expect(await updateSsoOnly(admin, { ssoOnly: true })).toMatchObject({ ssoOnly: true, configured: true });
    expect(await updateSsoOnly(admin, { ssoOnly: true })).toMatchObject({ ssoOnly: true });
    expect(await updateSsoOnly(admin, { ssoOnly: false })).toMatchObject({ ssoOnly: false });
    expect((await audited()).map((a) => a.details)).toEqual([
      { from: false, to: true },
      { from: true, to: false },
    ]);
  });

  test("a right password is refused and said so, except the break-glass account's; a wrong one stays generic", async () => {
    await db().setting.upsert({
      where: { key: "ssoOnly" },
      create: { key: "ssoOnly", value: true },
      update: { value: true },
    });
    expect(await signInWithPassword({ email: known.email, password: known.password }, from())).toEqual({
      ok: false,
      reason: "sso_only",
    });
    expect(await signInWithPassword({ email: known.email, password: "not the password" }, from())).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await signInWithPassword({ email: breakGlass.email, password: breakGlass.password }, from())).toMatchObject({
      ok: true,
    });
    await db().setting.update({ where: { key: "ssoOnly" }, data: { value: false } });
    expect(await signInWithPassword({ email: known.email, password: known.password }, from())).toMatchObject({ ok: true });
  });
});

describe("SSO-only mode and one-time links", () => {
  const PASSWORD = "a password of my own choosing";
  const tokenOf = (delivery: LinkDelivery) => {
    if (delivery.via !== "shown_once") throw new Error("expected the link to be shown once");
    return new URL(delivery.url).pathname.split("/").pop()!;
  };
  const setSsoOnly = (value: boolean) =>
    db().setting.upsert({ where: { key: "ssoOnly" }, create: { key: "ssoOnly", value }, update: { value } });

  test("an invitation leads to single sign-on: its page says so, a password is refused, and the invited address signs in by SSO", async () => {
    const admin = await makeStaff(["admin"]);
    const { delivery } = await inviteStaff(admin, { email: invitedEmail, name: "Ivy Invited", roles: ["finance"] });
    const token = tokenOf(delivery);
    await setSsoOnly(true);
    try {
      expect(await readAccessLink(token, "invitation")).toMatchObject({
        state: "live",
        email: invitedEmail,
        sso: "single sign-on",
      });
      await expect(acceptInvitation({ token, password: PASSWORD }, from())).rejects.toMatchObject({
        code: "sso_only",
        status: 409,
      });
      expect(await db().staff.findUnique({ where: { email: invitedEmail } })).toBeNull();
      expect(await readAccessLink(token, "invitation")).toMatchObject({ state: "live" });

      // No allowed domain: without the invitation this address would be refused as unknown.
      const { query, flow } = await roundTrip("invited");
      const answer = await completeSsoSignIn(query, flow, from());
      expect(answer.location).toBe(`${APP_URL}/signin/verify?callbackUrl=%2Forders`);
      expect(sessionOf(answer)).toBeTruthy();
      const person = await db().staff.findUniqueOrThrow({ where: { email: invitedEmail } });
      expect([person.name, person.roles]).toEqual(["Ivy Invited", ["finance"]]);
      expect(await readAccessLink(token, "invitation")).toEqual({ state: "used" });
      const accepted = await db().auditEvent.findMany({ where: { action: "staff.invitation_accepted", targetId: person.id } });
      expect(accepted).toHaveLength(1);
    } finally {
      await setSsoOnly(false);
    }
  });

  test("no reset link is issued, and one issued before is refused; the break-glass account keeps its way back", async () => {
    const admin = await makeStaff(["admin"]);
    const person = await makeStaff(["buyer"]);
    const earlier = tokenOf((await issuePasswordResetLink(admin, person.staffId)).delivery);
    await setSsoOnly(true);
    try {
      const links = () => db().accessLink.count({ where: { staffId: person.staffId, purpose: "password_reset" } });
      const before = await links();
      await expect(issuePasswordResetLink(admin, person.staffId)).rejects.toMatchObject({ code: "sso_only", status: 409 });
      expect(await links()).toBe(before);
      await expect(completePasswordReset({ token: earlier, password: PASSWORD }, from())).rejects.toMatchObject({
        code: "sso_only",
        status: 409,
      });
      expect(await readAccessLink(earlier, "password_reset")).toMatchObject({ state: "live" });
      expect(await db().staffSession.count({ where: { staffId: person.staffId, endedAt: null } })).toBe(0);

      const rescue = tokenOf((await issuePasswordResetLink(admin, breakGlass.staffId)).delivery);
      await expect(completePasswordReset({ token: rescue, password: PASSWORD }, from())).resolves.toMatchObject({
        staff: { id: breakGlass.staffId },
      });
    } finally {
      await setSsoOnly(false);
    }
  });
});
