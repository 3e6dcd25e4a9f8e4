import { randomUUID } from "node:crypto";
import http from "node:http";
import { expect, test } from "@playwright/test";
import { E2E_PORT, E2E_WEBHOOK_SECRET } from "../../playwright.config";
import { signWebhook } from "../../sandbox/signature";
import { withDb } from "./helpers";

/**
 * The upstream's deliveries as the app server answers them: a POST to the webhook path with a
 * declared length is taken ahead of Next by the edge's webhook door (lib/edge/webhook-door.ts,
 * with lib/webhooks/answer-delivery.ts); anything else still goes through the request gate and Next. Either
 * way a delivery must be checked, stored and answered exactly as the route says.
 * The events are of a kind the worker does not act on, so they leave no work behind.
 */
const PATH = "/api/webhooks/service";

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string; reusedSocket: boolean };

function send(
  agent: http.Agent,
  body: string,
  options: { path?: string; method?: string; secret?: string; chunked?: boolean; eventId?: string } = {},
): Promise<Answer> {
  const eventId = options.eventId ?? (JSON.parse(body) as { id?: string }).id?.replaceAll("-", "") ?? "";
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = signWebhook(options.secret ?? E2E_WEBHOOK_SECRET, timestamp, eventId, body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "localhost",
        port: E2E_PORT,
        path: options.path ?? PATH,
        method: options.method ?? "POST",
        agent,
        headers: {
          "content-type": "application/json",
          ...(options.chunked ? { "transfer-encoding": "chunked" } : { "content-length": Buffer.byteLength(body) }),
          "x-service-event-id": eventId,
          "x-service-timestamp": timestamp,
          "x-service-signature": signature,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, reusedSocket: req.reusedSocket }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function event(extra: Record<string, unknown> = {}) {
  const id = randomUUID();
  return {
    id,
    body: JSON.stringify({
      id,
      type: "e2e.door_check",
      occurredAtUtc: new Date().toISOString(),
      data: { note: "door" },
      ...extra,
    }),
  };
}

async function storedState(id: string): Promise<string | null> {
  return withDb(async (db) => {
    const { rows } = await db.query<{ state: string }>(`SELECT state FROM "WebhookEvent" WHERE id = $1`, [
      id.replaceAll("-", ""),
    ]);
    return rows[0]?.state ?? null;
  });
}

test("a signed delivery is stored before it is acknowledged, once, with the app's security headers", async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const { id, body } = event();
    const first = await send(agent, body);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toEqual({ received: true, duplicate: false });
    expect(await storedState(id)).not.toBeNull();
    expect(first.headers["cache-control"]).toContain("no-store");
    expect(first.headers["x-content-type-options"]).toBe("nosniff");
    expect(first.headers["x-frame-options"]).toBe("DENY");
    // Answered by the door itself: Next's answers carry the pages' policy (the request gate), this one lets nothing load.
    expect(first.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");

    const again = await send(agent, body);
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body)).toEqual({ received: true, duplicate: true });
    expect(again.reusedSocket).toBe(true);
  } finally {
    agent.destroy();
  }
});

test("refusals are the route's own, and a refused body is read to its end so the connection goes on", async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const forged = event();
    const unsigned = await send(agent, forged.body, { secret: "svcwh_not_the_secret" });
    expect(unsigned.status).toBe(401);
    expect(JSON.parse(unsigned.body)).toMatchObject({ status: 401, code: "invalid_signature" });
    expect(unsigned.headers["content-type"]).toContain("application/problem+json");
    expect(await storedState(forged.id)).toBeNull();

    // Over the receiver's 256 KiB: refused as too large, and nothing is stored.
    const large = event({ data: { pad: "x".repeat(300 * 1024) } });
    const tooLarge = await send(agent, large.body);
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body)).toMatchObject({ code: "payload_too_large" });
    expect(await storedState(large.id)).toBeNull();

    const next = event();
    const after = await send(agent, next.body);
    expect(after.status).toBe(200);
    expect(after.reusedSocket).toBe(true);
  } finally {
    agent.destroy();
  }
});

test("what the door does not take goes through Next as before: other methods, a query string, a chunked body", async () => {
  const agent = new http.Agent({ keepAlive: false });
  const wrongMethod = await send(agent, "", { method: "GET", eventId: "x" });
  expect(wrongMethod.status).toBe(405);
  expect(wrongMethod.headers["allow"]).toContain("POST");

  const withQuery = event();
  const queried = await send(agent, withQuery.body, { path: `${PATH}?source=e2e` });
  expect(queried.status).toBe(200);
  expect(await storedState(withQuery.id)).not.toBeNull();

  const chunked = event();
  const streamed = await send(agent, chunked.body, { chunked: true });
  expect(streamed.status).toBe(200);
  expect(JSON.parse(streamed.body)).toEqual({ received: true, duplicate: false });
  expect(await storedState(chunked.id)).not.toBeNull();
});
