import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { DEMO_PASSWORD } from "../../playwright.config";
import { signWebhook } from "../../sandbox/signature";

/**
 * `npm run dev` goes through the same edge as `npm start` (lib/edge/serve.ts, loaded by the
 * app server in both modes): the same gate answers, the same webhook door, the same page
 * policy. Run against a dev server of this spec's own (its own ports and data folder), started
 * and stopped here. Slow by nature: Next compiles each page on its first request.
 */
const PORT = Number(process.env.E2E_DEV_PORT ?? 3190);
const ORIGIN = `http://localhost:${PORT}`;
const SECRET = "svcwh_e2edev0f1e2d3c4b5a69788796a5b4c3d2e1f00112233";
const DATA_DIR = ".data/e2e-dev";
let dev: ChildProcess;

test.describe.configure({ timeout: 240_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  rmSync(DATA_DIR, { recursive: true, force: true });
  dev = spawn("npm", ["run", "dev"], {
    detached: true,
    stdio: "ignore",
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR,
      EMBEDDED_DB_PORT: String(Number(process.env.E2E_DEV_DB_PORT ?? 25490)),
      SANDBOX_PORT: String(Number(process.env.E2E_DEV_SANDBOX_PORT ?? 4690)),
      DEMO_PASSWORD,
      SERVICE_WEBHOOK_SECRETS: SECRET,
      LOG_LEVEL: "warn",
    },
  });
  await expect
    .poll(
      async () => {
        try {
          return (await fetch(`${ORIGIN}/api/health`)).status;
        } catch {
          return 0;
        }
      },
      { timeout: 200_000, intervals: [1_000] },
    )
    .toBe(200);
});

test.afterAll(async () => {
  if (dev?.pid) process.kill(-dev.pid, "SIGTERM");
  await expect
    .poll(
      async () => {
        try {
          await fetch(`${ORIGIN}/api/health`);
          return "up";
        } catch {
          return "down";
        }
      },
      { timeout: 30_000 },
    )
    .toBe("down");
});

test("dev mode answers with the same gate: 401, sign-in redirect, 400 for a bad address, 405, 400 for a target that is no path", async () => {
  const api = await fetch(`${ORIGIN}/api/orders`);
  expect(api.status).toBe(401);
  expect(api.headers.get("content-type")).toBe("application/problem+json");
  const page = await fetch(`${ORIGIN}/orders?status=failed`, { redirect: "manual" });
  expect(page.status).toBe(307);
  expect(page.headers.get("location")).toBe(`/signin?callbackUrl=${encodeURIComponent("/orders?status=failed")}`);
  expect((await fetch(`${ORIGIN}/api/orders?reference=a%00b`)).status).toBe(400);
  const wrongMethod = await fetch(`${ORIGIN}/api/health`, { method: "DELETE" });
  expect(wrongMethod.status).toBe(405);
  expect(wrongMethod.headers.get("allow")).toContain("GET");
  const routerState = await fetch(`${ORIGIN}/signin`, { headers: { rsc: "1", "next-router-state-tree": "x" } });
  expect(routerState.status).toBe(400);
});

test("dev mode's webhook door checks, stores and acknowledges a signed delivery, and refuses an unsigned one", async () => {
  const id = randomUUID();
  const body = JSON.stringify({ id, type: "e2e.door_check", occurredAtUtc: new Date().toISOString(), data: {} });
  const eventId = id.replaceAll("-", "");
  const timestamp = String(Math.floor(Date.now() / 1000));
  const headers = { "content-type": "application/json", "x-service-event-id": eventId, "x-service-timestamp": timestamp };
  const signed = await fetch(`${ORIGIN}/api/webhooks/service`, {
    method: "POST",
    headers: { ...headers, "x-service-signature": signWebhook(SECRET, timestamp, eventId, body) },
    body,
  });
  expect(signed.status).toBe(200);
  expect(await signed.json()).toEqual({ received: true, duplicate: false });
  expect(signed.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
  const unsigned = await fetch(`${ORIGIN}/api/webhooks/service`, { method: "POST", headers, body });
  expect([400, 401]).toContain(unsigned.status);
});

test("dev mode's pages carry a fresh policy whose nonce their scripts have, and a person signs in", async ({ page }) => {
  const answer = await page.goto(`${ORIGIN}/signin`);
  const policy = answer!.headers()["content-security-policy"]!;
  const nonce = /'nonce-([^']+)'/.exec(policy)![1]!;
  const scripts = await page.locator("script[nonce]").evaluateAll((nodes) => nodes.map((n) => (n as HTMLScriptElement).nonce));
  expect(scripts.length).toBeGreaterThan(0);
  for (const found of scripts) expect(found).toBe(nonce);
  await page.getByLabel("Email").fill("viewer@demo.local");
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("current-staff")).toContainText("viewer@demo.local", { timeout: 120_000 });
});
