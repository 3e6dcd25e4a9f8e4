import { readFileSync } from "node:fs";
import type { SandboxOptions } from "./server";

// The one place that reads SANDBOX_* variables. Invalid values stop the start with a message naming the variable.

function int(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined {
  const text = env[name];
  if (text === undefined || text === "") return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${text}"`);
  return value;
}

function num(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | undefined {
  const text = env[name];
  if (text === undefined || text === "") return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < min || value > max)
    throw new Error(`${name} must be a number from ${min} to ${max}, got "${text}"`);
  return value;
}

function str(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const text = env[name];
  return text === undefined || text === "" ? undefined : text;
}

// "USD:5000,EUR:2000.50"
export function parseWallet(text: string): Record<string, number> {
  const wallet: Record<string, number> = {};
  for (const part of text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^([A-Z]{3}):(\d+(?:\.\d{1,2})?)$/.exec(part);
    if (!match) throw new Error(`SANDBOX_WALLET entries look like USD:5000, got "${part}"`);
    wallet[match[1] as string] = Number(match[2]);
  }
  return wallet;
}

export function readSandboxEnv(env: NodeJS.ProcessEnv): SandboxOptions {
  const tlsKey = str(env, "SANDBOX_TLS_KEY");
  const tlsCert = str(env, "SANDBOX_TLS_CERT");
  if (Boolean(tlsKey) !== Boolean(tlsCert)) throw new Error("SANDBOX_TLS_KEY and SANDBOX_TLS_CERT must be set together");
  const walletText = str(env, "SANDBOX_WALLET");
  const delay = str(env, "SANDBOX_FULFILMENT_DELAY_MS");
  return {
    port: int(env, "SANDBOX_PORT", 0, 65535) ?? 4010,
    host: str(env, "SANDBOX_HOST") ?? "127.0.0.1",
    apiKey: str(env, "SANDBOX_API_KEY"),
    webhookUrl: str(env, "SANDBOX_WEBHOOK_URL"),
    webhookSecret: str(env, "SANDBOX_WEBHOOK_SECRET"),
    seed: str(env, "SANDBOX_SEED"),
    wallet: walletText === undefined ? undefined : parseWallet(walletText),
    stateFile: str(env, "SANDBOX_STATE_FILE"),
    quoteTtlSeconds: int(env, "SANDBOX_QUOTE_TTL_SECONDS", 1, 86_400),
    rateLimitPerMinute: int(env, "SANDBOX_RATE_LIMIT", 1, 1_000_000_000),
    webhookRetryScale: num(env, "SANDBOX_WEBHOOK_RETRY_SCALE", 0, 100),
    webhookTimeoutMs: int(env, "SANDBOX_WEBHOOK_TIMEOUT_MS", 1, 60_000),
    fulfilmentDelayMs: delay === undefined ? undefined : int(env, "SANDBOX_FULFILMENT_DELAY_MS", 0, 3_600_000),
    fulfilmentFailRate: num(env, "SANDBOX_FULFILMENT_FAIL_RATE", 0, 1),
    maxBodyBytes: int(env, "SANDBOX_MAX_BODY_BYTES", 1024, 16 * 1024 * 1024),
    tls: tlsKey && tlsCert ? { key: readFileSync(tlsKey), cert: readFileSync(tlsCert) } : undefined,
  };
}
