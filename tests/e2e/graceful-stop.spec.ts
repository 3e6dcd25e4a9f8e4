import http from "node:http";
import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { groupPids, killGroup, launch, launcherPid, launchSandbox, withLaunchDb, type Launch } from "./supervision";
import { signedInPage } from "./helpers";

/**
 * Graceful stop (README, "Supervision and stopping"), on an app of this spec's own: SIGTERM
 * to the launcher in the middle of 100 reads and 20 orders, half sent before it and half once
 * the app has begun to stop. Every request is answered (no reset, no 5xx), each order exists once in the app and
 * once upstream, and the launcher exits 0. The requests go over connections the app had
 * already accepted (a warm keep-alive pool, as a load balancer keeps), never a new one: a
 * stopping app takes no new connections.
 */
test.describe.configure({ timeout: 8 * 60_000 });

let app: Launch | undefined;
test.afterAll(() => killGroup(app));

type Answer = { status: number } | { error: string };

test("SIGTERM during 100 reads and 20 orders: each is answered, no order lost or doubled, exit 0", async ({ browser }) => {
  app = await launch(2);
  const buyer = await signedInPage(browser, "buyer", { baseURL: app.origin });
  const cookie = (await buyer.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  await launchSandbox(app, "/_sandbox/wallet", { method: "PUT", body: JSON.stringify({ balances: { USD: 1_000_000 } }) });
  const products = await launchSandbox<{
    items: { id: string; type: string; currency: string; isAvailable: boolean; variants: { id: string; price: number }[] }[];
  }>(app, "/products?limit=100");
  const product = products.items.find(
    (p) => p.isAvailable && p.type === "gift-card" && p.currency === "USD" && p.variants.length > 0 && p.variants[0]!.price < 40,
  )!;

  const agent = new http.Agent({ keepAlive: true, maxSockets: 120 });
  let answered = 0;
  const send = (method: "GET" | "POST", route: string, body?: unknown) => {
    let written!: () => void;
    const sent = new Promise<void>((resolve) => (written = resolve));
    const answer = new Promise<Answer>((settle) => {
      let settled = false;
      const resolve = (a: Answer) => {
        if (settled) return;
        settled = true;
        answered++;
        settle(a);
      };
      const req = http.request(
        {
          host: "localhost",
          port: app!.port,
          method,
          path: route,
          agent,
          headers: { cookie, origin: app!.origin, "content-type": "application/json" },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0 }));
          res.on("error", (error) => resolve({ error: error.message }));
        },
      );
      req.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      req.on("finish", written);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
    return { sent, answer };
  };

  // 120 connections accepted and idle in the pool, so that each request below goes out at once.
  const warm = await Promise.all(Array.from({ length: 120 }, () => send("GET", "/api/health").answer));
  expect(warm.every((a) => "status" in a && a.status === 200)).toBe(true);

  const run = `graceful-${Date.now()}`;
  const references = Array.from({ length: 20 }, (_, i) => `${run}-${i}`);
  const item = { productId: product.id, variantId: product.variants[0]!.id, quantity: 1, currency: "USD" };
  const burst = (half: number) => [
    ...Array.from({ length: 50 }, () => send("GET", "/api/orders?limit=20")),
    ...references
      .slice(half * 10, half * 10 + 10)
      .map((clientReference) => send("POST", "/api/orders", { idempotencyKey: randomUUID(), clientReference, item })),
  ];
  // Half before SIGTERM (in flight when it comes), half once each app process has begun to stop
  // (sent over connections it had accepted before, as a load balancer's pool does).
  const before = burst(0);
  await Promise.all(before.map((r) => r.sent));
  const pendingAtSignal = before.length - (answered - warm.length);
  const signalledAt = Date.now();
  process.kill(launcherPid(app), "SIGTERM");
  await expect
    .poll(() => app!.output().match(/\[serve-app\] app process \d+ stopping/g)?.length ?? 0, { intervals: [50] })
    .toBe(2);
  const after = burst(1);
  const requests = [...before, ...after];

  const answers = await Promise.all(requests.map((r) => r.answer));
  agent.destroy();
  expect(pendingAtSignal, "requests were still in flight when SIGTERM came").toBeGreaterThan(0);
  const tally: Record<string, number> = {};
  for (const a of answers) {
    const key = "status" in a ? String(a.status) : a.error;
    tally[key] = (tally[key] ?? 0) + 1;
  }
  test
    .info()
    .annotations.push({ type: "answers", description: `${JSON.stringify(tally)}; in flight at SIGTERM: ${pendingAtSignal}` });
  const reads = [...answers.slice(0, 50), ...answers.slice(60, 110)];
  const orders = [...answers.slice(50, 60), ...answers.slice(110)];
  expect(
    reads.every((a) => "status" in a && a.status === 200),
    JSON.stringify(tally),
  ).toBe(true);
  expect(
    orders.every((a) => "status" in a && a.status >= 200 && a.status < 300),
    JSON.stringify(tally),
  ).toBe(true);

  // npm exits last (once every process it started has), with the launcher's code.
  await expect.poll(() => app!.child.exitCode, { timeout: 30_000 }).toBe(0);
  test.info().annotations.push({ type: "stopped in", description: `${Date.now() - signalledAt} ms` });
  expect(groupPids(app)).toEqual([]);

  // Started again on the same folder: each order is there once, in the app and upstream.
  app = await launch(2, { fresh: false });
  const mirrored = await withLaunchDb(
    app,
    async (db) =>
      (
        await db.query<{ ref: string; n: string }>(
          `SELECT "clientReference" AS ref, count(*) AS n FROM "Order" WHERE "clientReference" LIKE $1 GROUP BY 1`,
          [`${run}-%`],
        )
      ).rows,
  );
  expect(mirrored.map((r) => r.ref).sort()).toEqual([...references].sort());
  expect(mirrored.every((r) => Number(r.n) === 1)).toBe(true);
  for (const reference of references) {
    const upstream = await launchSandbox<{ items: unknown[] }>(app, `/orders?clientReference=${encodeURIComponent(reference)}`);
    expect(upstream.items, reference).toHaveLength(1);
  }
  // As systemd (KillMode=mixed) or a container runtime stops it: SIGTERM to npm, the main process.
  const relaunched = app;
  process.kill(relaunched.child.pid!, "SIGTERM");
  await expect.poll(() => relaunched.child.exitCode, { timeout: 30_000 }).toBe(0);
  expect(groupPids(relaunched)).toEqual([]);
  expect(relaunched.output()).toMatch(/\[serve-app\] app process \d+ stopping/);
  expect(relaunched.output()).not.toContain("the process that started this launcher is gone");
});
