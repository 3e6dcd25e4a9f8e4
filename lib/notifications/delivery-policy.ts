/**
 * What a delivery's answer means (pure, unit-tested). A failure for a reason that may pass (a
 * lost or refused SMTP connection, an SMTP 4xx "try later", a chat 429 or 5xx, a timeout) is
 * tried again, after the queue's backoff (delivery-queue.ts) or the server's Retry-After; a
 * refusal that will not pass (an SMTP 5xx for the recipient or the message, a chat 4xx) is kept
 * as failed for an admin to read.
 */
export type Outcome =
  { kind: "sent" } | { kind: "retry"; reason: string; notBeforeMs?: number } | { kind: "refused"; reason: string };

/** What an SMTP failure means, from nodemailer's error (`responseCode`, `code`). */
export function smtpOutcome(error: { responseCode?: number; code?: string; message?: string }): Outcome {
  const code = error.responseCode;
  const reason = smtpReason(error);
  // 5xx is permanent for this message or recipient (RFC 5321 4.2.1), except that an
  // authentication failure is the configuration's, not the recipient's: it passes once fixed.
  if (code !== undefined && code >= 500 && code < 600 && error.code !== "EAUTH") return { kind: "refused", reason };
  return { kind: "retry", reason };
}

/**
 * What a chat webhook's answer means. Without one (refused, reset, TLS, timed out, no such
 * name) the reason is one plain sentence: which of those it was would map the network.
 */
export function chatOutcome(answer: { status: number; retryAfterMs?: number } | { unreachable: true }): Outcome {
  if (!("status" in answer)) return { kind: "retry", reason: "chat webhook: the chat server could not be reached" };
  if (answer.status >= 200 && answer.status < 300) return { kind: "sent" };
  const reason = `chat webhook answered ${answer.status}`;
  if (answer.status === 429 || answer.status >= 500 || answer.status === 408)
    return { kind: "retry", reason, notBeforeMs: answer.retryAfterMs };
  return { kind: "refused", reason };
}

/**
 * The server's words, trimmed to one line of at most 300 characters. nodemailer's messages carry
 * the server's answer and the command, never the password (AUTH is sent, not echoed).
 */
function smtpReason(error: { responseCode?: number; code?: string; message?: string }): string {
  const text = (error.message ?? "SMTP error").replace(/\s+/g, " ").trim();
  const prefix = error.code && !text.includes(error.code) ? `${error.code}: ` : "";
  return `${prefix}${text}`.slice(0, 300);
}
