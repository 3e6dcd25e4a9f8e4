import { describe, expect, test } from "vitest";
import { verifySignature, type SignatureHeaders } from "@/lib/webhooks/verify-signature";

// Fixed vectors, computed once outside Node with OpenSSL:
//   printf '%s' "$TS.$ID.$BODY" | openssl dgst -sha256 -hmac "$SECRET"
const SECRET = "svcwh_test_4f9c2b7e1d8a6035c9e2f1b4a7d0e3c6";
const NEXT_SECRET = "svcwh_next_0a1b2c3d4e5f60718293a4b5c6d7e8f9";
const TS = "1767225600"; // 2026-01-01T00:00:00Z
const NOW = 1767225600_000;
const ID = "9b2f6c1e4a7d4e0f8c3b5a6d7e8f9012";
const BODY =
  '{"id":"9b2f6c1e-4a7d-4e0f-8c3b-5a6d7e8f9012","type":"order.fulfilled","occurredAtUtc":"2025-12-31T23:59:58.000Z","data":{"orderId":"ord_123","clientReference":"ref-1","status":"fulfilled","occurredAtUtc":"2025-12-31T23:59:58.000Z"}}';
const SIG = "v1=97cc925723ddda30ebf7a4e7b5d7d46829705dfd064be9b270d186a20fced45a";
const SIG_NEXT = "v1=95de024ef27388a759c4737582d922616f8fcc72ccc2a596c54d5f1d63d47767";
// Non-ASCII: the MAC is over the UTF-8 bytes of the raw body.
const ID_UTF8 = "0f1e2d3c4b5a49688776655443322110";
const BODY_UTF8 = '{"id":"0f1e2d3c-4b5a-4968-8776-655443322110","type":"wallet.credited","data":{"note":"café ✓"}}';
const SIG_UTF8 = "v1=2082c5d995c43e5023eaea245d0cf613373a408465d0c707218551b3c480c9ed";

const headers = (over: Partial<SignatureHeaders> = {}): SignatureHeaders => ({
  eventId: ID,
  timestamp: TS,
  signature: SIG,
  ...over,
});
const verify = (
  over: Partial<SignatureHeaders> = {},
  body: string | Uint8Array = BODY,
  secrets: string[] = [SECRET],
  nowMs = NOW,
) => verifySignature({ headers: headers(over), body, secrets, nowMs });

describe("webhook signature (fixed vectors)", () => {
  test("the contract's vector verifies, as a string and as raw bytes", () => {
    expect(verify()).toEqual({ ok: true, eventId: ID, timestamp: Number(TS), secretIndex: 0 });
    expect(verify({}, new TextEncoder().encode(BODY)).ok).toBe(true);
  });

  test("a non-ASCII body is signed over its UTF-8 bytes", () => {
    expect(verify({ eventId: ID_UTF8, signature: SIG_UTF8 }, BODY_UTF8).ok).toBe(true);
    expect(verify({ eventId: ID_UTF8, signature: SIG_UTF8 }, Buffer.from(BODY_UTF8, "utf8")).ok).toBe(true);
    expect(verify({ eventId: ID_UTF8, signature: SIG_UTF8 }, Buffer.from(BODY_UTF8, "latin1")).ok).toBe(false);
  });

  test("a wrong secret is refused as a bad signature", () => {
    expect(verify({}, BODY, ["svcwh_someone_else"])).toMatchObject({ ok: false, reason: "bad_signature" });
  });

  test("a tampered body, event id or timestamp breaks the signature", () => {
    expect(verify({}, BODY.replace("fulfilled", "refunded"))).toMatchObject({ ok: false, reason: "bad_signature" });
    expect(verify({}, BODY + " ")).toMatchObject({ ok: false, reason: "bad_signature" });
    expect(verify({ eventId: "9b2f6c1e4a7d4e0f8c3b5a6d7e8f9013" })).toMatchObject({ ok: false, reason: "bad_signature" });
    expect(verify({ timestamp: "1767225601" }, BODY, [SECRET], NOW)).toMatchObject({ ok: false, reason: "bad_signature" });
    expect(verify({ signature: SIG.slice(0, -1) + "b" })).toMatchObject({ ok: false, reason: "bad_signature" });
  });

  test("timestamps more than 5 minutes old or ahead are refused; the edges are accepted", () => {
    expect(verify({}, BODY, [SECRET], NOW + 300_000).ok).toBe(true);
    expect(verify({}, BODY, [SECRET], NOW + 300_999).ok).toBe(true);
    expect(verify({}, BODY, [SECRET], NOW + 301_000)).toMatchObject({ ok: false, reason: "stale_timestamp" });
    expect(verify({}, BODY, [SECRET], NOW - 300_000).ok).toBe(true);
    expect(verify({}, BODY, [SECRET], NOW - 301_000)).toMatchObject({ ok: false, reason: "future_timestamp" });
    expect(verify({}, BODY, [SECRET], NOW + 86_400_000)).toMatchObject({ ok: false, reason: "stale_timestamp" });
  });

  test("a forged delivery is a bad signature whatever its timestamp", () => {
    expect(verify({}, BODY, ["svcwh_someone_else"], NOW + 86_400_000)).toMatchObject({ ok: false, reason: "bad_signature" });
  });

  test("missing and odd headers are malformed, not bad signatures", () => {
    expect(verify({ eventId: null })).toMatchObject({ ok: false, reason: "missing_header" });
    expect(verify({ timestamp: "" })).toMatchObject({ ok: false, reason: "missing_header" });
    expect(verify({ signature: undefined })).toMatchObject({ ok: false, reason: "missing_header" });
    expect(verify({ eventId: ID.toUpperCase() })).toMatchObject({ ok: false, reason: "bad_event_id" });
    expect(verify({ eventId: "9b2f6c1e-4a7d-4e0f-8c3b-5a6d7e8f9012" })).toMatchObject({ ok: false, reason: "bad_event_id" });
    expect(verify({ eventId: ID.slice(1) })).toMatchObject({ ok: false, reason: "bad_event_id" });
    expect(verify({ timestamp: "1767225600.5" })).toMatchObject({ ok: false, reason: "malformed_header" });
    expect(verify({ timestamp: "-1" })).toMatchObject({ ok: false, reason: "malformed_header" });
    expect(verify({ timestamp: "2026-01-01T00:00:00Z" })).toMatchObject({ ok: false, reason: "malformed_header" });
    expect(verify({ signature: SIG.slice(3) })).toMatchObject({ ok: false, reason: "malformed_header" });
    expect(verify({ signature: SIG.toUpperCase() })).toMatchObject({ ok: false, reason: "malformed_header" });
    expect(verify({ signature: `v0=${SIG.slice(3)}` })).toMatchObject({ ok: false, reason: "malformed_header" });
    expect(verify({ signature: `${SIG},${SIG}` })).toMatchObject({ ok: false, reason: "malformed_header" });
    expect(verify({ signature: SIG.slice(0, -2) })).toMatchObject({ ok: false, reason: "malformed_header" });
  });

  test("rotation: either of two configured secrets verifies, and says which", () => {
    expect(verify({}, BODY, [NEXT_SECRET, SECRET])).toMatchObject({ ok: true, secretIndex: 1 });
    expect(verify({ signature: SIG_NEXT }, BODY, [SECRET, NEXT_SECRET])).toMatchObject({ ok: true, secretIndex: 1 });
    expect(verify({ signature: SIG_NEXT }, BODY, [NEXT_SECRET])).toMatchObject({ ok: true, secretIndex: 0 });
    expect(verify({ signature: SIG_NEXT }, BODY, [SECRET])).toMatchObject({ ok: false, reason: "bad_signature" });
  });

  test("with no secret configured nothing verifies", () => {
    expect(verify({}, BODY, [])).toMatchObject({ ok: false, reason: "no_secret" });
    expect(verify({}, BODY, [""])).toMatchObject({ ok: false, reason: "no_secret" });
  });
});
