import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { acquireDataDir, askOwner, type DataDirLock } from "./data-dir-lock";
import { waitForFreePort } from "./wait-for-port";

/**
 * Fills in what local mode provides when it is not configured, and returns the
 * environment for the app's processes. Production mode (NODE_ENV=production with a real
 * SERVICE_BASE_URL) gets nothing generated: a missing secret stops start-up with one line.
 */
export type LocalConfig = {
  env: Record<string, string> & { DATABASE_URL: string; APP_URL: string; PORT: string; DEMO_PASSWORD?: string };
  /** What only the worker is given on top of `env` (the local payout key: child-env.ts, `processEnvironments`). */
  workerEnv: Record<string, string>;
  /** Whether the embedded database serves this process (the job queue then polls: no LISTEN/NOTIFY). */
  embeddedDb: boolean;
  /** DATA_DIR, absolute. */
  dataDir: string;
  /** Secrets given in the environment rather than kept in DATA_DIR (a backup names them as not included). */
  environmentSecrets: string[];
  seedDemo: boolean;
  /** Tells processes asking for the data folder that this one is on its way out (they wait for it). */
  beginStop(): void;
  /** Registers something to stop (last registered, first stopped) when the launcher stops. */
  onStop(stop: () => Promise<void>): void;
  stop(): Promise<void>;
};

/**
 * `upstream: false` is for command-line tools (migrate, staff:create) that need only the
 * database. When the app is already running in local mode, they use its embedded
 * database over its socket instead of opening the same data folder a second time (two
 * PGlite processes on one folder would corrupt it).
 */
export async function loadLocalConfig(options: { root: string; upstream?: boolean }): Promise<LocalConfig> {
  const stops: Array<() => Promise<void>> = [];
  try {
    return await configure(options, stops);
  } catch (error) {
    // Whatever started before the failure stops again (database closed, folder released).
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    throw error;
  }
}

async function configure(
  { root, upstream: withUpstream = true }: { root: string; upstream?: boolean },
  stops: Array<() => Promise<void>>,
): Promise<LocalConfig> {
  // The launcher is the one other place that reads process.env: it decides what the app's
  // validated environment (lib/env.ts) will be.
  const given = process.env;
  const production = given.NODE_ENV === "production" && !!given.SERVICE_BASE_URL;
  const dataDir = resolveDataDir(root);
  await mkdir(dataDir, { recursive: true });
  // Secrets given in the environment are not in DATA_DIR: a backup cannot carry them (it says so).
  const environmentSecrets = ["AUTH_SECRET", "SECOND_FACTOR_KEY"].filter((name) => given[name]);

  // The launcher always holds the folder (its embedded database, sandbox state, secrets); a
  // command-line tool only when it opens the embedded database itself.
  let lock: DataDirLock | null = withUpstream ? await acquireDataDir(dataDir) : null;
  if (lock) stops.push(lock.release); // released last: only after everything else stopped

  let databaseUrl = given.DATABASE_URL;
  let embedded = false;
  if (!databaseUrl) {
    if (production) throw new Error("DATABASE_URL is required in production mode.");
    embedded = true;
    // Written by earlier versions; ownership is now the lock (data-dir-lock.ts), never a file.
    await rm(path.join(dataDir, "embedded-db.json"), { force: true });
    const running = withUpstream ? null : await runningEmbeddedDb(dataDir);
    if (running) {
      databaseUrl = running;
    } else {
      if (!lock) {
        lock = await acquireDataDir(dataDir);
        stops.push(lock.release);
      }
      const { startEmbeddedDb } = await import("@/lib/db/embedded");
      const port = given.EMBEDDED_DB_PORT ? Number(given.EMBEDDED_DB_PORT) : undefined;
      if (port) await waitForFreePort(port, "EMBEDDED_DB_PORT, the embedded database");
      const db = await startEmbeddedDb({ dataDir: path.join(dataDir, "pglite"), port });
      stops.push(db.stop);
      databaseUrl = db.url;
      console.log(
        `[start] embedded PostgreSQL (PGlite) on ${new URL(db.url).host}, data in ${path.relative(root, dataDir)}/pglite`,
      );
    }
  }

  let authSecret = given.AUTH_SECRET;
  if (!authSecret) {
    if (production) throw new Error("AUTH_SECRET is required in production mode (at least 32 random characters).");
    authSecret = await readOrCreateSecret(path.join(dataDir, "auth-secret"));
  }

  // Seals second-factor secrets at rest (lib/crypto/seal.ts): kept like AUTH_SECRET.
  let secondFactorKey = given.SECOND_FACTOR_KEY;
  if (!secondFactorKey) {
    if (production) throw new Error("SECOND_FACTOR_KEY is required in production mode (at least 32 random characters).");
    secondFactorKey = await readOrCreateSecret(path.join(dataDir, "second-factor-key"));
  }

  const port = given.PORT ?? "3000";
  const appUrl = given.APP_URL ?? `http://localhost:${port}`;
  lock?.update({ appUrl });

  // The upstream: the configured service, or the sandbox in local mode.
  const upstream: Record<string, string> = {};
  const workerEnv: Record<string, string> = {};
  if (!withUpstream) {
    // Command-line tools touch only the database.
  } else if (!given.SERVICE_BASE_URL) {
    if (production) throw new Error("SERVICE_BASE_URL is required in production mode.");
    const { startLocalSandbox } = await import("./local-sandbox");
    const configuredSecret = given.SERVICE_WEBHOOK_SECRETS?.split(",")
      .map((s) => s.trim())
      .find(Boolean);
    const sandbox = await startLocalSandbox({
      root,
      dataDir,
      webhookUrl: `${appUrl}/api/webhooks/service`,
      webhookSecret: configuredSecret,
    });
    stops.push(sandbox.stop);
    upstream.SERVICE_BASE_URL = sandbox.baseUrl;
    // Least privilege by default: the web app reads and orders; only the worker can pay out.
    upstream.SERVICE_READ_KEY = sandbox.keys.read;
    upstream.SERVICE_ORDERING_KEY = sandbox.keys.ordering;
    workerEnv.SERVICE_PAYOUT_KEY = sandbox.keys.payout;
    upstream.SERVICE_WEBHOOK_SECRETS = given.SERVICE_WEBHOOK_SECRETS ?? sandbox.webhookSecret;
    console.log(`[start] sandbox upstream on ${sandbox.baseUrl} (state in ${path.relative(root, dataDir)}/sandbox-state.json)`);
  } else {
    if (!given.SERVICE_API_KEY && !given.SERVICE_READ_KEY)
      throw new Error(
        "SERVICE_API_KEY (or SERVICE_READ_KEY, SERVICE_ORDERING_KEY and SERVICE_PAYOUT_KEY) is required when SERVICE_BASE_URL is set.",
      );
    if (production && !given.SERVICE_WEBHOOK_SECRETS) throw new Error("SERVICE_WEBHOOK_SECRETS is required in production mode.");
  }

  // Email: the configured SMTP server, or in local mode a mail catcher beside the sandbox whose
  // caught mail admins read in the app (Settings → Notifications → Caught mail).
  const mail: Record<string, string> = {};
  if (withUpstream && !given.SMTP_URL && !production) {
    const { startMailCatcher } = await import("@/lib/notifications/mail-catcher");
    const { storeCaughtMail } = await import("@/lib/notifications/caught-mail");
    const port = Number(given.MAIL_CATCHER_PORT ?? "0");
    if (port) await waitForFreePort(port, "MAIL_CATCHER_PORT, the local mail catcher");
    const catcher = await startMailCatcher({ port, onMail: storeCaughtMail });
    stops.push(catcher.stop);
    mail.SMTP_URL = catcher.url;
    mail.MAIL_CATCHER = "1";
    console.log(`[start] mail catcher on ${catcher.url.replace("smtp://", "")} (no SMTP_URL: email is caught, not sent)`);
  }

  const env: LocalConfig["env"] = {
    ...upstream,
    ...mail,
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: authSecret,
    SECOND_FACTOR_KEY: secondFactorKey,
    APP_URL: appUrl,
    NEXTAUTH_URL: appUrl,
    PORT: port,
    LOCAL_MODE: production ? "0" : "1",
    NEXT_TELEMETRY_DISABLED: "1",
    CHECKPOINT_DISABLE: "1",
  };
  if (given.DEMO_PASSWORD) env.DEMO_PASSWORD = given.DEMO_PASSWORD;
  Object.assign(process.env, env);
  // Command-line tools asking the lock now get the database URL (embedded: this process serves it).
  lock?.update({ state: "running", ...(embedded ? { databaseUrl } : {}) });

  // Local mode's daily backups (README, "Backups"), by the launcher that owns the embedded database.
  if (embedded && withUpstream && given.BACKUP_DIR) {
    const { scheduleBackups } = await import("@/lib/backup/schedule-backups");
    const keep = Number(given.BACKUP_KEEP ?? "7");
    if (!Number.isInteger(keep) || keep < 1) throw new Error("BACKUP_KEEP must be a whole number of backups, 1 or more.");
    const dir = path.resolve(root, given.BACKUP_DIR);
    stops.push(await scheduleBackups({ dir, keep, databaseUrl, dataDir, environmentSecrets, log: (line) => console.log(line) }));
    console.log(`[start] daily backups in ${path.relative(root, dir) || dir}, keeping ${keep}`);
  }

  return {
    env,
    workerEnv,
    embeddedDb: embedded,
    dataDir,
    environmentSecrets,
    seedDemo: !production && (embedded || given.DEMO_ACCOUNTS === "1"),
    beginStop: () => lock?.update({ state: "stopping" }),
    onStop: (stop) => void stops.push(stop),
    async stop() {
      lock?.update({ state: "stopping" });
      for (const stop of stops.reverse()) await stop().catch(() => undefined);
    },
  };
}

/** DATA_DIR as the launcher and the command-line tools read it (relative to the project). */
export function resolveDataDir(root: string): string {
  return path.resolve(root, process.env.DATA_DIR ?? ".data");
}

/**
 * For command-line tools: the URL of the embedded database the running app serves, if one runs.
 * Waits (bounded) while that app is still starting; null when nobody holds the folder, or its
 * owner is going away (the tool then takes the folder itself, once free).
 */
async function runningEmbeddedDb(dataDir: string): Promise<string | null> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const owner = await askOwner(dataDir);
    if (owner?.state === "running" && owner.databaseUrl) return owner.databaseUrl;
    if (owner?.state !== "starting" || Date.now() > deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function readOrCreateSecret(file: string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  const secret = randomBytes(32).toString("base64url");
  await writeFile(file, secret + "\n", { mode: 0o600 });
  return secret;
}
