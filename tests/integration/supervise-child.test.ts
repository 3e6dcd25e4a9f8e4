import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, test } from "vitest";
import { stopChild } from "../../scripts/lib/stop-child";
import { superviseChild } from "../../scripts/lib/supervise-child";

// The launcher's hold on its children (scripts/lib/stop-child.ts, supervise-child.ts), on real
// processes: a stop that sees a death by signal, and the restart rule's pauses and give-up.

const children: ChildProcess[] = [];
const node = (script: string) => {
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  return child;
};
/** Resolves once the child has printed `line` (it has set up its signal handlers by then). */
const said = (child: ChildProcess, line: string) =>
  new Promise<void>((resolve) => child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes(line) && resolve()));

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

describe("stopping a child", () => {
  test("a child already killed by a signal counts as stopped (the stop that hung after a kill -9)", async () => {
    const child = node("setInterval(() => {}, 1000)");
    child.kill("SIGKILL");
    await once(child, "exit");
    expect(child.exitCode).toBeNull(); // what the old check waited on, forever
    const started = Date.now();
    await stopChild(child, 60_000);
    expect(Date.now() - started).toBeLessThan(100);
  });

  test("a child is given SIGTERM and waited for while it finishes; one that ignores it is killed after the grace", async () => {
    const polite = node(
      `process.on("SIGTERM", () => setTimeout(() => process.exit(0), 300)); console.log("ready"); setInterval(() => {}, 1000)`,
    );
    await said(polite, "ready");
    await stopChild(polite, 10_000);
    expect(polite.exitCode).toBe(0);

    const stubborn = node(`process.on("SIGTERM", () => {}); console.log("ready"); setInterval(() => {}, 1000)`);
    await said(stubborn, "ready");
    const started = Date.now();
    await stopChild(stubborn, 500);
    expect(stubborn.signalCode).toBe("SIGKILL");
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  });
});

describe("supervising a child", () => {
  test("a child that keeps crashing is started again after 1, 2, 4 and 8 s, and given up at the fifth crash", async () => {
    const lines: string[] = [];
    const starts: number[] = [];
    let gaveUp!: () => void;
    const givenUp = new Promise<void>((resolve) => (gaveUp = resolve));
    const supervised = superviseChild({
      name: "the crasher",
      start: () => {
        starts.push(Date.now());
        return node("process.exit(3)");
      },
      stopGraceMs: 1_000,
      log: (line) => lines.push(line),
      onGiveUp: gaveUp,
    });
    await givenUp;
    await supervised.stop();
    expect(starts).toHaveLength(5);
    const pauses = starts.slice(1).map((at, i) => at - starts[i]!);
    [1_000, 2_000, 4_000, 8_000].forEach((pause, i) => {
      expect(pauses[i]).toBeGreaterThanOrEqual(pause);
      expect(pauses[i]).toBeLessThan(pause + 1_500);
    });
    expect(
      lines.filter((l) => l.startsWith("the crasher stopped unexpectedly (exit code 3); starting it again in")),
    ).toHaveLength(4);
    expect(lines.at(-1)).toMatch(
      /^the crasher stopped unexpectedly \(exit code 3\), its 5th crash without a healthy minute between: giving up/,
    );
  }, 30_000);

  test("stopping during the pause before a restart starts nothing more", async () => {
    const lines: string[] = [];
    let starts = 0;
    const supervised = superviseChild({
      name: "the worker",
      start: () => {
        starts++;
        return node("setInterval(() => {}, 1000)");
      },
      stopGraceMs: 1_000,
      log: (line) => lines.push(line),
      onGiveUp: () => expect.unreachable("a single crash never gives up"),
    });
    children.at(-1)!.kill("SIGKILL");
    await expect.poll(() => lines.at(-1)).toMatch(/killed by SIGKILL\); starting it again in 1 s/);
    await supervised.stop();
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // past the restart that was due
    expect(starts).toBe(1);
  });
});
