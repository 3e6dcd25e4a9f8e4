import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { rm } from "node:fs/promises";
import net from "node:net";
import path from "node:path";

/**
 * Who owns a data folder (its embedded database), decided by something that cannot lie: the
 * owner listens on a local socket named after the folder, and the kernel closes that socket the
 * moment the owner dies — even by SIGKILL, even while its pid is still an unreaped zombie. A
 * marker file naming a pid could not tell a dead owner from a live one.
 *
 * Linux: an abstract socket (no file, nothing left behind). Elsewhere: `owner.sock` in the folder;
 * a file left by a dead owner refuses connections and is replaced.
 *
 * The owner answers each connection with one JSON line: its state and, once the embedded database
 * is up, its URL — so command-line tools reuse the running database instead of opening the folder
 * a second time (two PGlite processes on one folder would corrupt it).
 */
export type OwnerInfo = { pid: number; state: "starting" | "running" | "stopping"; databaseUrl?: string; appUrl?: string };
export type DataDirLock = { update(info: Partial<OwnerInfo>): void; release(): Promise<void> };

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: OwnerInfo,
  ) {
    super(
      `Another process (pid ${owner.pid}) is using the data folder ${dataDir}${owner.appUrl ? ` and serving ${owner.appUrl}` : ""}. Stop it first, or set DATA_DIR to another folder.`,
    );
  }
}

function lockAddress(dataDir: string): string {
  if (process.platform === "linux") {
    const id = createHash("sha256").update(realpathSync(dataDir)).digest("hex").slice(0, 32);
    return `\0dgis-backoffice-data-${id}`;
  }
  return path.join(dataDir, "owner.sock");
}

/** What the owner of the folder says about itself, or null when nobody holds it. */
export function askOwner(dataDir: string, timeoutMs = 2_000): Promise<OwnerInfo | null> {
  return new Promise((resolve) => {
    const socket = net.connect(lockAddress(dataDir));
    let text = "";
    const done = (info: OwnerInfo | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(info);
    };
    // A holder that accepts but does not answer is alive but stuck: report it as stopping.
    const timer = setTimeout(() => done({ pid: 0, state: "stopping" }), timeoutMs);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
      const line = text.split("\n")[0];
      if (text.includes("\n") && line) {
        try {
          done(JSON.parse(line) as OwnerInfo);
        } catch {
          done({ pid: 0, state: "stopping" });
        }
      }
    });
    socket.on("error", () => done(null)); // ECONNREFUSED / ENOENT: no owner
  });
}

/**
 * Takes the folder. While another process holds it and is starting or stopping (a launcher whose
 * npm was killed, shutting down), waits up to `waitMs`. An owner still "running" after
 * RUNNING_GRACE_MS is reported as DataDirBusyError: the grace covers the moment between a crash
 * above the old launcher and the old launcher noticing it (watch-launch-ancestors.ts polls).
 */
const RUNNING_GRACE_MS = 1_500;

export async function acquireDataDir(dataDir: string, waitMs = 20_000): Promise<DataDirLock> {
  const deadline = Date.now() + waitMs;
  const info: OwnerInfo = { pid: process.pid, state: "starting" };
  let runningSince: number | null = null;
  for (;;) {
    const server = await tryListen(dataDir, info);
    if (server) {
      return {
        update: (next) => void Object.assign(info, next),
        release: () => new Promise<void>((resolve) => server.close(() => resolve())),
      };
    }
    const owner = await askOwner(dataDir);
    runningSince = owner?.state === "running" ? (runningSince ?? Date.now()) : null;
    if (owner && runningSince !== null && Date.now() - runningSince >= RUNNING_GRACE_MS)
      throw new DataDirBusyError(dataDir, owner);
    if (owner === null && process.platform !== "linux") await rm(lockAddress(dataDir), { force: true }); // a dead owner's socket file
    if (Date.now() > deadline) {
      throw new DataDirBusyError(dataDir, owner ?? { pid: 0, state: "stopping" });
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function tryListen(dataDir: string, info: OwnerInfo): Promise<net.Server | null> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((socket) => socket.end(JSON.stringify(info) + "\n"));
    server.once("error", (error: NodeJS.ErrnoException) => (error.code === "EADDRINUSE" ? resolve(null) : reject(error)));
    server.listen(lockAddress(dataDir), () => {
      server.unref(); // the lock never keeps the process alive by itself
      resolve(server);
    });
  });
}
