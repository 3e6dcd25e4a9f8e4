import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { tsxCommand } from "../../scripts/lib/child-env";

// Runs the sandbox as its own process (one core of its own), exactly as `npm run sandbox` does.

const ROOT = path.resolve(import.meta.dirname, "../..");

export type SpawnedSandbox = { baseUrl: string; apiKey: string; child: ChildProcess; stop(): Promise<void> };

export async function spawnSandbox(env: Record<string, string>): Promise<SpawnedSandbox> {
  const child = spawn(...tsxCommand(["sandbox/main.ts"]), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    void exited.then(() => reject(new Error("the sandbox exited before it was ready")));
  });
  const ready = JSON.parse(line) as { baseUrl: string; apiKey: string };
  return {
    ...ready,
    child,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
