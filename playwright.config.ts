import { defineConfig, devices, type TraceMode } from "@playwright/test";

/**
 * The suite runs on E2E_WORKERS Playwright workers (default 2, one a core of the 2-core CI
 * machine), and each worker has an app instance of its own: its own app, embedded database,
 * sandbox and data folder, so that what one spec does to its upstream (the sandbox's clock,
 * faults, the fulfilment mode) or its database never reaches a spec on another worker. A spec
 * file runs whole on one worker, in order, as before.
 *
 * Playwright loads this file again in each worker with TEST_PARALLEL_INDEX set (0, 1, …): the
 * constants below are then that worker's instance's, so specs and helpers importing them reach
 * their own instance. Instance i's ports are the base ports + 100 × i (a third instance would
 * take 3300, which tests/e2e/supervision.ts uses: move it before raising the default); the base
 * ports can be moved (E2E_PORT, E2E_DB_PORT, E2E_SANDBOX_PORT, …) so that two checkouts can run
 * the suite at once.
 * All below Linux's ephemeral range (32768+): an outgoing connection holding a fixed port there
 * would keep the app from starting (seen with a bench's database port).
 */
export const E2E_WORKERS = Number(process.env.E2E_WORKERS ?? 2);

/** Instance `index`'s ports (base + 100 × index) and data folder (instance 0 keeps the single-instance names). */
function instanceOf(index: number) {
  const port = (variable: string, fallback: number) => Number(process.env[variable] ?? fallback) + 100 * index;
  const dataDir = index === 0 ? ".data/e2e" : `.data/e2e-${index}`;
  return {
    port: port("E2E_PORT", 3100),
    dbPort: port("E2E_DB_PORT", 25433),
    sandboxPort: port("E2E_SANDBOX_PORT", 4610),
    oidcPort: port("E2E_OIDC_PORT", 4663),
    chatPort: port("E2E_CHAT_PORT", 4665),
    dataDir,
    serverLog: `${dataDir}-server.log`,
  };
}
const own = instanceOf(Number(process.env.TEST_PARALLEL_INDEX ?? 0));

export const E2E_PORT = own.port;
export const E2E_DB_PORT = own.dbPort;
export const E2E_ORIGIN = `http://localhost:${E2E_PORT}`;
/** This worker's app's data folder, and its server log (kept so tests can prove no revealed code was ever logged). */
export const E2E_DATA_DIR = own.dataDir;
export const E2E_SERVER_LOG = own.serverLog;
export const DEMO_PASSWORD = "e2e-demo-password-1";
export const E2E_SANDBOX_PORT = own.sandboxPort;
/** The sandbox's key in e2e runs, fixed so tests can prove it never reaches a browser. */
export const E2E_API_KEY = "svckey_e2elookup_S3cretSegmentThatMustNeverLeak0123456789";
/** The webhook secret the sandbox signs with (and the app checks), fixed so tests can sign deliveries of their own. */
export const E2E_WEBHOOK_SECRET = "svcwh_e2e0f1e2d3c4b5a69788796a5b4c3d2e1f00112233";
/**
 * The test OpenID Connect provider (tests/support/oidc-idp.ts), started by tests/e2e/sso.spec.ts
 * on loopback. The shared app is configured for it from the start: the app discovers the IdP
 * at the first SSO sign-in, so the provider need only be up while that spec runs.
 */
export const E2E_OIDC_PORT = own.oidcPort;
/**
 * The chat service of tests/e2e/chat-webhook.spec.ts, a receiver on loopback: the app posts
 * outgoing webhooks only to public https addresses, so the e2e app allows this one by name
 * (OUTGOING_WEBHOOK_ALLOW_HOSTS), as an operator would.
 */
export const E2E_CHAT_PORT = own.chatPort;
const ssoIssuer = (oidcPort: number) => `http://127.0.0.1:${oidcPort}`;
export const E2E_SSO = {
  issuer: ssoIssuer(E2E_OIDC_PORT),
  clientId: "back-office-e2e",
  /** Fixed so that tests can prove it never reaches a log, a page or the database. */
  clientSecret: "sso-client-secret-that-must-never-leak-0123456789",
  name: "Test IdP",
  allowedDomains: "sso.example",
  breakGlassEmail: "admin@demo.local",
};

const TRACE_MODES = ["off", "on", "retain-on-failure", "retain-on-first-failure"] as const satisfies TraceMode[];
function traceMode(): TraceMode {
  const given = process.env.E2E_TRACE ?? "off";
  const known = TRACE_MODES.find((mode) => mode === given);
  if (!known) throw new Error(`E2E_TRACE=${given}: expected one of ${TRACE_MODES.join(", ")}`);
  return known;
}

/**
 * End-to-end tests in Debian's Chromium (no browser download), against the app started
 * exactly as `npm start` starts it, on a fresh embedded database.
 */
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: E2E_ORIGIN,
    // A trace records every step of every test (screenshots, DOM snapshots) and costs CPU the
    // whole run for the few that fail; a CI run shows its log only. E2E_TRACE=retain-on-failure
    // (or on) to keep them: Playwright's trace modes.
    trace: traceMode(),
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  // One app per worker, started one after another: the first start builds the app (next build)
  // when the sources changed, the others find the build made.
  webServer: Array.from({ length: E2E_WORKERS }, (_, index) => {
    const app = instanceOf(index);
    return {
      command: `rm -rf ${app.dataDir} ${app.serverLog} && mkdir -p .data && npm start 2>&1 | tee ${app.serverLog}`,
      url: `http://localhost:${app.port}/api/health`,
      // A build takes about a minute on a quiet 2-core machine, far more under load.
      timeout: 600_000,
      reuseExistingServer: false,
      stdout: "pipe" as const,
      env: {
        PORT: String(app.port),
        DATA_DIR: app.dataDir,
        EMBEDDED_DB_PORT: String(app.dbPort),
        DEMO_PASSWORD,
        SANDBOX_API_KEY: E2E_API_KEY,
        SERVICE_WEBHOOK_SECRETS: E2E_WEBHOOK_SECRET,
        SANDBOX_PORT: String(app.sandboxPort),
        // Dozens of orders a minute (bulk runs among them) would otherwise queue behind the
        // real 120/min budget and make waits depend on timing; npm run bench:browsing
        // measures the app at the real limit.
        SANDBOX_RATE_LIMIT: "600",
        SERVICE_RATE_LIMIT: "600",
        SANDBOX_FULFILMENT_DELAY_MS: "300",
        SANDBOX_WEBHOOK_RETRY_SCALE: "0.05",
        // A watch pass every 5 s instead of 15 min: a change reaches the bell within the spec's wait.
        CATALOG_WATCH_INTERVAL_SECONDS: "5",
        LOG_LEVEL: "warn",
        SSO_ISSUER: ssoIssuer(app.oidcPort),
        SSO_CLIENT_ID: E2E_SSO.clientId,
        SSO_CLIENT_SECRET: E2E_SSO.clientSecret,
        SSO_NAME: E2E_SSO.name,
        SSO_ALLOWED_DOMAINS: E2E_SSO.allowedDomains,
        SSO_BREAK_GLASS_EMAIL: E2E_SSO.breakGlassEmail,
        OUTGOING_WEBHOOK_ALLOW_HOSTS: `127.0.0.1:${app.chatPort}`,
      },
    };
  }),
});
