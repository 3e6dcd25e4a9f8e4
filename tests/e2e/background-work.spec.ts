import { expect, test } from "@playwright/test";
import pg from "pg";
import { startOwnApp, type OwnApp } from "./own-app";
import { signedInPage } from "./helpers";

/**
 * The worker hangs (issue 52, item 2), on an app of this spec's own (the shared app's worker
 * must keep working): readiness answers 503 worker_stale, the admin's home and the approver's
 * pages say what has stopped and since when, and an approval says it waits to be sent; the
 * worker beats again: readiness 200, the notice gone, and the withdrawal approved meanwhile is
 * sent, once. The worker is frozen (SIGSTOP) rather than killed, so that no supervisor restarts
 * it behind the test's back, and its last beat is moved a minute back rather than waited for.
 */
const PORT = 3310;
const DB_PORT = 25610;
const SANDBOX_PORT = 4760;
const SHOTS = "test-results/background-work";
let app: OwnApp | undefined;
let frozen: number | undefined;

test.describe.configure({ mode: "serial", timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  app = await startOwnApp({ port: PORT, dbPort: DB_PORT, sandboxPort: SANDBOX_PORT, dataDir: ".data/e2e-background-work" });
});

test.afterAll(async () => {
  // A stopped process leaves SIGTERM pending: the app could not stop.
  if (frozen) process.kill(frozen, "SIGCONT");
  await app?.stop();
});

async function sql<Row extends pg.QueryResultRow>(text: string, values: unknown[] = [], timeoutMs = 10_000): Promise<Row[]> {
  const client = new pg.Client({
    connectionString: `postgresql://postgres:postgres@127.0.0.1:${DB_PORT}/postgres?sslmode=disable`,
    query_timeout: timeoutMs,
  });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

const readiness = async () => {
  const res = await fetch(`${app!.origin}/api/health/ready`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

/** "2026-11-28 14:02 UTC", as the pages print a minute. */
const minute = (at: Date) => `${at.toISOString().replace("T", " ").slice(0, 16)} UTC`;

test("the worker hangs: readiness 503 and the pages say what stopped; it goes on: ready, and the approval is sent once", async ({
  browser,
}) => {
  // A worker beats from its start.
  await expect.poll(async () => (await readiness()).status, { timeout: 30_000 }).toBe(200);
  expect((await readiness()).body).toEqual({ status: "ready" });

  // Finance asks for a withdrawal while all runs.
  await sql(
    `INSERT INTO "Setting" (key, value, "updatedAt") VALUES ('payoutDetailsName', $1::jsonb, now())
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, "updatedAt" = now()`,
    [JSON.stringify("Own Payout Ltd")],
  );
  const finance = await signedInPage(browser, "finance", { baseURL: app!.origin });
  const asked = await finance.request.post("/api/withdrawals", {
    headers: { origin: app!.origin },
    data: { amount: "25.00", currency: "USD", reason: "Sweep while the worker is down" },
  });
  expect(asked.status()).toBe(201);
  const { id } = (await asked.json()) as { id: string };

  // The worker hangs: its process is frozen. The embedded database runs one transaction at a
  // time: one the worker froze inside would hold everyone, so it is let go and frozen again.
  const [beat] = await sql<{ pid: number }>(`SELECT pid FROM "WorkerHeartbeat" ORDER BY "beatAt" DESC LIMIT 1`);
  const pid = beat!.pid;
  await expect
    .poll(async () => {
      process.kill(pid, "SIGSTOP");
      frozen = pid;
      const answers = await sql(`SELECT 1`, [], 2_000).then(
        () => true,
        () => false,
      );
      if (!answers) {
        process.kill(pid, "SIGCONT");
        frozen = undefined;
      }
      return answers;
    })
    .toBe(true);
  const [{ lastBeat }] = (await sql<{ lastBeat: Date }>(
    `UPDATE "WorkerHeartbeat" SET "beatAt" = "beatAt" - interval '2 minutes'
     RETURNING ("beatAt" AT TIME ZONE 'UTC') AS "lastBeat"`,
  )) as [{ lastBeat: Date }];
  const stoppedAt = `Background work stopped at ${minute(lastBeat)}`;

  // Readiness: 503 with its reason, and nothing about the configuration.
  const stale = await readiness();
  expect(stale.status).toBe(503);
  expect(stale.body).toMatchObject({ status: 503, code: "worker_stale", title: "Not ready: background work stopped" });
  expect(Object.keys(stale.body).sort()).toEqual(["code", "correlationId", "detail", "status", "title", "type"]);
  expect(JSON.stringify(stale.body)).not.toMatch(/127\.0\.0\.1|postgres|25610|WorkerHeartbeat/);

  // The admin's home says what stopped, since when, and what to do.
  const admin = await signedInPage(browser, "admin", { baseURL: app!.origin });
  const notice = admin.getByTestId("background-work-stopped");
  await expect(notice).toContainText(
    `${stoppedAt}: approved withdrawals are not being sent and notifications are not delivered.`,
  );
  await expect(notice).toContainText("npm run worker");
  await admin.screenshot({ path: `${SHOTS}/admin-home-1440.png` });

  // The approver: spend approvals say it, and so do withdrawals, where an approval waits to be sent.
  const approver = await signedInPage(browser, "approver", { baseURL: app!.origin });
  await approver.goto("/spend-approvals");
  await expect(approver.getByTestId("background-work-stopped")).toContainText(stoppedAt);
  await expect(approver.getByTestId("background-work-stopped")).toContainText("Tell an admin");
  await approver.goto("/withdrawals");
  await expect(approver.getByTestId("background-work-stopped")).toContainText(stoppedAt);
  const card = approver.locator(`[data-testid="withdrawal"][data-id="${id}"]`);
  await card.getByRole("button", { name: "Approve…" }).click();
  await card.getByRole("button", { name: "Approve and send" }).click();
  // At once (no wait for a worker that is not there), and not a plain "Approved".
  await expect(card.getByTestId("withdrawal-state")).toHaveText("Approved, waiting to be sent", { timeout: 8_000 });
  await expect(card).toContainText("Waiting to be sent: background work is stopped. It is sent once, as soon as it runs again.");
  await approver.screenshot({ path: `${SHOTS}/withdrawals-1440.png` });
  const phone = await signedInPage(browser, "approver", { baseURL: app!.origin, viewport: { width: 390, height: 844 } });
  await phone.goto("/withdrawals");
  await expect(phone.getByTestId("background-work-stopped")).toBeVisible();
  await phone.screenshot({ path: `${SHOTS}/withdrawals-390.png` });
  const answer = await approver.request.get(`/api/withdrawals/${id}`);
  expect(((await answer.json()) as { state: string }).state).toBe("approved");

  // Finance's wallet says it too.
  await finance.goto("/wallet");
  await expect(finance.getByTestId("background-work-stopped")).toContainText(stoppedAt);

  // The worker goes on: it beats, readiness is 200, the notice goes, and the approved withdrawal is sent, once.
  process.kill(pid, "SIGCONT");
  frozen = undefined;
  await expect.poll(async () => (await readiness()).status, { timeout: 60_000, intervals: [1_000] }).toBe(200);
  await admin.reload();
  await expect(admin.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(admin.getByTestId("background-work-stopped")).toHaveCount(0);
  await expect
    .poll(
      async () => {
        await approver.reload();
        return card.getByTestId("withdrawal-state").textContent();
      },
      { timeout: 60_000, intervals: [2_000] },
    )
    .toBe("Requested upstream");
  await expect(approver.getByTestId("background-work-stopped")).toHaveCount(0);
  const sent = await sql<{ upstreamId: string | null; sendAttempts: number }>(
    `SELECT "upstreamId", "sendAttempts" FROM "WithdrawalRequest" WHERE id = $1`,
    [id],
  );
  expect(sent).toEqual([{ upstreamId: expect.any(String), sendAttempts: 1 }]);
});
