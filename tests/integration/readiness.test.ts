import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { mkdir, mkdtemp, readdir, rm, symlink } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { GET } from "@/app/api/health/ready/route";
import { startEmbeddedDb, type EmbeddedDb } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";
import { backgroundWork, LAST_BEAT, toBackgroundWork, type LastBeatRow } from "@/lib/jobs/background-work";
import { readiness } from "@/lib/health/readiness";
import { defineJob } from "@/lib/jobs/define-job";
import { recordWorkerDeath, startHeartbeat } from "@/lib/jobs/heartbeat";
import { sendJob } from "@/lib/jobs/send-job";
import { startWorker } from "@/lib/jobs/worker";
import { databaseUrl } from "../support/db";
import { eventually } from "../support/sandbox";

const MIGRATIONS = path.resolve("prisma/migrations");

type BeatRow = { instance: string; host: string; pid: number; beatAt: Date; working: { queue: string; id: string }[] };

async function beatRows(client: pg.Client | pg.Pool): Promise<BeatRow[]> {
  return (await client.query<BeatRow>(`SELECT * FROM "WorkerHeartbeat" ORDER BY "beatAt"`)).rows;
}

describe("readiness on a database of its own", () => {
  let embedded: EmbeddedDb;
  let client: pg.Client;
  let nextRelease: string;

  beforeAll(async () => {
    embedded = await startEmbeddedDb();
    client = new pg.Client({ connectionString: embedded.url });
    await client.connect();
    // This release's migrations and one more, as the next release would ship it.
    nextRelease = await mkdtemp(path.join(tmpdir(), "next-release-"));
    for (const name of await readdir(MIGRATIONS)) await symlink(path.join(MIGRATIONS, name), path.join(nextRelease, name));
    await mkdir(path.join(nextRelease, "29990101000000_next_release"));
  });
  afterAll(async () => {
    await client.end().catch(() => undefined);
    await embedded.stop().catch(() => undefined);
    await rm(nextRelease, { recursive: true, force: true });
  });

  test("a database not migrated yet is not ready: migrations_pending", async () => {
    expect(await readiness(embedded.url, MIGRATIONS)).toEqual({ ready: false, reason: "migrations_pending" });
  });

  test("migrated, with no worker that ever beat: worker_stale, until a worker beats: ready", async () => {
    await migrate(embedded.url, MIGRATIONS);
    expect(await readiness(embedded.url, MIGRATIONS)).toEqual({ ready: false, reason: "worker_stale" });

    const heartbeat = await startHeartbeat(embedded.url, { working: () => [], everyMs: 200 });
    expect(await readiness(embedded.url, MIGRATIONS)).toEqual({ ready: true });
    const [row] = await beatRows(client);
    expect(row).toMatchObject({ instance: heartbeat.instance, host: hostname(), pid: process.pid, working: [] });

    // A stopped worker leaves its last beat: still ready within the minute, stale after it.
    await heartbeat.stop();
    expect(await readiness(embedded.url, MIGRATIONS)).toEqual({ ready: true });
    await client.query(`UPDATE "WorkerHeartbeat" SET "beatAt" = "beatAt" - interval '61 seconds'`);
    expect(await readiness(embedded.url, MIGRATIONS)).toEqual({ ready: false, reason: "worker_stale" });
  });

  test("a release that ships a migration the database lacks is not ready: migrations_pending", async () => {
    const heartbeat = await startHeartbeat(embedded.url, { working: () => [], everyMs: 200 });
    try {
      expect(await readiness(embedded.url, MIGRATIONS)).toEqual({ ready: true });
      expect(await readiness(embedded.url, nextRelease)).toEqual({ ready: false, reason: "migrations_pending" });
    } finally {
      await heartbeat.stop();
    }
  });

  test("a beating worker prunes the rows of instances silent for a day, and keeps recent ones (a death is told for an hour)", async () => {
    await client.query(`DELETE FROM "WorkerHeartbeat"`);
    const old = (minutes: number, instance: string) =>
      client.query(
        `INSERT INTO "WorkerHeartbeat" ("instance", "host", "pid", "startedAt", "beatAt")
         VALUES ($1, 'gone', 1, (now() AT TIME ZONE 'UTC') - $2 * interval '1 minute', (now() AT TIME ZONE 'UTC') - $2 * interval '1 minute')`,
        [instance, minutes],
      );
    await old(25 * 60, "long-gone");
    await old(30, "recently-gone");
    const heartbeat = await startHeartbeat(embedded.url, { working: () => [], everyMs: 200 });
    await heartbeat.stop();
    expect((await beatRows(client)).map((row) => row.instance)).toEqual(["recently-gone", heartbeat.instance]);
  });

  test("a worker its launcher saw die is counted out at once, not after a minute; its death is told for an hour", async () => {
    await client.query(`DELETE FROM "WorkerHeartbeat"`);
    const read = async () => toBackgroundWork((await client.query<LastBeatRow>(LAST_BEAT)).rows[0]);
    const dying = await startHeartbeat(embedded.url, { working: () => [], everyMs: 60_000 });
    expect(await readiness(embedded.url, MIGRATIONS)).toEqual({ ready: true });
    expect((await read()).lastDeath).toBeNull();

    await recordWorkerDeath(embedded.url, { pid: process.pid, how: "killed by SIGKILL" });
    expect(await readiness(embedded.url, MIGRATIONS)).toEqual({ ready: false, reason: "worker_stale" });
    const dead = await read();
    expect(dead).toMatchObject({ running: false, lastDeath: { how: "killed by SIGKILL" } });
    expect(dead.lastBeatAt!.getTime()).toBe(dead.lastDeath!.at.getTime());

    // The launcher's next worker (another instance) beats: ready, and the death is still told.
    const next = await startHeartbeat(embedded.url, { working: () => [], everyMs: 60_000 });
    expect(await readiness(embedded.url, MIGRATIONS)).toEqual({ ready: true });
    expect(await read()).toMatchObject({ running: true, lastDeath: { how: "killed by SIGKILL" } });
    // Only deaths within the hour are told; a worker stopped on purpose is none.
    await client.query(`UPDATE "WorkerHeartbeat" SET "diedAt" = "diedAt" - interval '61 minutes' WHERE "diedAt" IS NOT NULL`);
    await next.stop();
    await dying.stop();
    expect(await read()).toMatchObject({ running: true, lastDeath: null });
  });

  test("a database that is gone is not ready: database_unreachable", async () => {
    await client.end();
    await embedded.stop();
    expect(await readiness(embedded.url, MIGRATIONS)).toEqual({ ready: false, reason: "database_unreachable" });
  });
});

const longQueue = {
  name: "test-heartbeat-long-job",
  options: { policy: "standard" as const, retryLimit: 0, expireInSeconds: 60, deleteAfterSeconds: 60 },
};

describe("the worker's heartbeat", () => {
  let pool: pg.Pool;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: databaseUrl(), max: 2 });
    await pool.query(`DELETE FROM "WorkerHeartbeat"`);
  });
  afterAll(async () => {
    await pool.end();
  });

  test("the answer a stranger gets says why it is not ready, and nothing of the configuration", async () => {
    const res = await GET();
    expect(res.status).toBe(503);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.text();
    const problem = JSON.parse(body) as Record<string, unknown>;
    expect(Object.keys(problem).sort()).toEqual(["code", "correlationId", "detail", "status", "title", "type"]);
    expect(problem).toMatchObject({ status: 503, code: "worker_stale" });
    const url = new URL(databaseUrl());
    // (A database URL without a password, as the PostgreSQL run's, has nothing to look for there.)
    const configuration = [url.host, url.port, url.username, url.password, "_prisma_migrations", "WorkerHeartbeat"];
    for (const secret of configuration.filter((part) => part !== "")) expect(body).not.toContain(secret);
    expect((await backgroundWork()).lastBeatAt).toBeNull();
  });

  test("beats while a long job is in hand, lists the job, and reads ready", async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const longJob = defineJob<object>({
      queue: longQueue,
      work: () => ({ pollingIntervalSeconds: 0.5, batchSize: 1 }),
      handle: () => released,
    });
    const worker = await startWorker([longJob], { periodic: false, beatEveryMs: 200 });
    try {
      const id = await sendJob(longQueue, {});
      const inHand = await eventually(async () => {
        const [row] = await beatRows(pool);
        return row?.working.some((job) => job.id === id) ? row : undefined;
      });
      expect(inHand.working).toEqual([expect.objectContaining({ queue: longQueue.name, id })]);
      // The job holds on; the beat goes on regardless.
      const later = await eventually(async () => {
        const [row] = await beatRows(pool);
        return row && row.beatAt > inHand.beatAt && row.working.length === 1 ? row : undefined;
      });
      expect(later.instance).toBe(inHand.instance);
      const work = await backgroundWork();
      expect(work.running).toBe(true);
      expect(work.lastBeatAt!.getTime()).toBeGreaterThanOrEqual(later.beatAt.getTime());
      const res = await GET();
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "ready" });

      release();
      await eventually(async () => ((await beatRows(pool))[0]?.working.length === 0 ? true : undefined));
    } finally {
      release();
      await worker.stop();
    }
  });
});
