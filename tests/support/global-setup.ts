import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startEmbeddedDb } from "../../lib/db/embedded";
import { migrate } from "../../lib/db/migrate";
import { startSandbox } from "../../sandbox/server";

/**
 * The integration tests' database: the embedded PGlite by default, or a real PostgreSQL
 * when TEST_DATABASE_URL is set (the test command runs the suite once on each).
 * A real database is emptied first so every run starts clean.
 */
export default async function setup(project: TestProject) {
  let url = process.env.TEST_DATABASE_URL;
  let stop = async () => {};
  if (url) {
    await resetDatabase(url);
  } else {
    const embedded = await startEmbeddedDb();
    url = embedded.url;
    stop = embedded.stop;
  }
  await migrate(url, path.resolve(import.meta.dirname, "../../prisma/migrations"));
  process.env.DATABASE_URL = url;
  process.env.AUTH_SECRET ??= "test-secret-test-secret-test-secret-0123456789";
  process.env.SECOND_FACTOR_KEY ??= "test-second-factor-key-0123456789-abcdefghij";
  process.env.TEST_DB_KIND = process.env.TEST_DATABASE_URL ? "postgresql" : "pglite";
  project.provide("databaseUrl", url);

  // The upstream is the sandbox over HTTP, as in production; fast fulfilment and retries.
  const sandbox = await startSandbox({
    port: 0,
    fulfilmentDelayMs: 50,
    rateLimitPerMinute: 100_000,
    webhookRetryScale: 0.01,
    log: () => {},
  });
  process.env.SERVICE_BASE_URL = sandbox.baseUrl;
  process.env.SERVICE_API_KEY = sandbox.apiKey;
  process.env.SERVICE_WEBHOOK_SECRETS = sandbox.webhookSecret;
  process.env.SERVICE_RETRY_BASE_MS = "20";
  process.env.SERVICE_TIMEOUT_MS = "1500";
  process.env.SERVICE_RATE_LIMIT = "100000";
  project.provide("sandbox", { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, webhookSecret: sandbox.webhookSecret });

  return async () => {
    await sandbox.close();
    await stop();
  };
}

async function resetDatabase(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("DROP SCHEMA public CASCADE; CREATE SCHEMA public;");
  await client.end();
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    sandbox: { baseUrl: string; apiKey: string; webhookSecret: string };
  }
}
