import { createHmac } from "node:crypto";

// The contract's webhook signature: HMAC-SHA256 over "<timestamp>.<event_id>.<raw body>", keyed with the
// endpoint secret exactly as issued (the whole `svcwh_…` string, UTF-8), sent as `v1=<64 lowercase hex>`.

export function signWebhook(secret: string, timestamp: string, eventId: string, body: string): string {
  return `v1=${createHmac("sha256", secret).update(`${timestamp}.${eventId}.${body}`).digest("hex")}`;
}
