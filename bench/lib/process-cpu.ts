import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time of every process in one process group (the launched app: launcher with the embedded
 * database, app processes, worker, sandbox), read from /proc/<pid>/stat (Linux only), so a
 * benchmark can say how many CPU milliseconds each page view cost and in which process.
 */
export type CpuSnapshot = Map<number, ProcessCpu>;
/** `primary`: the app's cluster primary (WEB_CONCURRENCY > 1), which hands connections to the app processes and serves none itself. */
type ProcessCpu = { role: string; ms: number; primary?: boolean };

const TICKS_PER_SECOND = Number(spawnSync("getconf", ["CLK_TCK"]).stdout?.toString().trim()) || 100;

export function snapshotCpu(pgid: number): CpuSnapshot {
  const snapshot: CpuSnapshot = new Map();
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // "pid (name) state ppid pgrp … utime(14) stime(15)": split after the name, which may hold spaces.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      const ticks = Number(fields[11]) + Number(fields[12]);
      snapshot.set(Number(entry), { role: roleOf(Number(entry)), ms: (ticks * 1000) / TICKS_PER_SECOND });
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  // An app process whose parent is an app process is a cluster worker; that parent is the primary.
  for (const [pid, parent] of parents) {
    const app = snapshot.get(parent);
    if (snapshot.get(pid)?.role === "app" && app?.role === "app") app.primary = true;
  }
  return snapshot;
}

/** CPU ms each process used between two snapshots, largest first (processes gone by `after` are left out). */
export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): ({ pid: number } & ProcessCpu)[] {
  return [...after]
    .map(([pid, { ms, ...rest }]) => ({ pid, ...rest, ms: ms - (before.get(pid)?.ms ?? 0) }))
    .filter((p) => p.ms > 0)
    .sort((a, b) => b.ms - a.ms);
}

function roleOf(pid: number): string {
  const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  if (/serve-app|next-server/.test(cmd)) return "app";
  if (/scripts\/worker\.ts/.test(cmd)) return "worker";
  if (/sandbox\/main\.ts/.test(cmd)) return "sandbox";
  if (/scripts\/start\.ts/.test(cmd)) return "launcher+db";
  return cmd.split(" ")[0]!.split("/").at(-1) ?? "other";
}
