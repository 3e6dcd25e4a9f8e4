import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Json } from "./support/client";
import { expectRefused } from "./support/state";
import { findProduct, inlineItem, isVariantGiftCard } from "./support/catalog";
import { spawnSandbox, type ChildSandbox } from "./support/process";
import { startReceiver, type Receiver } from "./support/receiver";
import { waitFor } from "./support/wait";

const API_KEY = "svckey_standalone01_StandaloneSecretValue0123456789";
const WEBHOOK_SECRET = "svcwh_standalone_webhook_secret";

let receiver: Receiver;
let sb: ChildSandbox;
const stateDir = mkdtempSync(path.join(tmpdir(), "sandbox-state-"));
const stateFile = path.join(stateDir, "state.json");
const env = {
  SANDBOX_PORT: "0",
  SANDBOX_API_KEY: API_KEY,
  SANDBOX_WEBHOOK_SECRET: WEBHOOK_SECRET,
  SANDBOX_WALLET: "USD:5000,EUR:2000",
  SANDBOX_STATE_FILE: stateFile,
  SANDBOX_FULFILMENT_DELAY_MS: "50",
  SANDBOX_QUOTE_TTL_SECONDS: "60",
};

beforeAll(async () => {
  receiver = await startReceiver();
  sb = await spawnSandbox({ ...env, SANDBOX_WEBHOOK_URL: receiver.url });
});
afterAll(async () => {
  await sb.stop().catch(() => undefined);
  await receiver.close();
  rmSync(stateDir, { recursive: true, force: true });
});

describe("the standalone sandbox (npm run sandbox)", () => {
  it("prints exactly one JSON line with baseUrl, apiKey and webhookSecret when ready, on a random port for SANDBOX_PORT=0", () => {
    const ready = JSON.parse(sb.readyLine);
    expect(Object.keys(ready).sort()).toEqual(["apiKey", "baseUrl", "webhookSecret"]);
    expect(ready.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.baseUrl).not.toBe("http://127.0.0.1:4010");
    expect(ready.apiKey).toBe(API_KEY);
    expect(ready.webhookSecret).toBe(WEBHOOK_SECRET);
  });

  it("opens the wallet from SANDBOX_WALLET", async () => {
    expect((await sb.api("/wallet/balance?currency=USD")).body.availableBalance).toBe(5000);
    expect((await sb.api("/wallet/balance?currency=EUR")).body.availableBalance).toBe(2000);
  });

  it("runs the whole purchase flow over HTTP and signs webhooks to SANDBOX_WEBHOOK_URL", async () => {
    const product = await findProduct(sb, isVariantGiftCard);
    const quote = (await sb.api("/quotes", { body: inlineItem(product, 2) })).body;
    expect(Date.parse(quote.expiresAtUtc) - Date.parse(quote.createdAtUtc)).toBe(60_000);
    const placed = await sb.api("/orders", {
      body: { quoteId: quote.id, clientReference: "standalone-1" },
      headers: { "Idempotency-Key": "standalone-1" },
    });
    expect(placed.status).toBe(202);
    expect(placed.body.total).toBe(quote.total);
    await waitFor(async () => (await sb.api(`/orders/${placed.body.id}`)).body.status === "fulfilled", "fulfilment");
    const reveal = await sb.api(`/orders/${placed.body.id}/fulfillment`, {
      method: "POST",
      headers: { "Idempotency-Key": "standalone-reveal" },
    });
    expect(reveal.body.revealCount).toBe(1);
    const delivery = await waitFor(
      () => receiver.received.find((r) => JSON.parse(r.body).type === "order.fulfilled"),
      "order.fulfilled webhook",
    );
    const { headers, body } = delivery;
    const signed = `${headers["x-service-timestamp"]}.${headers["x-service-event-id"]}.${body}`;
    expect(headers["x-service-signature"]).toBe(`v1=${createHmac("sha256", WEBHOOK_SECRET).update(signed).digest("hex")}`);
  });

  it("serves the control plane under /_sandbox and problem documents under /api/v1", async () => {
    expect((await sb.control("GET", "/health")).body.ok).toBe(true);
    await expectRefused(sb, () => sb.api("/orders", { key: null }), 401, "unauthorized");
  });

  it("keeps orders, balances and keys across a restart with SANDBOX_STATE_FILE", async () => {
    const product = await findProduct(sb, isVariantGiftCard);
    const placed = (
      await sb.api("/orders", {
        body: { item: inlineItem(product), clientReference: "persisted" },
        headers: { "Idempotency-Key": "persisted-1" },
      })
    ).body;
    await waitFor(async () => (await sb.api(`/orders/${placed.id}`)).body.status === "fulfilled", "fulfilment");
    const extraKey = (await sb.control("POST", "/keys", { scopes: ["orders.read"] })).body.key;
    await sb.control("POST", "/clock/advance", { seconds: 3600 });
    const balance = (await sb.api("/wallet/balance?currency=USD")).body;
    const clock = (await sb.control("GET", "/clock")).body;
    expect(await sb.stop()).toBe(0);
    const saved = JSON.parse(readFileSync(stateFile, "utf8")) as Json;
    expect(saved.version).toBe(1);
    expect(JSON.stringify(saved)).not.toContain(extraKey.split("_")[2]); // only hashes of key secrets are stored

    sb = await spawnSandbox(env);
    expect((await sb.api(`/orders/${placed.id}`)).body).toMatchObject({ id: placed.id, status: "fulfilled" });
    expect((await sb.api("/wallet/balance?currency=USD")).body.availableBalance).toBe(balance.availableBalance);
    expect((await sb.api("/orders", { key: extraKey })).status).toBe(200);
    expect((await sb.control("GET", "/clock")).body.offsetSeconds).toBe(clock.offsetSeconds);
    const replay = await sb.api("/orders", {
      body: { item: inlineItem(product), clientReference: "persisted" },
      headers: { "Idempotency-Key": "persisted-1" },
    });
    expect(replay.body.id).toBe(placed.id); // idempotency survives the restart too
  });

  it("stops with exit code 0 on SIGTERM", async () => {
    expect(await sb.stop()).toBe(0);
  });
});

describe("invalid configuration", () => {
  it("exits with a message naming the bad variable", async () => {
    await expect(spawnSandbox({ SANDBOX_PORT: "0", SANDBOX_RATE_LIMIT: "lots" })).rejects.toThrow(/SANDBOX_RATE_LIMIT/);
  });
});
