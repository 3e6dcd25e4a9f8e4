import { expect, test } from "@playwright/test";
import {
  folderHeld,
  groupPids,
  killGroup,
  launch,
  launcherPid,
  launchSandbox,
  nextWorkerPid,
  withLaunchDb,
  workerPids,
  type Launch,
} from "./supervision";
import { signedInPage } from "./helpers";

/**
 * The launcher as the supervisor of the worker (README, "Supervision and stopping"), on apps
 * of this spec's own: a worker killed with SIGKILL is started again and does the work it missed; five
 * fast crashes make the launcher give up with a non-zero exit; SIGTERM after the worker died by
 * a signal still stops everything and frees the data folder. Graceful stop: graceful-stop.spec.ts.
 */
test.describe.configure({ mode: "serial", timeout: 6 * 60_000 });

let app: Launch | undefined;

test.afterAll(() => killGroup(app));

const readiness = async (launched: Launch) => (await fetch(`${launched.origin}/api/health/ready`)).status;

test("a worker killed with SIGKILL: readiness 503 and the admin's home says so, a new worker within a minute, readiness 200, and a withdrawal approved meanwhile is sent once and its email delivered", async ({
  browser,
}) => {
  app = await launch(0);
  const admin = await signedInPage(browser, "admin", { baseURL: app.origin });
  const headers = { origin: app.origin };
  expect(
    (await admin.request.put("/api/settings", { headers, data: { payoutDetailsName: "Supervision Ltd · account 0001" } })).ok(),
  ).toBe(true);
  const finance = await signedInPage(browser, "finance", { baseURL: app.origin });
  const amount = "23.45";
  expect((await finance.request.post("/api/withdrawals/quotes", { headers, data: { amount, currency: "USD" } })).ok()).toBe(true);
  const requested = await finance.request.post("/api/withdrawals", {
    headers,
    data: { amount, currency: "USD", reason: "Supervision drill" },
  });
  expect(requested.status(), await requested.text()).toBe(201);
  const { id } = (await requested.json()) as { id: string };
  const approver = await signedInPage(browser, "approver", { baseURL: app.origin });

  const first = await nextWorkerPid(app, []);
  await expect.poll(() => readiness(app!), { timeout: 30_000 }).toBe(200);
  process.kill(first, "SIGKILL");
  // The launcher records the death before it says so in its log: from then on, not ready.
  await expect
    .poll(() => app!.output(), { timeout: 10_000 })
    .toMatch(/the worker stopped unexpectedly \(killed by SIGKILL\); starting it again in 1 s/);
  const notReady = await fetch(`${app.origin}/api/health/ready`);
  // Approved while no worker runs: the send waits in the queue for the next worker.
  const approval = await approver.request.post(`/api/withdrawals/${id}/approval`, { headers, data: {} });
  expect(approval.status(), await approval.text()).toBe(200);
  // (No new worker process yet, so neither answer can have seen one beat.)
  expect(workerPids(app), "both answers came before a new worker ran").toHaveLength(1);
  expect(notReady.status).toBe(503);
  expect(await notReady.json()).toMatchObject({ code: "worker_stale" });
  expect(await approval.json()).toMatchObject({ stateLabel: "Approved, waiting to be sent", waitsForBackgroundWork: true });

  const second = await nextWorkerPid(app, [first], 60_000);
  expect(second).not.toBe(first);
  await expect.poll(() => readiness(app!), { timeout: 60_000 }).toBe(200);
  // The admin's home tells of the death for an hour: when, and how.
  await admin.goto("/");
  await expect(admin.getByTestId("worker-died")).toContainText(
    /The worker died at .* UTC \(killed by SIGKILL\) and was started again/,
  );

  // Sent once: one upstream withdrawal of that amount, linked to the request.
  await expect
    .poll(
      async () =>
        ((await (await finance.request.get(`/api/withdrawals/${id}`)).json()) as { upstreamId: string | null }).upstreamId,
      {
        timeout: 60_000,
        intervals: [1_000],
      },
    )
    .toBeTruthy();
  const upstream = await launchSandbox<{ items: { id: string; amount: number }[] }>(app, "/withdrawals?limit=100");
  expect(upstream.items.filter((w) => w.amount.toFixed(2) === amount)).toHaveLength(1);
  // The requester's "decided" email, written while no worker ran, is sent by the new one.
  await expect
    .poll(
      () =>
        withLaunchDb(app!, async (db) => {
          const { rows } = await db.query<{ status: string }>(
            `SELECT d.status FROM "NotificationDelivery" d JOIN "NotificationEvent" e ON e.id = d."eventId"
             JOIN "Staff" s ON s.id = d."staffId"
             WHERE e.kind = 'approval.decided' AND e.link LIKE $1 AND s.email = 'finance@demo.local' AND d.channel = 'email'`,
            [`%${id}%`],
          );
          return rows.map((r) => r.status);
        }),
      { timeout: 60_000, intervals: [1_000] },
    )
    .toEqual(["sent"]);
});

test("SIGTERM after the worker died by a signal: every process gone and the data folder free within 20 s", async () => {
  expect(app, "the app of the test before").toBeDefined();
  const launched = app!;
  const worker = workerPids(launched).at(-1)!;
  process.kill(worker, "SIGKILL");
  const crashes = () => launched.output().match(/the worker stopped unexpectedly/g)?.length ?? 0;
  await expect.poll(crashes, { timeout: 10_000 }).toBe(2);

  const signalledAt = Date.now();
  process.kill(launcherPid(launched), "SIGTERM");
  await expect
    .poll(async () => groupPids(launched).length === 0 && !(await folderHeld(launched)), { timeout: 20_000, intervals: [250] })
    .toBe(true);
  test.info().annotations.push({ type: "stopped in", description: `${Date.now() - signalledAt} ms` });
  await expect.poll(() => launched.child.exitCode).toBe(0); // npm, reaped once its last child is
  expect(crashes(), "a worker stopped on purpose is not a crash").toBe(2);
});

test("after five fast crashes of the worker the launcher gives up: everything stops and it exits non-zero", async () => {
  const launched = await launch(1);
  try {
    const killed: number[] = [];
    for (let crash = 1; crash <= 5; crash++) {
      const pid = await nextWorkerPid(launched, killed);
      process.kill(pid, "SIGKILL");
      killed.push(pid);
    }
    await expect.poll(() => launched.child.exitCode, { timeout: 60_000 }).not.toBeNull();
    expect(launched.child.exitCode).not.toBe(0);
    const log = launched.output();
    for (const pause of [1, 2, 4, 8]) expect(log).toContain(`starting it again in ${pause} s`);
    expect(log).toMatch(
      /the worker stopped unexpectedly \(killed by SIGKILL\), its 5th crash without a healthy minute between: giving up/,
    );
    await expect
      .poll(async () => groupPids(launched).length === 0 && !(await folderHeld(launched)), { timeout: 20_000 })
      .toBe(true);
  } finally {
    killGroup(launched);
  }
});
