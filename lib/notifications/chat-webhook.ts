import "server-only";
import { deriveKey } from "@/lib/crypto/derive-key";
import { openSecret, sealSecret } from "@/lib/crypto/seal";
import { getEnv } from "@/lib/env";

/**
 * The workspace's chat webhook URL is a bearer credential (anyone holding a Slack incoming-webhook
 * URL can post to the channel), so it is stored sealed with a key derived from AUTH_SECRET and
 * shown back only as a hint.
 */
const BOUND_TO = "notifications.chatWebhook";

function key(): Buffer {
  return deriveKey(getEnv().AUTH_SECRET, "chatWebhook");
}

export function sealChatWebhook(url: string): string {
  return sealSecret(url, key(), BOUND_TO);
}

export function openChatWebhook(sealed: string): string {
  return openSecret(sealed, key(), BOUND_TO);
}

/** "hooks.slack.com/…Xy9z": enough to recognise which one is set, not enough to post. */
export function chatWebhookHint(url: string): string {
  const parsed = new URL(url);
  const path = parsed.pathname + parsed.search;
  return `${parsed.host}/…${path.length > 4 ? path.slice(-4) : ""}`;
}
