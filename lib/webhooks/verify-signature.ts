import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The contract's webhook signature (docs/service-api-v1.md, §6 Events): `X-Service-Signature: v1=<64 hex>`,
 * HMAC-SHA256 over `<timestamp>.<event_id>.<raw body>` keyed with the endpoint secret as
 * issued (the whole `svcwh_…` string). Pure: no environment, no clock unless given.
 */
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

export type SignatureHeaders = {
  eventId: string | null | undefined;
  timestamp: string | null | undefined;
  signature: string | null | undefined;
};

export type SignatureRejection =
  "missing_header" | "malformed_header" | "bad_event_id" | "bad_signature" | "stale_timestamp" | "future_timestamp" | "no_secret";

export type SignatureVerdict =
  | { ok: true; eventId: string; timestamp: number; secretIndex: number }
  | { ok: false; reason: SignatureRejection; detail: string };

const EVENT_ID = /^[0-9a-f]{32}$/;
const TIMESTAMP = /^[0-9]{1,12}$/;
const SIGNATURE = /^v1=([0-9a-f]{64})$/;

export function verifySignature(input: {
  headers: SignatureHeaders;
  body: Uint8Array | string;
  secrets: readonly string[];
  nowMs?: number;
  toleranceSeconds?: number;
}): SignatureVerdict {
  const { eventId, timestamp, signature } = input.headers;
  if (!eventId || !timestamp || !signature) {
    return reject("missing_header", "X-Service-Event-Id, X-Service-Timestamp and X-Service-Signature are required.");
  }
  if (!EVENT_ID.test(eventId)) return reject("bad_event_id", "X-Service-Event-Id must be 32 lowercase hex characters.");
  if (!TIMESTAMP.test(timestamp)) return reject("malformed_header", "X-Service-Timestamp must be Unix seconds.");
  const match = SIGNATURE.exec(signature);
  if (!match) return reject("malformed_header", "X-Service-Signature must be v1=<64 lowercase hex>.");
  const secrets = input.secrets.filter((s) => s.length > 0);
  if (secrets.length === 0) return reject("no_secret", "No webhook secret is configured.");

  // Every secret is tried, without stopping at the first match, so the time taken does not
  // tell which of the rotated secrets signed the delivery.
  const given = Buffer.from(match[1]!, "hex");
  let secretIndex = -1;
  secrets.forEach((secret, index) => {
    const expected = createHmac("sha256", secret).update(`${timestamp}.${eventId}.`).update(input.body).digest();
    if (timingSafeEqual(expected, given) && secretIndex === -1) secretIndex = index;
  });
  // The signature is checked before the clock, so an unsigned caller learns nothing about it.
  if (secretIndex === -1) return reject("bad_signature", "The signature does not match any configured secret.");

  const seconds = Number(timestamp);
  const skew = Math.floor((input.nowMs ?? Date.now()) / 1000) - seconds;
  const tolerance = input.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  if (skew > tolerance) return reject("stale_timestamp", `X-Service-Timestamp is more than ${tolerance} seconds old.`);
  if (-skew > tolerance)
    return reject("future_timestamp", `X-Service-Timestamp is more than ${tolerance} seconds in the future.`);
  return { ok: true, eventId, timestamp: seconds, secretIndex };
}

function reject(reason: SignatureRejection, detail: string): SignatureVerdict {
  return { ok: false, reason, detail };
}
