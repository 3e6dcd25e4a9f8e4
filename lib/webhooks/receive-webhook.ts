import "server-only";
import { z } from "zod";
import { getEnv, serviceConfig } from "@/lib/env";
import { logger } from "@/lib/log";
import { isDataRefusal, sqlStateOf } from "@/lib/db/data-refusal";
import { storeInboxEvent, type Stored } from "./store-inbox-event";
import { recordRefusedEvent, type Refusal } from "./refuse-event";
import { findUnstorableText } from "@/lib/db/unstorable-text";
import { verifySignature, type SignatureHeaders, type SignatureRejection } from "./verify-signature";

/**
 * The receiving half of the webhook contract (§6): bounded raw body, signature, envelope,
 * then the event is committed to the inbox under its unique id BEFORE anything is
 * acknowledged (store-inbox-event.ts groups concurrent deliveries into one statement). A
 * duplicate delivery finds the row and is acknowledged as one. Processing never happens here
 * (it may call a slow upstream): the inbox is the workers' queue (drain-inbox.ts), and their
 * sweep finds a pending row even if the request to drain is lost.
 */
export const MAX_WEBHOOK_BYTES = 256 * 1024;

export type ReceiveResult =
  | { outcome: "accepted"; eventId: string; duplicate: boolean }
  | { outcome: "rejected"; status: 400 | 401 | 413 | 422; code: string; detail: string }
  | { outcome: "unavailable"; code: string; detail: string };

const envelopeSchema = z.looseObject({
  id: z.string().regex(/^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/, "Must be a UUID."),
  type: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_.:-]+$/, "Must be an event kind such as order.fulfilled."),
  occurredAtUtc: z.iso.datetime({ offset: true }).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

const SIGNATURE_STATUS: Record<Exclude<SignatureRejection, "no_secret">, 400 | 401> = {
  bad_signature: 401,
  missing_header: 400,
  malformed_header: 400,
  bad_event_id: 400,
  stale_timestamp: 400,
  future_timestamp: 400,
};

export type ReceiveOptions = { secrets?: readonly string[]; nowMs?: number };

/** A delivery as a Web `Request` (the route handler): the body is read up to the limit, then `receiveDelivery`. */
export async function receiveWebhook(req: Request, options: ReceiveOptions = {}): Promise<ReceiveResult> {
  const secrets = options.secrets ?? configuredSecrets();
  if (secrets.length === 0) return notConfigured(); // before reading a body that cannot be verified
  const body = await readBounded(req, MAX_WEBHOOK_BYTES);
  const headers = {
    eventId: req.headers.get("x-service-event-id"),
    timestamp: req.headers.get("x-service-timestamp"),
    signature: req.headers.get("x-service-signature"),
  };
  return receiveDelivery(headers, body, { ...options, secrets });
}

/**
 * A delivery already read: its three signature headers and its raw body, or null when the
 * body was larger than MAX_WEBHOOK_BYTES and not read in full. The server's webhook door
 * calls this without building a Web `Request` (route.ts, `answerDelivery`).
 */
export async function receiveDelivery(
  headers: SignatureHeaders,
  body: Uint8Array | null,
  options: ReceiveOptions = {},
): Promise<ReceiveResult> {
  const secrets = options.secrets ?? configuredSecrets();
  if (secrets.length === 0) return notConfigured();
  if (!body || body.byteLength > MAX_WEBHOOK_BYTES)
    return {
      outcome: "rejected",
      status: 413,
      code: "payload_too_large",
      detail: `The body is larger than ${MAX_WEBHOOK_BYTES} bytes.`,
    };

  const verdict = verifySignature({ headers, body, secrets, nowMs: options.nowMs });
  if (!verdict.ok) {
    const status = verdict.reason === "no_secret" ? 401 : SIGNATURE_STATUS[verdict.reason];
    return {
      outcome: "rejected",
      status,
      code: status === 401 ? "invalid_signature" : "invalid_request",
      detail: verdict.detail,
    };
  }

  const parsed = parseEnvelope(body);
  if (!parsed)
    return {
      outcome: "rejected",
      status: 400,
      code: "invalid_request",
      detail: "The body is not an event envelope {id, type, occurredAtUtc, data}.",
    };
  const { envelope, text } = parsed;
  if (envelope.id.replaceAll("-", "") !== verdict.eventId) {
    return {
      outcome: "rejected",
      status: 400,
      code: "invalid_request",
      detail: "The envelope id does not match X-Service-Event-Id.",
    };
  }

  const occurredAt = validDate(
    envelope.occurredAtUtc ?? (typeof envelope.data?.occurredAtUtc === "string" ? envelope.data.occurredAtUtc : undefined),
  );
  const refusal = { eventId: verdict.eventId, type: envelope.type, occurredAt, body: text };
  // Only a \u escape can put NUL or a lone surrogate into parsed JSON: the text itself was
  // decoded strictly (no lone surrogates) and JSON refuses raw control characters in strings.
  const unstorable = text.includes("\\u") ? findUnstorableText(envelope) : null;
  if (unstorable)
    return refuse({
      ...refusal,
      reason: `${unstorable.path.slice(0, 200)} holds ${unstorable.problem}, which the database cannot store.`,
    });
  let stored: Stored;
  try {
    stored = await storeInboxEvent({ id: verdict.eventId, type: envelope.type, occurredAt, payload: envelope });
  } catch (error) {
    // The same bytes would be refused on every retry: a permanent refusal, not "retry later".
    if (isDataRefusal(error))
      return refuse({ ...refusal, reason: `The database refused the payload (SQLSTATE ${sqlStateOf(error)}).` });
    // Not acknowledged: the sender keeps the event and retries.
    logger.error("webhook could not be stored", {
      eventId: verdict.eventId,
      error: error instanceof Error ? error.message : String(error),
    });
    return { outcome: "unavailable", code: "inbox_unavailable", detail: "The event could not be stored; retry later." };
  }
  return { outcome: "accepted", eventId: verdict.eventId, duplicate: !stored.stored };
}

/**
 * A signed event whose data can never be stored: answered 422, which the sender treats as
 * final (contract §6 rule 4: parked, not retried), and kept as `refused` for the admin.
 * Only if even that record cannot be written is the sender asked to retry later.
 */
async function refuse(refusal: Refusal): Promise<ReceiveResult> {
  try {
    await recordRefusedEvent(refusal);
  } catch (error) {
    logger.error("refused webhook could not be recorded", {
      eventId: refusal.eventId,
      error: error instanceof Error ? error.message : String(error),
    });
    return { outcome: "unavailable", code: "inbox_unavailable", detail: "The event could not be stored; retry later." };
  }
  logger.warn("webhook refused for good: its data cannot be stored", {
    eventId: refusal.eventId,
    type: refusal.type,
    reason: refusal.reason,
  });
  return {
    outcome: "rejected",
    status: 422,
    code: "unstorable_event",
    detail: `${refusal.reason} The event is refused for good and listed for an admin.`,
  };
}

/**
 * Accepting unsigned events would let anyone move the order mirror. 503 makes the sender
 * keep the event and retry, so nothing is lost while the secret is being configured.
 */
function notConfigured(): ReceiveResult {
  const production = getEnv().NODE_ENV === "production" && getEnv().LOCAL_MODE !== "1";
  (production ? logger.error : logger.warn)("webhook refused: SERVICE_WEBHOOK_SECRETS is not configured");
  return { outcome: "unavailable", code: "webhook_not_configured", detail: "The webhook receiver is not configured." };
}

function configuredSecrets(): readonly string[] {
  try {
    return serviceConfig().webhookSecrets;
  } catch {
    return []; // the upstream itself is not configured: nothing can be verified
  }
}

/** Reads at most `max` bytes; null when the body is larger (declared or actual). */
async function readBounded(req: Request, max: number): Promise<Uint8Array | null> {
  const length = req.headers.get("content-length");
  const declared = Number(length ?? "0");
  if (declared > max) return null;
  if (!req.body) return new Uint8Array(0);
  // A declared length within the limit: the HTTP parser delivers no more than it, so the body is
  // read in one go (a stream reader per chunk costs more than the rest of a small delivery's work).
  if (length !== null && /^\d+$/.test(length)) {
    const body = new Uint8Array(await req.arrayBuffer());
    return body.byteLength > max ? null : body;
  }
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The envelope and the body's text; null when the body is not UTF-8, not JSON or not an envelope. */
function parseEnvelope(body: Uint8Array): { envelope: z.infer<typeof envelopeSchema>; text: string } | null {
  try {
    const text = STRICT_UTF8.decode(body);
    const parsed = envelopeSchema.safeParse(JSON.parse(text));
    return parsed.success ? { envelope: parsed.data, text } : null;
  } catch {
    return null;
  }
}

function validDate(value: string | undefined): Date | null {
  const date = value ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}
