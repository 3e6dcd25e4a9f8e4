import { defineConfig, devices } from "@playwright/test";

// Ports can be moved (E2E_PORT, E2E_DB_PORT, E2E_SANDBOX_PORT) so that two checkouts can run the suite at once.
// All below Linux's ephemeral range (32768+): an outgoing connection holding a fixed port there
// would keep the app from starting (seen with a bench's database port).
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_DB_PORT = Number(process.env.E2E_DB_PORT ?? 25433);
export const E2E_ORIGIN = `http://localhost:${E2E_PORT}`;
export const DEMO_PASSWORD = "e2e-demo-password-1";
/** The sandbox's key in e2e runs, fixed so tests can prove it never reaches a browser. */
export const E2E_SANDBOX_PORT = Number(process.env.E2E_SANDBOX_PORT ?? 4610);
export const E2E_API_KEY = "svckey_e2elookup_S3cretSegmentThatMustNeverLeak0123456789";
/** The webhook secret the sandbox signs with (and the app checks), fixed so tests can sign deliveries of their own. */
export const E2E_WEBHOOK_SECRET = "svcwh_e2e0f1e2d3c4b5a69788796a5b4c3d2e1f00112233";
/**
 * The test OpenID Connect provider (tests/support/oidc-idp.ts), started by tests/e2e/sso.spec.ts
 * on loopback. The shared app is configured for it from the start: the app discovers the IdP
 * at the first SSO sign-in, so the provider need only be up while that spec runs.
 */
export const E2E_OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? 4663);
/**
 * The chat service of tests/e2e/chat-webhook.spec.ts, a receiver on loopback: the app posts
 * outgoing webhooks only to public https addresses, so the e2e app allows this one by name
 * (OUTGOING_WEBHOOK_ALLOW_HOSTS), as an operator would.
 */
export const E2E_CHAT_PORT = Number(process.env.E2E_CHAT_PORT ?? 4665);
export const E2E_SSO = {
  issuer: `http://127.0.0.1:${E2E_OIDC_PORT}`,
  clientId: "back-office-e2e",
  /** Fixed so that tests can prove it never reaches a log, a page or the database. */
  clientSecret: "sso-client-secret-that-must-never-leak-0123456789",
  name: "Test IdP",
  allowedDomains: "sso.example",
  breakGlassEmail: "admin@demo.local",
};

/**
 * End-to-end tests in Debian's Chromium (no browser download), against the app started
 * exactly as `npm start` starts it, on a fresh embedded database.
 */
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    trace: "retain-on-failure",
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
  webServer: {
    // The server log is kept so tests can prove no revealed code was ever logged.
    command: "rm -rf .data/e2e .data/e2e-server.log && mkdir -p .data && npm start 2>&1 | tee .data/e2e-server.log",
    url: `http://localhost:${E2E_PORT}/api/health`,
    // The first start builds the app (next build): about a minute on a quiet 2-core machine, far more under load.
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: {
      PORT: String(E2E_PORT),
      DATA_DIR: ".data/e2e",
      EMBEDDED_DB_PORT: String(E2E_DB_PORT),
      DEMO_PASSWORD,
      SANDBOX_API_KEY: E2E_API_KEY,
      SERVICE_WEBHOOK_SECRETS: E2E_WEBHOOK_SECRET,
      SANDBOX_PORT: String(E2E_SANDBOX_PORT),
      // Dozens of orders a minute (bulk runs among them) would otherwise queue behind the
      // real 120/min budget and make waits depend on timing; npm run bench:browsing
      // measures the app at the real limit.
      SANDBOX_RATE_LIMIT: "600",
      SERVICE_RATE_LIMIT: "600",
      SANDBOX_FULFILMENT_DELAY_MS: "300",
      SANDBOX_WEBHOOK_RETRY_SCALE: "0.05",
      LOG_LEVEL: "warn",
      SSO_ISSUER: E2E_SSO.issuer,
      SSO_CLIENT_ID: E2E_SSO.clientId,
      SSO_CLIENT_SECRET: E2E_SSO.clientSecret,
      SSO_NAME: E2E_SSO.name,
      SSO_ALLOWED_DOMAINS: E2E_SSO.allowedDomains,
      SSO_BREAK_GLASS_EMAIL: E2E_SSO.breakGlassEmail,
      OUTGOING_WEBHOOK_ALLOW_HOSTS: `127.0.0.1:${E2E_CHAT_PORT}`,
    },
  },
});
