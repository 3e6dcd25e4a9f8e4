import "server-only";
import { createHash } from "node:crypto";
import nodemailer, { type Transporter } from "nodemailer";
import type { Email } from "./compose";
import { smtpOutcome, type Outcome } from "./delivery-policy";

const transports = new Map<string, Transporter>();

/**
 * One pooled SMTP transport per URL and process: a backlog goes through a few kept
 * connections instead of one handshake per email. nodemailer's own logger stays off (it would
 * print the conversation); failures come back as outcomes, whose reasons carry the server's
 * answer, never the URL or its password.
 */
function transport(smtpUrl: string): Transporter {
  let found = transports.get(smtpUrl);
  if (!found) {
    found = nodemailer.createTransport({
      url: smtpUrl,
      pool: true,
      maxConnections: 3,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      logger: false,
      debug: false,
    });
    transports.set(smtpUrl, found);
  }
  return found;
}

/**
 * The Message-ID of a delivery: derived from its key, so the one resend the outbox can make
 * (sent, then the worker died before marking it) carries the same id, which a receiving mail
 * system or the catcher can use to drop the copy.
 */
export function messageIdFor(deliveryKey: string, mailFrom: string): string {
  const domain = /@([^>\s]+)/.exec(mailFrom)?.[1] ?? "localhost";
  return `<${createHash("sha256").update(deliveryKey).digest("hex").slice(0, 40)}@${domain}>`;
}

export async function sendEmail(
  smtpUrl: string,
  message: Email & { to: string; from: string; deliveryKey: string },
): Promise<Outcome> {
  try {
    await transport(smtpUrl).sendMail({
      from: message.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      messageId: messageIdFor(message.deliveryKey, message.from),
      headers: { "Auto-Submitted": "auto-generated" },
    });
    return { kind: "sent" };
  } catch (error) {
    return smtpOutcome(error as { responseCode?: number; code?: string; message?: string });
  }
}

/** Closes the pooled connections (tests, and a worker shutting down). */
export function closeMailTransports(): void {
  for (const t of transports.values()) t.close();
  transports.clear();
}
