/**
 * Structured JSON logging to stderr. Callers pass context objects; values under keys that
 * look secret are replaced, as a last line of defence (secrets should never be passed).
 */
type Level = "debug" | "info" | "warn" | "error";
const ORDER: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };
const SECRET_KEY = /pass(word)?|secret|token|api.?key|authorization|cookie|artifact/i;

function threshold(): number {
  // Read directly: logging must work before (and even if) the environment validates.
  const level = (process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "warn" : "info")) as Level | "silent";
  return ORDER[level] ?? ORDER.info;
}

export function redact(context: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(context)) {
    out[key] = SECRET_KEY.test(key)
      ? "[redacted]"
      : value && typeof value === "object" && !Array.isArray(value) && !(value instanceof Date)
        ? redact(value as Record<string, unknown>)
        : value;
  }
  return out;
}

function write(level: Level, message: string, context: Record<string, unknown> = {}): void {
  if (ORDER[level] < threshold()) return;
  process.stderr.write(JSON.stringify({ t: new Date().toISOString(), level, msg: message, ...redact(context) }) + "\n");
}

export const logger = {
  debug: (m: string, c?: Record<string, unknown>) => write("debug", m, c),
  info: (m: string, c?: Record<string, unknown>) => write("info", m, c),
  warn: (m: string, c?: Record<string, unknown>) => write("warn", m, c),
  error: (m: string, c?: Record<string, unknown>) => write("error", m, c),
};
