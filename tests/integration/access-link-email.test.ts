import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startMailCatcher, type CaughtMessage, type MailCatcher } from "@/lib/notifications/mail-catcher";
import { makeStaff, uniqueIp } from "../support/db";

// One-time links with mail set up (SMTP_URL, not local mode's catcher): the person gets the link
// by email, through a real SMTP conversation with a catcher this file starts; the admin is told
// it was sent. The environment is read once per file, so it is set before the app's modules load,
// and put back for the files after this one.
const caught: CaughtMessage[] = [];
const refused = new Set<string>();
let catcher: MailCatcher;
let app: {
  inviteStaff: typeof import("@/lib/staff/access-links/invite-staff").inviteStaff;
  acceptInvitation: typeof import("@/lib/staff/access-links/accept-invitation").acceptInvitation;
  issuePasswordResetLink: typeof import("@/lib/staff/access-links/issue-password-reset-link").issuePasswordResetLink;
  completePasswordReset: typeof import("@/lib/staff/access-links/complete-password-reset").completePasswordReset;
  closeMailTransports: typeof import("@/lib/notifications/send-email").closeMailTransports;
};
const saved = { SMTP_URL: process.env.SMTP_URL, MAIL_CATCHER: process.env.MAIL_CATCHER };

beforeAll(async () => {
  catcher = await startMailCatcher({
    onMail: (m) => void caught.push(m),
    refuse: ({ to }) => (to.some((a) => refused.has(a)) ? { code: 550, message: "mailbox unavailable" } : null),
  });
  process.env.SMTP_URL = catcher.url;
  process.env.MAIL_CATCHER = "0";
  app = {
    ...(await import("@/lib/staff/access-links/invite-staff")),
    ...(await import("@/lib/staff/access-links/accept-invitation")),
    ...(await import("@/lib/staff/access-links/issue-password-reset-link")),
    ...(await import("@/lib/staff/access-links/complete-password-reset")),
    ...(await import("@/lib/notifications/send-email")),
  };
});

afterAll(async () => {
  app?.closeMailTransports();
  await catcher?.stop();
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

const visitor = () => ({ ip: uniqueIp(), userAgent: "vitest" });
const linkIn = (mail: CaughtMessage) =>
  /https?:\/\/\S+\/signin\/(?:invitation|reset-password)\/[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0];

describe("one-time links by email", () => {
  test("an invitation is emailed to the person, naming who invited them; the admin is told it was sent; the emailed link works", async () => {
    const admin = await makeStaff(["admin"]);
    const email = `mailed-${Math.random().toString(36).slice(2)}@test.local`;
    const { delivery } = await app.inviteStaff(admin, { email, name: "Mel Mailed", roles: ["viewer"] });
    expect(delivery).toEqual({ via: "email" });

    const mails = caught.filter((m) => m.to.includes(email));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`${admin.name} invited you to the back office`);
    expect(mails[0]!.text).toContain("Hello Mel Mailed,");
    const url = linkIn(mails[0]!);
    expect(url).toBeDefined();
    expect(mails[0]!.html).toContain(`href="${url}"`);
    const opened = await app.acceptInvitation({ token: url!.split("/").pop(), password: "a password of my own" }, visitor());
    expect(opened.staff.id).toBeTruthy();
  });

  test("a reset link the mail server refuses is shown to the admin instead, and works", async () => {
    const [admin, person] = await Promise.all([makeStaff(["admin"]), makeStaff(["buyer"])]);
    refused.add(person.email);
    const { delivery } = await app.issuePasswordResetLink(admin, person.staffId);
    expect(delivery).toMatchObject({ via: "shown_once", why: "refused" });
    if (delivery.via !== "shown_once") throw new Error("expected the link");
    expect(caught.filter((m) => m.to.includes(person.email))).toEqual([]);
    const opened = await app.completePasswordReset(
      { token: new URL(delivery.url).pathname.split("/").pop(), password: "a new password of mine" },
      visitor(),
    );
    expect(opened.staff.id).toBe(person.staffId);
  });
});
