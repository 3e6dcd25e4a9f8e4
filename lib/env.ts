import { z } from "zod";

/**
 * The one place that reads process.env. Everything else imports `env`.
 * Parsed lazily (first use) so that `next build` does not need run-time secrets.
 */
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z.string().min(1, "DATABASE_URL is required (npm start sets it in local mode)"),
  AUTH_SECRET: z.string().min(32, "AUTH_SECRET must be at least 32 characters"),
  /** Public URL of the app, used by next-auth for redirects and cookie security. */
  APP_URL: z.string().url().default("http://localhost:3000"),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(30),
  SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(12),
  /** Set by the launcher when it runs everything itself (embedded DB, sandbox). */
  LOCAL_MODE: z.enum(["0", "1"]).default("0"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
});

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

/** Secure cookies whenever the app is served over https (always the case in production). */
export function usesSecureCookies(env: Env = getEnv()): boolean {
  return env.APP_URL.startsWith("https://");
}
