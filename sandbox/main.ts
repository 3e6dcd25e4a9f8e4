import { readSandboxEnv } from "./env";
import { startSandbox } from "./server";

// `npm run sandbox`: start from SANDBOX_* variables, print one JSON line on stdout when ready
// ({"baseUrl","apiKey","webhookSecret"}), log everything else to stderr, stop cleanly on SIGINT/SIGTERM.

async function main(): Promise<void> {
  const running = await startSandbox(readSandboxEnv(process.env));
  process.stdout.write(
    `${JSON.stringify({ baseUrl: running.baseUrl, apiKey: running.apiKey, webhookSecret: running.webhookSecret })}\n`,
  );
  process.stderr.write(`[sandbox] ready at ${running.baseUrl} (API under /api/v1, control plane under /_sandbox)\n`);
  const stop = (signal: string) => {
    process.stderr.write(`[sandbox] ${signal}: stopping\n`);
    void running.close().then(() => process.exit(0));
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}

main().catch((error: unknown) => {
  process.stderr.write(`[sandbox] failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
