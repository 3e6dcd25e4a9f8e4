/**
 * `npm run bench:webhooks`: how many webhook deliveries per second the receiver takes on
 * the embedded database, against a bare node:http server that only checks the HMAC.
 *
 * Both sides are HTTP over loopback with keep-alive. The receiver is served as the production
 * server serves it: lib/edge/webhook-door.ts hands the delivery to answerDelivery (lib/webhooks/answer-delivery.ts)
 * (verify, inbox insert with dedupe, a drain request to the workers — no processing, as in
 * production) ahead of Next; here in a node:http server of its own, one process, like the
 * bare one. The same signed deliveries, some of them duplicates,
 * go to each at bounded concurrency. Then the same deliveries go to the app as `npm start`
 * runs it (WEB_CONCURRENCY app processes behind one port, the worker, the embedded database
 * in the launcher), for the rate and CPU per delivery as deployed (the worker processes the
 * events meanwhile, as it would). Bounded in count and in time; it stops by itself.
 * Settings: BENCH_EVENTS (distinct events, default 2000), BENCH_DUPLICATES (extra
 * deliveries of earlier events, as a share, default 0.2), BENCH_CONCURRENCY (default 16), BENCH_MAX_SECONDS (per run, default 60).
 *
 * BENCH_AGAINST=<another built checkout> (e.g. a worktree of the base, after `next build`
 * there) measures only the deployed app, this checkout's and that one's side by side (ports
 * 3240/4670/25480 and the next ones), BENCH_ROUNDS (default 6) batches of BENCH_EVENTS fresh
 * deliveries each, by turns (A B, B A, …), and prints each one's median rate and CPU per
 * delivery and the ratio: runs taken one after the other on this machine do not compare.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { spawn } from "node:child_process";
import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism } from "node:os";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { startEmbeddedDb } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";
import { isWebhookDelivery, serveWebhook } from "@/lib/edge/webhook-door";
import { signWebhook } from "../sandbox/signature";
import { checkoutsToMeasure, type Checkout } from "./lib/compare-checkouts";
import { launchApp, type LaunchedApp } from "./lib/launch-app";
import { cpuBetween, snapshotCpu } from "./lib/process-cpu";
import { benchNumber } from "./lib/setting";

const EVENTS = benchNumber("BENCH_EVENTS", 2000, { min: 1 });
const DUPLICATES = benchNumber("BENCH_DUPLICATES", 0.2, { max: 1, whole: false });
const CONCURRENCY = benchNumber("BENCH_CONCURRENCY", 16, { min: 1 });
const MAX_SECONDS = benchNumber("BENCH_MAX_SECONDS", 60, { min: 1 });
const ROUNDS = benchNumber("BENCH_ROUNDS", 6, { min: 1 });
const ROOT = path.resolve(import.meta.dirname, "..");
const SECRET = `svcwh_${randomBytes(20).toString("hex")}`;

type Delivery = { eventId: string; body: string };
type Run = {
  scenario: string;
  deliveries: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  /** CPU per delivery (user + system), ms: this process (load, servers) and the database's process. */
  cpuMsPerDelivery: { bench: number; database: number };
};

async function main(): Promise<void> {
  if (process.env.BENCH_AGAINST) return compareByTurns();
  const database = await startDatabaseProcess();
  await migrate(database.url, path.resolve(import.meta.dirname, "../prisma/migrations"));
  // The app's environment, set before any app module is imported (lib/env.ts reads it once).
  const launchEnv = { ...process.env }; // the launched app (throughTheApp) starts from this, not from the route's
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    AUTH_SECRET: randomBytes(32).toString("hex"),
    SERVICE_BASE_URL: "http://127.0.0.1:9", // never called: the receiver does not process
    SERVICE_API_KEY: "svckey_bench_unused",
    SERVICE_WEBHOOK_SECRETS: SECRET,
    LOG_LEVEL: process.env.LOG_LEVEL ?? "error",
  });
  const { answerDelivery } = await import("@/lib/webhooks/answer-delivery");
  const { db } = await import("@/lib/db/client");
  const { stopQueues } = await import("@/lib/jobs/queue");

  const app = await listen((req, res) => {
    if (!isWebhookDelivery(req)) throw new Error(`the door would not take ${req.method} ${req.url}`);
    return serveWebhook(answerDelivery, req, res);
  });
  const bare = await listen(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.from('{"received":true}');
    res.writeHead(hmacOk(req, Buffer.concat(chunks)) ? 200 : 401, {
      "content-type": "application/json",
      "content-length": body.length,
    });
    res.end(body);
  });

  try {
    const results: Run[] = [];
    // Warm-up (JIT, the queue's start, the first inserts), not counted.
    await drive("warm-up", app.url, deliveries(200, 0), database.cpuMs);
    await drive("warm-up", bare.url, deliveries(200, 0), database.cpuMs);
    const batch = deliveries(EVENTS, DUPLICATES);
    results.push(await drive("bare node:http, HMAC only", bare.url, batch, database.cpuMs));
    results.push(await drive("receiver: verify + inbox dedupe + enqueue", app.url, batch, database.cpuMs));

    const stored = await db().webhookEvent.count({ where: { id: { in: [...new Set(batch.map((d) => d.eventId))] } } });
    const [bareRun, appRun] = results as [Run, Run];
    console.log(
      `\nwebhook receiver benchmark: ${batch.length} deliveries of ${EVENTS} events (${batch.length - EVENTS} duplicates), ${CONCURRENCY} concurrent keep-alive connections, embedded PGlite`,
    );
    console.table(
      results.map((r) => ({
        scenario: r.scenario,
        deliveries: r.deliveries,
        errors: r.errors,
        "events/s": r.perSecond,
        "p50 ms": r.p50Ms,
        "p95 ms": r.p95Ms,
        "p99 ms": r.p99Ms,
        "CPU ms/delivery, bench process": r.cpuMsPerDelivery.bench,
        "CPU ms/delivery, database": r.cpuMsPerDelivery.database,
      })),
    );
    console.log(
      `receiver / bare = ${(appRun.perSecond / bareRun.perSecond).toFixed(3)} (${(bareRun.perSecond / appRun.perSecond).toFixed(1)}× slower); inbox rows for the batch: ${stored} of ${EVENTS} distinct`,
    );
    const server = await throughTheApp(batch, launchEnv);
    console.log(
      `as npm start serves it (${server.processes} app processes, worker, embedded database): ${server.run.perSecond} deliveries/s, ` +
        `p50 ${server.run.p50Ms} / p95 ${server.run.p95Ms} ms, ${server.run.errors} errors; CPU ms per delivery: ` +
        `app ${server.cpuMs.app}, database ${server.cpuMs.database}, worker ${server.cpuMs.worker} (the load itself: ${server.run.cpuMsPerDelivery.bench})`,
    );
    console.log(JSON.stringify({ results, stored, server }));
  } finally {
    await stopQueues(2_000);
    await db().$disconnect();
    await Promise.all([app.close(), bare.close()]);
    await database.stop();
  }
}

/** The same deliveries to the app as deployed: its own data folder and ports 3240/4670/25480. */
async function throughTheApp(batch: Delivery[], launchEnv: NodeJS.ProcessEnv) {
  const [self] = checkoutsToMeasure(ROOT, ".data/bench-webhooks");
  const launched = await launch(self!, launchEnv);
  try {
    await drive("warm-up", launched.baseUrl, deliveries(200, 0), async () => 0);
    return { ...(await measureApp(launched, batch)), processes: Number(process.env.WEB_CONCURRENCY || availableParallelism()) };
  } finally {
    await launched.stop();
  }
}

/** This checkout's app and BENCH_AGAINST's, fed fresh batches by turns; medians and their ratio. */
async function compareByTurns(): Promise<void> {
  const subjects: { checkout: Checkout; app: LaunchedApp; runs: Awaited<ReturnType<typeof measureApp>>[] }[] = [];
  try {
    for (const checkout of checkoutsToMeasure(ROOT, ".data/bench-webhooks"))
      subjects.push({ checkout, app: await launch(checkout, process.env), runs: [] });
    for (const s of subjects) await drive("warm-up", s.app.baseUrl, deliveries(200, 0), async () => 0);
    for (let round = 0; round < ROUNDS; round++)
      for (const s of round % 2 ? [...subjects].reverse() : subjects)
        s.runs.push(await measureApp(s.app, deliveries(EVENTS, DUPLICATES)));
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const rows = subjects.map((s) => ({
      checkout: s.checkout.label,
      "deliveries/s": median(s.runs.map((r) => r.run.perSecond)),
      "p95 ms": median(s.runs.map((r) => r.run.p95Ms)),
      errors: s.runs.reduce((sum, r) => sum + r.run.errors, 0),
      "CPU ms/delivery, app": median(s.runs.map((r) => r.cpuMs.app)),
      database: median(s.runs.map((r) => r.cpuMs.database)),
      worker: median(s.runs.map((r) => r.cpuMs.worker)),
      all: median(s.runs.map((r) => r.cpuMs.app + r.cpuMs.database + r.cpuMs.worker)),
    }));
    console.log(
      `\nwebhook ingest by turns: ${ROUNDS} rounds of ${EVENTS} events (+${DUPLICATES} duplicates), ${CONCURRENCY} connections`,
    );
    console.table(rows);
    const [self, other] = rows as [(typeof rows)[number], (typeof rows)[number]];
    console.log(
      `this checkout ÷ ${other.checkout}: rate ${(self["deliveries/s"] / other["deliveries/s"]).toFixed(3)}, ` +
        `CPU per delivery ${(self.all / other.all).toFixed(3)}`,
    );
    console.log(JSON.stringify(subjects.map((s) => ({ checkout: s.checkout.label, runs: s.runs }))));
  } finally {
    await Promise.all(subjects.map((s) => s.app.stop()));
  }
}

/** One checkout as npm start runs it, on the bench's ports plus its offset, from a fresh data folder. */
async function launch({ root, portOffset, dataDir }: Checkout, baseEnv: NodeJS.ProcessEnv): Promise<LaunchedApp> {
  await rm(path.resolve(root, dataDir), { recursive: true, force: true });
  return launchApp({
    root,
    dataDir,
    ports: { app: 3240 + portOffset, db: 25480 + portOffset, sandbox: 4670 + portOffset },
    demoPassword: "bench-password-123",
    env: { SERVICE_WEBHOOK_SECRETS: SECRET },
    baseEnv,
  });
}

/** One batch to a launched app: its rate, and the CPU per delivery of its processes meanwhile. */
async function measureApp(launched: LaunchedApp, batch: Delivery[]) {
  const before = snapshotCpu(launched.pgid);
  const run = await drive("the app, as npm start runs it", launched.baseUrl, batch, async () => 0);
  const used = cpuBetween(before, snapshotCpu(launched.pgid));
  const per = (role: string) =>
    Math.round((used.filter((p) => p.role === role).reduce((sum, p) => sum + p.ms, 0) / run.deliveries) * 1000) / 1000;
  return { run, cpuMs: { app: per("app"), database: per("launcher+db"), worker: per("worker") } };
}

function deliveries(count: number, duplicateShare: number): Delivery[] {
  const events = Array.from({ length: count }, (_, i) => {
    const id = randomUUID();
    const occurredAtUtc = new Date().toISOString();
    const body = JSON.stringify({
      id,
      type: "order.fulfilled",
      occurredAtUtc,
      data: { orderId: `ord_bench_${i}`, clientReference: `bench-${i}`, status: "fulfilled", occurredAtUtc },
    });
    return { eventId: id.replaceAll("-", ""), body };
  });
  // Every n-th delivery is followed by a repeat of an event sent ~50 deliveries earlier, as a retry would be.
  const every = duplicateShare > 0 ? Math.round(1 / duplicateShare) : 0;
  return events.flatMap((e, i) => (every && i % every === every - 1 ? [e, events[Math.max(0, i - 50)]!] : [e]));
}

async function drive(scenario: string, url: string, batch: Delivery[], databaseCpuMs: () => Promise<number>): Promise<Run> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const cpuBefore = process.cpuUsage();
  const databaseBefore = await databaseCpuMs();
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const deadline = started + MAX_SECONDS * 1000;
  const lane = async () => {
    while (next < batch.length && performance.now() < deadline) {
      const delivery = batch[next++]!;
      const t0 = performance.now();
      const status = await send(agent, url, delivery).catch(() => 0);
      latencies.push(performance.now() - t0);
      if (status !== 200) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const databaseMs = (await databaseCpuMs()) - databaseBefore;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) =>
    Math.round((latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0) * 100) / 100;
  return {
    scenario,
    deliveries: latencies.length,
    errors,
    seconds: Math.round(seconds * 100) / 100,
    perSecond: Math.round(latencies.length / seconds),
    p50Ms: at(0.5),
    p95Ms: at(0.95),
    p99Ms: at(0.99),
    cpuMsPerDelivery: {
      bench: Math.round(((cpu.user + cpu.system) / 1000 / latencies.length) * 1000) / 1000,
      database: Math.round((databaseMs / latencies.length) * 1000) / 1000,
    },
  };
}

function send(agent: Agent, url: string, delivery: Delivery): Promise<number> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = signWebhook(SECRET, timestamp, delivery.eventId, delivery.body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/api/webhooks/service`,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(delivery.body),
          "x-service-event-id": delivery.eventId,
          "x-service-timestamp": timestamp,
          "x-service-signature": signature,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(delivery.body);
  });
}

/** The baseline: the signature check and nothing else. */
function hmacOk(req: IncomingMessage, body: Buffer): boolean {
  const id = String(req.headers["x-service-event-id"] ?? "");
  const timestamp = String(req.headers["x-service-timestamp"] ?? "");
  const given = Buffer.from(String(req.headers["x-service-signature"] ?? "").slice(3), "hex");
  const expected = createHmac("sha256", SECRET).update(`${timestamp}.${id}.`).update(body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function listen(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The embedded database in a process of its own, as `npm start` runs it (the launcher holds
 * PGlite; the app is a child process): in-process, its WebAssembly would share one thread
 * with the servers and the load generator being measured.
 */
async function startDatabaseProcess(): Promise<{ url: string; cpuMs(): Promise<number>; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [...process.execArgv, import.meta.filename, "--serve-db"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`database process exited with ${code}`)));
    child.stdout.setEncoding("utf8").once("data", (line: string) => resolve(line.trim()));
  });
  return {
    url,
    // CPU time is steadier than wall time on a shared machine: /proc/<pid>/stat's utime + stime, in clock ticks (100/s).
    cpuMs: async () => {
      const fields = (await readFile(`/proc/${child.pid}/stat`, "utf8").catch(() => "")).split(") ")[1]?.split(" ") ?? [];
      return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) * 10;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners("exit").once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

async function serveDatabase(): Promise<void> {
  const database = await startEmbeddedDb();
  process.stdout.write(`${database.url}\n`);
  process.once("SIGTERM", () => void database.stop().then(() => process.exit(0)));
}

if (process.argv.includes("--serve-db")) void serveDatabase();
else
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
