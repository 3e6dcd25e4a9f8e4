import { readFileSync } from "node:fs";

/**
 * Calls `onGone` once when the processes that launched this one are gone: `npm start` runs
 * npm → this launcher (the script `exec`s node with tsx's loader, so no shell stays between;
 * older or other runners may keep one), and a SIGKILL of npm alone leaves this launcher running
 * with nobody to stop it. The launcher then stops itself — the app, the
 * worker, the sandbox and the embedded database — so that a restart finds the folder and the
 * ports free. On Linux the chain up to npm is read from /proc (a zombie counts as gone: it is
 * dead, only not yet reaped); elsewhere only the direct parent is watched.
 */
export function watchLaunchAncestors(onGone: () => void, intervalMs = 250): void {
  const parent = process.ppid;
  const chain = process.platform === "linux" ? launchChain() : [];
  const timer = setInterval(() => {
    if (process.ppid === parent && chain.every(isAlive)) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
}

// From the parent up to and including npm (at most 5 levels); just the parent when not run by npm.
function launchChain(): number[] {
  const chain: number[] = [];
  let pid = process.ppid;
  for (let depth = 0; depth < 5 && pid > 1; depth++) {
    chain.push(pid);
    if (!process.env.npm_lifecycle_event) break;
    const stat = readStat(pid);
    if (!stat || /^npm\b/.test(stat.name)) break;
    pid = stat.ppid;
  }
  return chain;
}

function isAlive(pid: number): boolean {
  const stat = readStat(pid);
  return stat !== null && stat.state !== "Z" && stat.state !== "X";
}

// /proc/<pid>/stat: "pid (name) state ppid …"; the name may itself contain spaces or parentheses.
function readStat(pid: number): { name: string; state: string; ppid: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const open = text.indexOf("(");
    const close = text.lastIndexOf(")");
    const [state = "", ppid = "0"] = text.slice(close + 2).split(" ");
    return { name: text.slice(open + 1, close), state, ppid: Number(ppid) };
  } catch {
    return null;
  }
}
