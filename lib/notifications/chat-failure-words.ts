/**
 * A chat delivery's recorded reason (delivery-policy.ts: "chat webhook answered 404", "chat
 * webhook: ECONNREFUSED") in words an admin can act on (pure). The URL is never in a reason.
 */
export function chatFailureInWords(reason: string): string {
  const status = /answered (\d{3})/.exec(reason)?.[1];
  if (status === "404" || status === "410")
    return `The chat service says this webhook does not exist (${status}): it was probably deleted. Create a new incoming webhook and paste its URL here.`;
  if (status === "401" || status === "403")
    return `The chat service refused to post (${status}): the webhook is disabled or may not post to its channel.`;
  if (status === "400")
    return "The chat service refused the message (400): the webhook may belong to another kind of service than Slack, Teams or Mattermost.";
  if (status === "429") return "The chat service is limiting how often it accepts messages (429); they are sent again later.";
  if (status && status.startsWith("5")) return `The chat service had an error (${status}); messages are sent again later.`;
  if (status) return `The chat service answered ${status} instead of accepting the message.`;
  if (/timed out/.test(reason)) return "The chat service did not answer within 10 seconds; messages are sent again later.";
  return "The chat service could not be reached (its address does not answer, or the name does not resolve); messages are sent again later.";
}
