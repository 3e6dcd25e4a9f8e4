import { answerWebhook } from "@/lib/webhooks/answer-delivery";

/**
 * The upstream's webhook door (docs/service-api-v1.md, §6 Events). No session and no Origin
 * check: the signature is the authentication (the request gate lets this path through). The
 * app server answers deliveries itself, ahead of Next (lib/edge/webhook-door.ts), with the same
 * receiver and answer (lib/webhooks/answer-delivery.ts); a delivery it leaves to Next (a chunked
 * body) comes here.
 */
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function POST(req: Request): Promise<Response> {
  const { status, headers, body } = await answerWebhook(req);
  return new Response(body, { status, headers });
}
