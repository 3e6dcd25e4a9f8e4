import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { KEY_SCOPES } from "@/lib/upstream/client/keys";
import { tsxCommand, withParentWatchdog } from "./child-env";
import { stopChild } from "./stop-child";
import { canBind, waitForFreePort } from "./wait-for-port";

/**
 * Local mode's upstream: the sandbox as its own process on loopback (it is the other side
 * of the wire; the app reaches it only over HTTP). Its key and webhook secret are kept
 * under DATA_DIR and its state in a file there, so a restart keeps orders and balances.
 * SANDBOX_* variables given to `npm start` pass through and fix its settings.
 */
export type LocalSandbox = {
  baseUrl: string;
  /** The sandbox's bootstrap key (every scope): not given to the app, which gets `keys`. */
  apiKey: string;
  webhookSecret: string;
  /** The three least-privilege keys the app's processes are given (README, "The upstream's keys"). */
  keys: ScopedKeys;
  stop(): Promise<void>;
};

/** The local keys: the capability keys of the client's own table, each issued with exactly its scopes. */
const LOCAL_KEYS = { read: KEY_SCOPES.read, ordering: KEY_SCOPES.ordering, payout: KEY_SCOPES.payout };
export type ScopedKeys = Record<keyof typeof LOCAL_KEYS, string>;

export async function startLocalSandbox(options: {
  root: string;
  dataDir: string;
  webhookUrl: string;
  webhookSecret?: string;
}): Promise<LocalSandbox> {
  const apiKey =
    process.env.SANDBOX_API_KEY ??
    (await readOrCreate(
      path.join(options.dataDir, "sandbox-api-key"),
      () => `svckey_local${randomBytes(4).toString("hex")}_${randomBytes(24).toString("hex")}`,
    ));
  const webhookSecret =
    options.webhookSecret ??
    process.env.SANDBOX_WEBHOOK_SECRET ??
    (await readOrCreate(path.join(options.dataDir, "sandbox-webhook-secret"), () => `svcwh_${randomBytes(24).toString("hex")}`));
  const portFile = path.join(options.dataDir, "sandbox-port");
  const port = process.env.SANDBOX_PORT ? Number(process.env.SANDBOX_PORT) : await keptPort(portFile);
  if (process.env.SANDBOX_PORT) await waitForFreePort(port, "SANDBOX_PORT, the local sandbox");
  const child = spawn(...tsxCommand([path.join(options.root, "sandbox/main.ts")]), {
    cwd: options.root,
    stdio: ["ignore", "pipe", "inherit"],
    env: withParentWatchdog({
      ...process.env,
      SANDBOX_PORT: String(port),
      SANDBOX_API_KEY: apiKey,
      SANDBOX_WEBHOOK_URL: options.webhookUrl,
      SANDBOX_WEBHOOK_SECRET: webhookSecret,
      SANDBOX_STATE_FILE: process.env.SANDBOX_STATE_FILE ?? path.join(options.dataDir, "sandbox-state.json"),
    }),
  });
  const ready = await firstJsonLine(child);
  try {
    await writeFile(portFile, `${new URL(ready.baseUrl).port}\n`);
    const keys = await scopedKeys(ready.baseUrl, path.join(options.dataDir, "sandbox-scoped-keys.json"));
    return {
      baseUrl: ready.baseUrl,
      apiKey: ready.apiKey,
      webhookSecret: ready.webhookSecret,
      keys,
      stop: () => stopChild(child),
    };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/**
 * The read, ordering and payout keys, issued through the sandbox's control plane (the
 * dashboard's stand-in) at the first start and kept under DATA_DIR; a kept key the sandbox no
 * longer knows, or has revoked or let expire, is replaced by a new one.
 */
async function scopedKeys(baseUrl: string, file: string): Promise<ScopedKeys> {
  type Held = { id: string; key: string };
  const held: Partial<Record<keyof ScopedKeys, Held>> = existsSync(file) ? JSON.parse(await readFile(file, "utf8")) : {};
  const listed = (await control(baseUrl, "GET", "/keys")) as {
    items: { id: string; revokedAtUtc: string | null; expiresAtUtc: string | null }[];
  };
  const live = new Set(
    listed.items
      .filter((k) => k.revokedAtUtc === null && (k.expiresAtUtc === null || Date.parse(k.expiresAtUtc) > Date.now()))
      .map((k) => k.id),
  );
  const keys = {} as Record<keyof ScopedKeys, Held>;
  let changed = false;
  for (const [name, scopes] of Object.entries(LOCAL_KEYS) as [keyof ScopedKeys, readonly string[]][]) {
    const kept = held[name];
    if (kept && live.has(kept.id)) {
      keys[name] = kept;
      continue;
    }
    const issued = (await control(baseUrl, "POST", "/keys", { scopes, label: `local ${name} key` })) as Held;
    keys[name] = { id: issued.id, key: issued.key };
    changed = true;
  }
  if (changed) await writeFile(file, JSON.stringify(keys, null, 2) + "\n", { mode: 0o600 });
  return { read: keys.read.key, ordering: keys.ordering.key, payout: keys.payout.key };
}

async function control(baseUrl: string, method: "GET" | "POST", route: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${baseUrl}/_sandbox${route}`, {
    method,
    headers: body === undefined ? undefined : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`the sandbox's control plane answered ${method} ${route} with ${res.status}`);
  return res.json();
}

function firstJsonLine(child: ChildProcess): Promise<{ baseUrl: string; apiKey: string; webhookSecret: string }> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error("the sandbox did not start within 30 s")), 30_000);
    child.once("exit", (code) => reject(new Error(`the sandbox exited during start-up (code ${code})`)));
    lines.on("line", (line) => {
      try {
        const ready = JSON.parse(line) as { baseUrl: string; apiKey: string; webhookSecret: string };
        clearTimeout(timer);
        resolve(ready);
      } catch {
        process.stderr.write(`[sandbox] ${line}\n`);
      }
    });
  });
}

/**
 * The port the sandbox had last time under this DATA_DIR, when it is free (else any): the
 * upstream's address names the order history's sync row (lib/orders/sync-state.ts), so a new
 * port at every start was a new upstream to the app, a whole history import again and its
 * "import finished" notification after every start.
 */
async function keptPort(file: string): Promise<number> {
  const kept = existsSync(file) ? Number((await readFile(file, "utf8")).trim()) : 0;
  return Number.isInteger(kept) && kept > 0 && kept < 65536 && (await canBind(kept)) ? kept : 0;
}

async function readOrCreate(file: string, create: () => string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  const value = create();
  await writeFile(file, value + "\n", { mode: 0o600 });
  return value;
}
