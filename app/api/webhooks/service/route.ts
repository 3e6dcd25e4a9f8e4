import { problem } from "@/lib/http/problem";
import { logger } from "@/lib/log";
import { receiveWebhook } from "@/lib/webhooks/receive-webhook";

/**
 * The upstream's webhook door (docs/service-api-v1.md, §6 Events). No session and no Origin check: the
 * signature is the authentication (proxy.ts lets this path through). Statuses follow the
 * sender's retry rules: 401 for a signature that matches no secret (retried, which covers
 * a rotation not yet deployed here), 400 for malformed input and 413 for an oversized body
 * (permanent rejections), 422 for a signed event whose data the database can never store
 * (permanent too; kept as `refused` for an admin), 200 for accepted and duplicate events,
 * 503 only when the event could not be kept (not configured, database down) so that the
 * sender retries.
 */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function POST(req: Request): Promise<Response> {
  try {
    const result = await receiveWebhook(req);
    switch (result.outcome) {
      case "accepted":
        return Response.json(
          { received: true, duplicate: result.duplicate },
          { status: 200, headers: { "cache-control": "no-store" } },
        );
      case "rejected":
        return problem(result.code, result.detail, { status: result.status });
      case "unavailable":
        return problem(result.code, result.detail, { status: 503 });
    }
  } catch (error) {
    logger.error("webhook receiver failed", { error: error instanceof Error ? error.message : String(error) });
    return problem("inbox_unavailable", "The event could not be stored; retry later.", { status: 503 });
  }
}
