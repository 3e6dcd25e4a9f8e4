import { mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { describeBackup } from "./describe-backup";
import { takeBackup } from "./take-backup";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Not in the middle of start-up: the first backup of a start waits this long. */
const FIRST_DELAY_MS = 60_000;
const NAME = /^backup-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z)\.json\.gz$/;

/** A file name that sorts by time: backup-2026-11-28T16-10-00Z.json.gz. */
export function backupName(at: Date): string {
  return `backup-${at.toISOString().slice(0, 19).replaceAll(":", "-")}Z.json.gz`;
}

/** When a scheduled backup was taken, from its name (null: not one of ours, never pruned). */
export function takenAt(name: string): number | null {
  const match = NAME.exec(name);
  if (!match) return null;
  const [day, time] = match[1]!.split("T");
  return Date.parse(`${day}T${time!.slice(0, 8).replaceAll("-", ":")}Z`);
}

/** The scheduled backups beyond the newest `keep`, oldest first; other files in the folder are left alone. */
export function backupsToPrune(names: string[], keep: number): string[] {
  const ours = names.filter((name) => takenAt(name) !== null).sort();
  return ours.slice(0, Math.max(0, ours.length - keep));
}

/**
 * Local mode's daily backup (BACKUP_DIR, keeping BACKUP_KEEP), run by the launcher that owns the
 * embedded database: a day after the newest backup in the folder (so restarts do not skip or
 * repeat a day), at the earliest a minute after start. Each outcome is logged; a failure is
 * tried again the next day. Returns the stop, which waits for a backup being written.
 */
export async function scheduleBackups(options: {
  dir: string;
  keep: number;
  databaseUrl: string;
  dataDir: string;
  environmentSecrets: string[];
  log: (line: string) => void;
}): Promise<() => Promise<void>> {
  await mkdir(options.dir, { recursive: true, mode: 0o700 });
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let stopped = false;

  const run = async () => {
    try {
      const summary = await takeBackup({ ...options, file: path.join(options.dir, backupName(new Date())) });
      options.log(describeBackup(summary));
      for (const name of backupsToPrune(await readdir(options.dir), options.keep)) {
        await rm(path.join(options.dir, name), { force: true });
        options.log(`[backup] removed ${name} (BACKUP_KEEP=${options.keep})`);
      }
    } catch (error) {
      options.log(`[backup] the scheduled backup failed, tried again in a day: ${(error as Error).message}`);
    }
  };
  const plan = async () => {
    const newest = Math.max(0, ...(await readdir(options.dir)).map((name) => takenAt(name) ?? 0));
    const wait = Math.max(FIRST_DELAY_MS, newest + DAY_MS - Date.now());
    timer = setTimeout(
      () => {
        running = run().finally(() => {
          running = null;
          if (!stopped) void plan();
        });
      },
      Math.min(wait, DAY_MS),
    );
    timer.unref();
  };
  await plan();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
