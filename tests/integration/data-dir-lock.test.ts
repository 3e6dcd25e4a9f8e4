import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, test } from "vitest";
import { acquireDataDir, askOwner, DataDirBusyError } from "../../scripts/lib/data-dir-lock";

// Who owns a data folder (scripts/lib/data-dir-lock.ts): decided by a socket the kernel frees when
// the owner dies, so a SIGKILLed owner never blocks the next start, and a live one is named in one line.

const ROOT = path.resolve(import.meta.dirname, "../..");
const folders: string[] = [];
const children: ChildProcess[] = [];
const folder = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "dgis-lock-"));
  folders.push(dir);
  return dir;
};
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const dir of folders.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe("the data folder's owner", () => {
  test("a second owner is refused with one line naming the first, and the folder is free once it is released", async () => {
    const dir = await folder();
    const first = await acquireDataDir(dir);
    first.update({ state: "running", appUrl: "http://localhost:3999" });
    const refused = await acquireDataDir(dir, 5_000).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DataDirBusyError);
    expect((refused as Error).message).toBe(
      `Another process (pid ${process.pid}) is using the data folder ${dir} and serving http://localhost:3999. Stop it first, or set DATA_DIR to another folder.`,
    );
    await first.release();
    expect(await askOwner(dir)).toBeNull();
    await (await acquireDataDir(dir, 1_000)).release();
  });

  test("a newcomer waits while the owner is stopping, and takes the folder when it lets go", async () => {
    const dir = await folder();
    const owner = await acquireDataDir(dir);
    owner.update({ state: "stopping" });
    const waiting = acquireDataDir(dir, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await owner.release();
    const next = await waiting;
    expect((await askOwner(dir))?.pid).toBe(process.pid);
    await next.release();
  });

  test("an owner killed with SIGKILL leaves the folder free at once", async () => {
    const dir = await folder();
    const script = `import { acquireDataDir } from ${JSON.stringify(path.join(ROOT, "scripts/lib/data-dir-lock.ts"))};
      const lock = await acquireDataDir(${JSON.stringify(dir)}); lock.update({ state: "running" }); console.log("locked"); setInterval(() => {}, 1000);`;
    // node with tsx's loader, not the tsx CLI: the CLI would run the script in a child of its own.
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(child);
    await new Promise<void>((resolve) => createInterface({ input: child.stdout! }).once("line", () => resolve()));
    expect((await askOwner(dir))?.pid).toBe(child.pid);
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    const started = Date.now();
    const lock = await acquireDataDir(dir, 5_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    await lock.release();
  });
});
