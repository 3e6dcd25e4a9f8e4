import { z } from "zod";
import { parseTrustedProxies } from "@/lib/auth/trusted-proxies";
import type { KeyName, KeySlotConfig } from "@/lib/upstream/client/keys";
import { ROLES } from "@/lib/auth/permissions";
import { parseAllowHosts } from "@/lib/http/outgoing-address";

/** An IdP is reached over https; plain http only on the loopback interface (the tests' own provider). */
export function ssoIssuerAllowed(issuer: string): boolean {
  const url = new URL(issuer);
  if (url.protocol === "https:") return true;
  return url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
}

/** A key slot's variables: the key, its rotation successor, and when each expires. */
function keyVariables<P extends string>(prefix: P) {
  const key = z.string().min(1).optional();
  const expiry = z.iso
    .datetime({ offset: true, message: "must be an ISO 8601 instant, e.g. 2027-01-31T00:00:00Z" })
    .transform((text) => new Date(text))
    .optional();
  return {
    [prefix]: key,
    [`${prefix}_NEXT`]: key,
    [`${prefix}_EXPIRES_AT`]: expiry,
    [`${prefix}_NEXT_EXPIRES_AT`]: expiry,
  } as Record<P | `${P}_NEXT`, typeof key> & Record<`${P}_EXPIRES_AT` | `${P}_NEXT_EXPIRES_AT`, typeof expiry>;
}

/**
 * The one place that reads process.env. Everything else imports `env`.
 * Parsed lazily (first use) so that `next build` does not need run-time secrets.
 */
/** `host:port` entries an outgoing webhook may reach though not a public https address (lib/http/outgoing-address.ts). */
const allowHostsSchema = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const hosts = parseAllowHosts(value);
    if (hosts) return hosts;
    ctx.addIssue({ code: "custom", message: "must be host:port entries separated by commas, e.g. 127.0.0.1:4684" });
    return z.NEVER;
  });

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    DATABASE_URL: z.string().min(1, "DATABASE_URL is required (npm start sets it in local mode)"),
    AUTH_SECRET: z.string().min(32, "AUTH_SECRET must be at least 32 characters"),
    /** Public URL of the app, used by next-auth for redirects and cookie security. */
    APP_URL: z.string().url().default("http://localhost:3000"),
    SESSION_IDLE_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(30),
    SESSION_MAX_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 30)
      .default(12),
    /**
     * Key material for sealing second-factor secrets (TOTP seeds) with AES-256-GCM: at least 32
     * characters, derived into the key (lib/crypto/derive-key.ts). The launcher
     * generates and keeps one under DATA_DIR in local mode, as it does AUTH_SECRET.
     */
    SECOND_FACTOR_KEY: z.string().min(32, "SECOND_FACTOR_KEY must be at least 32 characters").optional(),
    /** How long a proof (password, or second factor) lets sensitive actions through without asking again. */
    STEP_UP_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
    /** Set by the launcher when it runs everything itself (embedded DB, sandbox). */
    LOCAL_MODE: z.enum(["0", "1"]).default("0"),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    /** App processes behind PORT (scripts/serve-app.mjs, which reads it); unset: the core count. */
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
    /**
     * Reverse proxies whose X-Forwarded-For/-Host/-Proto count (lib/auth/trusted-proxies.ts):
     * a hop count or a comma-separated list of addresses and CIDR ranges. Unset: none.
     */
    TRUSTED_PROXIES: z
      .string()
      .optional()
      .transform((value, ctx) => {
        try {
          return parseTrustedProxies(value);
        } catch (error) {
          ctx.addIssue({ code: "custom", message: `must be ${error instanceof Error ? error.message : "valid"}` });
          return z.NEVER;
        }
      }),

    // Single sign-on with OpenID Connect (lib/auth/sso): all three of issuer, client id and
    // secret, or none (local sign-in only). README, "Single sign-on".
    /** The IdP's issuer URL (discovery at <issuer>/.well-known/openid-configuration); https, or http on loopback. */
    SSO_ISSUER: z
      .string()
      .url()
      .optional()
      .refine((value) => value === undefined || ssoIssuerAllowed(value), {
        message: "must be an https URL (http only on loopback, for tests)",
      }),
    SSO_CLIENT_ID: z.string().min(1).optional(),
    /** Never logged, stored or sent to a browser: only the token request to the IdP carries it. */
    SSO_CLIENT_SECRET: z.string().min(1).optional(),
    /** The button's name: "Sign in with <SSO_NAME>". */
    SSO_NAME: z.string().trim().min(1).max(60).default("single sign-on"),
    /** Comma-separated email domains whose people without an account get one (no role, or SSO_DEFAULT_ROLE) at their first SSO sign-in. */
    SSO_ALLOWED_DOMAINS: z
      .string()
      .optional()
      .transform((value) =>
        (value ?? "")
          .split(",")
          .map((domain) => domain.trim().toLowerCase().replace(/^@/, ""))
          .filter(Boolean),
      ),
    /** The role an account created by SSO starts with; unset: none (an admin grants one). */
    SSO_DEFAULT_ROLE: z.enum(ROLES).optional(),
    /** The one account whose password still works while Settings makes SSO the only way in. */
    SSO_BREAK_GLASS_EMAIL: z.string().trim().toLowerCase().pipe(z.email()).optional(),

    /** Which process this is: scripts/worker.ts says "worker"; the app's processes are "web". */
    APP_PROCESS: z.enum(["web", "worker"]).default("web"),

    // The upstream (lib/upstream). In local mode the launcher fills these from the sandbox.
    SERVICE_BASE_URL: z.string().url().optional(),
    // The keys (lib/upstream/client/keys.ts): one general key with every scope, and/or one per
    // capability (read, ordering, payout). Each has a `_NEXT` key for rotation (switched to, without
    // restart, when the active one gets 401) and may say when each expires (`_EXPIRES_AT`,
    // `_NEXT_EXPIRES_AT`: ISO 8601), which key health warns of 14 days ahead.
    ...keyVariables("SERVICE_API_KEY"),
    ...keyVariables("SERVICE_READ_KEY"),
    ...keyVariables("SERVICE_ORDERING_KEY"),
    ...keyVariables("SERVICE_PAYOUT_KEY"),
    /** Comma-separated webhook secrets (svcwh_…); any of them verifies a delivery. */
    SERVICE_WEBHOOK_SECRETS: z.string().optional(),
    SERVICE_CATALOG_TTL_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
    /** How often the catalog watch re-reads what staff watch (README, "Catalog watch": its cost in calls an hour). */
    CATALOG_WATCH_INTERVAL_SECONDS: z.coerce.number().int().min(5).max(86_400).default(900),
    /** The workspace's upstream limit per fixed minute, shared by all instances. */
    SERVICE_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(120),
    /** Base of the retry backoff (1 s per the contract; tests make it small). */
    SERVICE_RETRY_BASE_MS: z.coerce.number().int().min(1).max(60_000).default(1000),
    SERVICE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(12_000),

    // Notifications (lib/notifications): email through SMTP, the worker's delivery job.
    /** smtp://user:password@host:587 (STARTTLS when offered) or smtps://…:465. Unset: no email is sent (local mode: the launcher's mail catcher). Never logged. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/[^\s]+$/, "must be smtp://… or smtps://…")
      .optional(),
    /** The sender of every notification email: an address, or "Name <address>". */
    MAIL_FROM: z.string().min(3).max(200).default("Back office <notifications@localhost>"),
    /** Set by the launcher when SMTP_URL is its local mail catcher (admins see the caught mail). */
    MAIL_CATCHER: z.enum(["0", "1"]).default("0"),
    /**
     * Outgoing webhooks (the chat channel) go to public https addresses only
     * (lib/http/outgoing-address.ts). This lists the exceptions, `host:port` separated by commas
     * (e.g. `127.0.0.1:4684`): tests' and local receivers, reached over http or https. Unset: none.
     */
    OUTGOING_WEBHOOK_ALLOW_HOSTS: allowHostsSchema,
    /** How often the worker looks for due deliveries. */
    NOTIFY_DELIVERY_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(300).default(5),

    // Telemetry (lib/telemetry; README "Telemetry"). The OpenTelemetry SDK reads its own OTEL_*
    // variables; the app only asks whether an OTLP endpoint is set.
    OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
    /** How often metrics are exported (ms; the standard variable, default one minute). */
    OTEL_METRIC_EXPORT_INTERVAL: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
    /** The share of traces kept, 0 to 1 (the standard variable; lib/telemetry/start-telemetry.ts says how). */
    OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
    /** The bearer token /metrics asks for (at least 16 characters); unset: /metrics answers 404. Never logged. */
    METRICS_TOKEN: z.string().min(16).optional(),

    // Every order of the workspace (lib/orders/import-orders-page.ts, sync-orders.ts).
    /** Upstream calls a minute the history import may use at most (one page of 100 orders each). */
    ORDERS_IMPORT_CALLS_PER_MINUTE: z.coerce.number().int().min(1).max(600).default(30),
    /** Safety-net sync interval: about one call per run, so 120 s costs under 1 % of 120/min. */
    ORDERS_SYNC_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
    /** The sync re-reads from its high-water mark minus this, for orders that became visible late. */
    ORDERS_SYNC_OVERLAP_SECONDS: z.coerce.number().int().min(0).max(86_400).default(120),
  })
  .refine(
    (env) =>
      [env.SSO_ISSUER, env.SSO_CLIENT_ID, env.SSO_CLIENT_SECRET].every((v) => v === undefined) ||
      [env.SSO_ISSUER, env.SSO_CLIENT_ID, env.SSO_CLIENT_SECRET].every((v) => v !== undefined),
    {
      message: "SSO_ISSUER, SSO_CLIENT_ID and SSO_CLIENT_SECRET go together: set all three, or none",
      path: ["SSO_ISSUER"],
    },
  );

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

export function getEnv(): Env {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Error(`Configuration error: ${first?.path.join(".")}: ${first?.message}`);
  }
  cached = parsed.data;
  return cached;
}

/**
 * The outgoing-webhook allowance alone, for an input schema (a settings form's URL field): the
 * same rule as the whole configuration's, without needing the rest of it, so a schema stays a
 * check that runs anywhere (the text-rule tests parse every schema with no configuration).
 */
export function outgoingWebhookAllowHosts(): readonly string[] {
  return cached?.OUTGOING_WEBHOOK_ALLOW_HOSTS ?? allowHostsSchema.parse(process.env.OUTGOING_WEBHOOK_ALLOW_HOSTS);
}

/** Secure cookies whenever the app is served over https (always the case in production). */
export function usesSecureCookies(env: Env = getEnv()): boolean {
  return env.APP_URL.startsWith("https://");
}

/** The env variable each key slot is read from. */
export const KEY_VARIABLES: Record<KeyName, string> = {
  general: "SERVICE_API_KEY",
  read: "SERVICE_READ_KEY",
  ordering: "SERVICE_ORDERING_KEY",
  payout: "SERVICE_PAYOUT_KEY",
};

/** The configured upstream, or a clear error naming what is missing. */
export function serviceConfig(env: Env = getEnv()) {
  const keys: KeySlotConfig[] = (Object.entries(KEY_VARIABLES) as [KeyName, string][]).flatMap(([name, variable]) => {
    const values = env as unknown as Record<string, string | Date | undefined>;
    const active = values[variable] as string | undefined;
    const next = values[`${variable}_NEXT`] as string | undefined;
    if (!active && !next) return [];
    const pairs = [
      [active, values[`${variable}_EXPIRES_AT`] as Date | undefined],
      [next, values[`${variable}_NEXT_EXPIRES_AT`] as Date | undefined],
    ].filter((pair): pair is [string, Date | undefined] => pair[0] !== undefined);
    return [{ name, keys: pairs.map(([key]) => key), expiresAt: pairs.map(([, at]) => at ?? null) }];
  });
  if (!env.SERVICE_BASE_URL || keys.length === 0) {
    throw new Error(
      "Configuration error: SERVICE_BASE_URL and SERVICE_API_KEY (or SERVICE_READ_KEY, SERVICE_ORDERING_KEY, SERVICE_PAYOUT_KEY) are required (npm start sets them in local mode).",
    );
  }
  return {
    baseUrl: env.SERVICE_BASE_URL,
    keys,
    webhookSecrets: (env.SERVICE_WEBHOOK_SECRETS ?? "")
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean),
    catalogTtlMs: env.SERVICE_CATALOG_TTL_SECONDS * 1000,
    rateLimit: env.SERVICE_RATE_LIMIT,
    retryBaseMs: env.SERVICE_RETRY_BASE_MS,
    timeoutMs: env.SERVICE_TIMEOUT_MS,
  };
}

/** The history import's and the safety-net sync's pacing (lib/orders). */
export function orderSyncConfig(env: Env = getEnv()) {
  return {
    importCallsPerMinute: env.ORDERS_IMPORT_CALLS_PER_MINUTE,
    syncIntervalSeconds: env.ORDERS_SYNC_INTERVAL_SECONDS,
    syncOverlapMs: env.ORDERS_SYNC_OVERLAP_SECONDS * 1000,
  };
}

/** Local mode (the launcher runs the database and the sandbox itself): the second-factor policy starts off there. */
export function isLocalMode(env: Env = getEnv()): boolean {
  return env.LOCAL_MODE === "1";
}

export type SsoConfig = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  name: string;
  allowedDomains: string[];
  defaultRole: (typeof ROLES)[number] | null;
  breakGlassEmail: string | null;
  /** The redirect URI registered at the IdP: <APP_URL>/api/auth/sso/callback. */
  redirectUri: string;
};

/** Single sign-on's configuration, or null when it is not configured (local sign-in only). */
export function ssoConfig(env: Env = getEnv()): SsoConfig | null {
  if (!env.SSO_ISSUER || !env.SSO_CLIENT_ID || !env.SSO_CLIENT_SECRET) return null;
  return {
    issuer: env.SSO_ISSUER,
    clientId: env.SSO_CLIENT_ID,
    clientSecret: env.SSO_CLIENT_SECRET,
    name: env.SSO_NAME,
    allowedDomains: env.SSO_ALLOWED_DOMAINS,
    defaultRole: env.SSO_DEFAULT_ROLE ?? null,
    breakGlassEmail: env.SSO_BREAK_GLASS_EMAIL ?? null,
    redirectUri: new URL("/api/auth/sso/callback", env.APP_URL).toString(),
  };
}
