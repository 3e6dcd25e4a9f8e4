import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import path from "node:path";
import { tsxCommand } from "../../../scripts/lib/child-env";
import { withHelpers, type TestSandbox } from "./client";

// Starts the real standalone program (sandbox/main.ts under tsx's loader) as a child process and reads its ready line.

const ROOT = path.resolve(import.meta.dirname, "../../..");

export type ChildSandbox = TestSandbox & {
  child: ChildProcess;
  readyLine: string;
  stderr: () => string;
  stop(): Promise<number | null>;
};

export async function spawnSandbox(env: Record<string, string>): Promise<ChildSandbox> {
  const child = spawn(...tsxCommand(["sandbox/main.ts"]), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const lines = createInterface({ input: child.stdout! });
  const readyLine = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within 20 s; stderr: ${stderr}`)), 20_000);
    lines.once("line", (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    void exited.then((code) => reject(new Error(`sandbox exited with ${code}; stderr: ${stderr}`)));
  });
  const extraLines: string[] = [];
  lines.on("line", (line) => extraLines.push(line));
  const ready = JSON.parse(readyLine) as { baseUrl: string; apiKey: string; webhookSecret: string };
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    const code = await exited;
    if (extraLines.length > 0) throw new Error(`the sandbox printed more than one stdout line: ${extraLines.join(" | ")}`);
    return code;
  };
  return { ...withHelpers({ ...ready, close: async () => void (await stop()) }), child, readyLine, stderr: () => stderr, stop };
}
