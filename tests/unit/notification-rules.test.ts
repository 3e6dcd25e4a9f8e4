import { describe, expect, test } from "vitest";
import { afterQuietHours, digestPeriodEnd, inQuietWindow, localClock, parseTimeOfDay } from "@/lib/notifications/quiet-hours";
import { chatOutcome, smtpOutcome } from "@/lib/notifications/delivery-policy";
import { DELIVERY_QUEUE, MAX_ATTEMPTS, nextTryAfterMs } from "@/lib/notifications/delivery-queue";
import { digestKey, groupDigests } from "@/lib/notifications/digest-groups";
import { planEmail, type EmailPreferences } from "@/lib/notifications/email-plan";
import { composeChat, composeDigest, composeEmail } from "@/lib/notifications/compose";
import { kindLabel, NOTIFICATION_KINDS } from "@/lib/notifications/kinds";
import { emailChoicesSchema } from "@/lib/notifications/preference-input";
import { kindsFor } from "@/lib/notifications/kinds";
import { chatFailureInWords } from "@/lib/notifications/chat-failure-words";

const at = (iso: string) => new Date(iso);

describe("quiet hours", () => {
  test("a window across midnight holds 22:00–06:59 and lets 07:00 through", () => {
    const quiet = { start: 22 * 60, end: 7 * 60 };
    expect(inQuietWindow(22 * 60, quiet)).toBe(true);
    expect(inQuietWindow(3 * 60, quiet)).toBe(true);
    expect(inQuietWindow(6 * 60 + 59, quiet)).toBe(true);
    expect(inQuietWindow(7 * 60, quiet)).toBe(false);
    expect(inQuietWindow(12 * 60, quiet)).toBe(false);
  });

  test("a window inside one day, and an empty one", () => {
    expect(inQuietWindow(13 * 60, { start: 12 * 60, end: 14 * 60 })).toBe(true);
    expect(inQuietWindow(14 * 60, { start: 12 * 60, end: 14 * 60 })).toBe(false);
    expect(inQuietWindow(13 * 60, { start: 600, end: 600 })).toBe(false);
    expect(inQuietWindow(13 * 60, null)).toBe(false);
  });

  test("email during quiet hours waits for their end in the person's zone", () => {
    // 23:30 in Paris (UTC+1 in November) is 22:30 UTC; quiet until 07:00 Paris = 06:00 UTC.
    expect(afterQuietHours(at("2026-11-27T22:30:15Z"), { start: 22 * 60, end: 7 * 60 }, "Europe/Paris")).toEqual(
      at("2026-11-28T06:00:00Z"),
    );
    // The same instant in New York is 17:30: not quiet, sent at once.
    const now = at("2026-11-27T22:30:15Z");
    expect(afterQuietHours(now, { start: 22 * 60, end: 7 * 60 }, "America/New_York")).toBe(now);
  });

  test("the local clock follows the zone", () => {
    expect(localClock(at("2026-11-27T22:30:15Z"), "Asia/Kolkata")).toEqual({ minute: 4 * 60, second: 15 }); // 04:00:15 IST
  });

  test("times of day are read strictly", () => {
    expect(parseTimeOfDay("07:05")).toBe(425);
    for (const bad of ["7:05", "24:00", "12:60", "", "noon"]) expect(parseTimeOfDay(bad)).toBeNull();
  });
});

describe("digests", () => {
  test("an hourly digest closes at the next hour, a daily one at the person's midnight", () => {
    expect(digestPeriodEnd(at("2026-11-27T10:17:42Z"), "hourly", "UTC")).toEqual(at("2026-11-27T11:00:00Z"));
    expect(digestPeriodEnd(at("2026-11-27T10:17:42Z"), "hourly", "Asia/Kolkata")).toEqual(at("2026-11-27T10:30:00Z"));
    expect(digestPeriodEnd(at("2026-11-27T10:17:42Z"), "daily", "Europe/Paris")).toEqual(at("2026-11-27T23:00:00Z"));
  });

  test("held emails group into one digest per person and period", () => {
    const p1 = at("2026-11-27T11:00:00Z");
    const p2 = at("2026-11-27T12:00:00Z");
    const groups = groupDigests([
      { id: "a", staffId: "ann", dueAt: p1 },
      { id: "b", staffId: "bob", dueAt: p1 },
      { id: "c", staffId: "ann", dueAt: p1 },
      { id: "d", staffId: "ann", dueAt: p2 },
    ]);
    expect(groups).toEqual([
      { staffId: "ann", periodEnd: p1, ids: ["a", "c"] },
      { staffId: "bob", periodEnd: p1, ids: ["b"] },
      { staffId: "ann", periodEnd: p2, ids: ["d"] },
    ]);
    expect(digestKey(groups[0]!)).toBe("digest:ann:2026-11-27T11:00:00.000Z:a");
  });
});

describe("whether and when an email goes", () => {
  const base: EmailPreferences = { emailKinds: ["orders.failed"], digest: "off", quiet: null, timeZone: "UTC" };
  const now = at("2026-11-27T10:17:42Z");
  test("a kind not taken by email: none", () => expect(planEmail(now, "wallet.low_balance", base)).toBeNull());
  test("each at once", () => expect(planEmail(now, "orders.failed", base)).toEqual({ status: "pending", dueAt: now }));
  test("held for the hourly digest", () =>
    expect(planEmail(now, "orders.failed", { ...base, digest: "hourly" })).toEqual({
      status: "held",
      dueAt: at("2026-11-27T11:00:00Z"),
    }));
  test("after quiet hours", () =>
    expect(planEmail(now, "orders.failed", { ...base, quiet: { start: 600, end: 720 } })).toEqual({
      status: "pending",
      dueAt: at("2026-11-27T12:00:00Z"),
    }));
});

describe("retries", () => {
  test("the wait doubles from 30 s to an hour (pg-boss waits up to twice it), over 12 attempts, then the dead-letter queue", () => {
    expect(nextTryAfterMs(1)).toBe(30_000);
    expect(nextTryAfterMs(2)).toBe(60_000);
    expect(nextTryAfterMs(5)).toBe(480_000);
    expect(nextTryAfterMs(30)).toBe(3_600_000);
    expect(DELIVERY_QUEUE.options).toMatchObject({ retryBackoff: true, retryDelay: 30, retryDelayMax: 3_600 });
    expect(DELIVERY_QUEUE.options.deadLetter).toBe(`${DELIVERY_QUEUE.name}.dead`);
    expect(MAX_ATTEMPTS).toBe(12);
  });

  test("SMTP: a lost connection and a 4xx are retried; a 5xx for the recipient is refused; a login failure is retried", () => {
    expect(smtpOutcome({ code: "ESOCKET", message: "connect ECONNREFUSED 127.0.0.1:25" }).kind).toBe("retry");
    expect(smtpOutcome({ code: "EENVELOPE", responseCode: 451, message: "451 try later" }).kind).toBe("retry");
    expect(smtpOutcome({ code: "EENVELOPE", responseCode: 550, message: "550 no such user" })).toEqual({
      kind: "refused",
      reason: "EENVELOPE: 550 no such user",
    });
    expect(smtpOutcome({ code: "EAUTH", responseCode: 535, message: "535 bad credentials" }).kind).toBe("retry");
  });

  test("chat: 2xx sent, 429/5xx/timeouts retried (after Retry-After), other 4xx refused", () => {
    expect(chatOutcome({ status: 200 })).toEqual({ kind: "sent" });
    expect(chatOutcome({ status: 503 }).kind).toBe("retry");
    expect(chatOutcome({ status: 429, retryAfterMs: 90_000 })).toMatchObject({ kind: "retry", notBeforeMs: 90_000 });
    expect(chatOutcome({ unreachable: true })).toEqual({
      kind: "retry",
      reason: "chat webhook: the chat server could not be reached",
    });
    expect(chatOutcome({ status: 404 })).toEqual({ kind: "refused", reason: "chat webhook answered 404" });
    expect(chatOutcome({ status: 302 }).kind).toBe("refused");
  });
});

describe("what a notification says", () => {
  const item = {
    title: 'Spend request: 3 × <Blue> "Harbor" $100.00 — $300.00',
    body: "Asked by Bea Buyer",
    link: "/spend-approvals",
    kindLabel: "An approval is waiting",
    at: now(),
  };
  function now() {
    return at("2026-11-27T10:00:00Z");
  }

  test("the email: the title as subject, the link on the app's origin, HTML escaped", () => {
    const email = composeEmail(item, "https://backoffice.example.com");
    expect(email.subject).toBe(item.title);
    expect(email.text).toContain("Open: https://backoffice.example.com/spend-approvals");
    expect(email.html).toContain("&lt;Blue&gt; &quot;Harbor&quot;");
    expect(email.html).not.toContain("<Blue>");
  });

  test("a digest lists every item, oldest first", () => {
    const digest = composeDigest([{ ...item, title: "second", at: at("2026-11-27T10:30:00Z") }, item], "https://b.example");
    expect(digest.subject).toBe(`Digest, 2 notifications: ${item.title} and 1 more`);
    expect(digest.text.indexOf(item.title)).toBeLessThan(digest.text.indexOf("second"));
  });

  test("chat: Slack-compatible text and blocks, Slack's characters escaped", () => {
    const chat = composeChat(item, "https://b.example");
    expect(chat.text).toBe('Spend request: 3 × &lt;Blue&gt; "Harbor" $100.00 — $300.00 — https://b.example/spend-approvals');
    expect(JSON.stringify(chat.blocks)).toContain("&lt;Blue&gt;");
  });

  // What people typed (a client reference, a name from the IdP, a file name) reaches the title
  // and body; in chat it must stay text: no mention, no disguised link, no entity of its own.
  const MARKUP = "Eve <!here> <!channel> <@U0123> <#C0456> <https://evil.example|Click> &amp; &lt;b&gt; *bold* a&b";
  const ESCAPED =
    "Eve &lt;!here&gt; &lt;!channel&gt; &lt;@U0123&gt; &lt;#C0456&gt; &lt;https://evil.example|Click&gt; &amp;amp; &amp;lt;b&amp;gt; *bold* a&amp;b";
  test.each(NOTIFICATION_KINDS)("chat (%s): every field escapes the whole markup set", (kind) => {
    const chat = composeChat(
      {
        title: `Request by ${MARKUP}`,
        body: `File ${MARKUP}`,
        link: "/spend-approvals#a1",
        kindLabel: kindLabel(kind),
        at: now(),
      },
      "https://b.example",
    );
    const fields = [
      chat.text,
      ...JSON.stringify(chat.blocks)
        .match(/"text":"(?:[^"\\]|\\.)*"/g)!
        .map((f) => JSON.parse(f.slice(7)) as string),
    ];
    for (const field of fields) {
      // The one piece of markup is our own link, to the app.
      const withoutOurLink = field.replace("<https://b.example/spend-approvals#a1|", "").replace(/>\*/, "*");
      expect(withoutOurLink).not.toMatch(/[<>]/);
      expect(withoutOurLink).not.toMatch(/&(?!amp;|lt;|gt;)/);
    }
    expect(chat.text).toContain(`Request by ${ESCAPED}`);
    expect(JSON.stringify(chat.blocks)).toContain(JSON.stringify(`File ${ESCAPED}`).slice(1, -1));
  });
});

describe("preference input", () => {
  test("quiet hours need both ends; a time zone must be known", () => {
    const ok = { emailKinds: ["orders.failed"], digest: "off", quietStart: "22:00", quietEnd: "07:00", timeZone: "Europe/Paris" };
    expect(emailChoicesSchema.parse(ok)).toMatchObject({ quietStart: 1320, quietEnd: 420 });
    expect(emailChoicesSchema.safeParse({ ...ok, quietEnd: "" }).success).toBe(false);
    expect(emailChoicesSchema.safeParse({ ...ok, timeZone: "Mars/Olympus" }).success).toBe(false);
    expect(emailChoicesSchema.safeParse({ ...ok, emailKinds: ["codes.revealed"] }).success).toBe(false);
  });

  test("quiet hours that start when they end are refused on the end field", () => {
    const same = { emailKinds: [], digest: "off", quietStart: "22:00", quietEnd: "22:00", timeZone: "UTC" };
    const result = emailChoicesSchema.safeParse(same);
    expect(result.success).toBe(false);
    expect(result.error?.issues).toMatchObject([{ path: ["quietEnd"], message: expect.stringContaining("same time") }]);
  });
});

describe("who receives which kind", () => {
  test("a buyer can receive only the decisions on their requests, their failed orders and the catalog they watch", () => {
    expect(kindsFor(["buyer"])).toEqual(["approval.decided", "orders.failed", "catalog.changed"]);
  });

  test("each role's kinds follow from what the role may do", () => {
    expect(kindsFor(["approver"])).toEqual(["approval.waiting", "approval.expiring"]);
    expect(kindsFor(["finance"])).toEqual([
      "approval.decided",
      "wallet.low_balance",
      "reconciliation.difference",
      "catalog.changed",
      "books.journal_ready",
    ]);
    expect(kindsFor(["admin"])).toEqual([
      "reveal.quota_alert",
      "upstream.share_repeated",
      "import.finished",
      "import.stuck",
      "upstream.key_refused",
      "upstream.budget_exhausted",
      "catalog.changed",
      "books.journal_ready",
    ]);
    expect(kindsFor(["support"])).toEqual([]);
    expect(kindsFor(["viewer"])).toEqual(["books.journal_ready"]);
    expect(kindsFor(["buyer", "approver"])).toEqual([
      "approval.waiting",
      "approval.decided",
      "approval.expiring",
      "orders.failed",
      "catalog.changed",
    ]);
  });
});

describe("a failing chat webhook in words", () => {
  test("each recorded reason says what happened and what to do, never the URL", () => {
    expect(chatFailureInWords("chat webhook answered 404")).toMatch(/does not exist \(404\).*Create a new incoming webhook/);
    expect(chatFailureInWords("chat webhook answered 403")).toMatch(/refused to post \(403\)/);
    expect(chatFailureInWords("chat webhook answered 503")).toMatch(/had an error \(503\).*sent again later/);
    expect(chatFailureInWords("chat webhook answered 429")).toMatch(/limiting/);
    expect(chatFailureInWords("chat webhook: timed out")).toMatch(/did not answer within 10 seconds/);
    expect(chatFailureInWords("chat webhook: ECONNREFUSED")).toMatch(/could not be reached/);
  });
});
