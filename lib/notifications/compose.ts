/**
 * What a notification says in an email and in chat (pure). Every text comes from the event as
 * recorded (title, body: amounts and references only) and a link into the app, which requires
 * sign-in; nothing is looked up here, so nothing else can leak in.
 */
export type Item = { title: string; body: string | null; link: string; kindLabel: string; at: Date };
export type Email = { subject: string; text: string; html: string };

export function appLink(origin: string, link: string): string {
  return new URL(link, origin).toString();
}

const FOOTER = (origin: string) =>
  `You get this because of your notification choices: ${appLink(origin, "/account/notifications")}`;

export function composeEmail(item: Item, origin: string): Email {
  const url = appLink(origin, item.link);
  const text = [item.title, item.body ?? "", `Open: ${url}`, "", "--", FOOTER(origin)]
    .filter((line, i) => i !== 1 || line)
    .join("\n");
  const html = page(
    `<p style="font-size:16px;margin:0 0 12px"><strong>${escapeHtml(item.title)}</strong></p>` +
      (item.body ? `<p style="white-space:pre-line;margin:0 0 12px">${escapeHtml(item.body)}</p>` : "") +
      `<p style="margin:0 0 24px"><a href="${escapeHtml(url)}">Open in the back office</a></p>`,
    origin,
  );
  return { subject: oneLine(item.title), text, html };
}

export function composeDigest(items: readonly Item[], origin: string): Email {
  const sorted = [...items].sort((a, b) => a.at.getTime() - b.at.getTime());
  const count = sorted.length;
  const first = sorted[0]?.title ?? "";
  const subject = oneLine(
    `Digest, ${count} notification${count === 1 ? "" : "s"}: ${first}${count > 1 ? ` and ${count - 1} more` : ""}`,
  );
  const text = [
    subject,
    "",
    ...sorted.flatMap((item) => [`- ${item.title}`, ...(item.body ? [`  ${item.body}`] : []), `  ${appLink(origin, item.link)}`]),
    "",
    "--",
    FOOTER(origin),
  ].join("\n");
  const html = page(
    `<p style="font-size:16px;margin:0 0 12px"><strong>${escapeHtml(subject)}</strong></p><ul style="padding-left:20px">` +
      sorted
        .map(
          (item) =>
            `<li style="margin:0 0 8px"><a href="${escapeHtml(appLink(origin, item.link))}">${escapeHtml(item.title)}</a>` +
            (item.body ? `<br><span style="color:#555">${escapeHtml(item.body)}</span>` : "") +
            `</li>`,
        )
        .join("") +
      `</ul>`,
    origin,
  );
  return { subject, text, html };
}

/**
 * Slack-compatible incoming-webhook JSON (Mattermost and Teams' Slack-compatible webhooks read
 * `text`). Every field is markup there and titles and bodies carry what people typed (a client
 * reference, a name from the IdP, a file name), so each piece goes through escapeMrkdwn: the
 * only markup is our own link to the app.
 */
export function composeChat(item: Item, origin: string): { text: string; blocks: object[] } {
  const url = escapeMrkdwn(appLink(origin, item.link));
  const text = `${escapeMrkdwn(item.title)} — ${url}`;
  const section = `*<${url}|${escapeMrkdwn(item.title)}>*${item.body ? `\n${escapeMrkdwn(item.body)}` : ""}`;
  return {
    text,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: section } },
      { type: "context", elements: [{ type: "mrkdwn", text: escapeMrkdwn(item.kindLabel) }] },
    ],
  };
}

function page(inner: string, origin: string): string {
  return emailPage(inner, FOOTER(origin));
}

/** The HTML around an email's content (already escaped), with an optional footer line (plain text). */
export function emailPage(inner: string, footer?: string): string {
  return (
    `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111;max-width:560px;margin:0 auto;padding:16px">` +
    inner +
    (footer ? `<p style="color:#666;font-size:12px;border-top:1px solid #ddd;padding-top:8px">${escapeHtml(footer)}</p>` : "") +
    `</body></html>`
  );
}

/** "2026-11-27 21:43 UTC": an email's time, on the one clock staff read (as components/ui/utc-time.ts). */
export function utcMinute(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, " ").slice(0, 200);
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}

/** Slack's three control characters in text (https://api.slack.com/reference/surfaces/formatting#escaping). */
function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
