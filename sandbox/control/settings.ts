import { iso } from "../clock";
import { noFaults, parseFaults } from "../faults";
import { route } from "../http/router";
import { createReader, readInteger, readNumber, readRate, readString, rejectUnknown } from "../validate";
import { settleWithdrawals } from "../withdrawals";
import { controlBody, type ControlContext, type ControlHandler, type ControlRoute } from "./context";

// Timing and behaviour knobs for tests: clock, fulfilment, faults, rate limit, quote lifetime, webhook retries.

function clockView(ctx: ControlContext) {
  return { nowUtc: iso(ctx.sb.clock.now()), offsetSeconds: ctx.sb.clock.offsetMs() / 1000 };
}

function settingsView(ctx: ControlContext) {
  const s = ctx.sb.settings;
  return {
    quoteTtlSeconds: s.quoteTtlSeconds,
    webhookRetryScale: s.webhookRetryScale,
    webhookTimeoutMs: s.webhookTimeoutMs,
    rateLimitPerMinute: s.rateLimitPerMinute,
    maxBodyBytes: s.maxBodyBytes,
  };
}

export const settingsRoutes: ControlRoute[] = [
  route<ControlHandler>("GET", "/_sandbox/health", (ctx) => ({
    status: 200,
    json: { ok: true, ...clockView(ctx), products: ctx.sb.catalog.products.length },
  })),
  route<ControlHandler>("GET", "/_sandbox/clock", (ctx) => ({ status: 200, json: clockView(ctx) })),
  route<ControlHandler>("POST", "/_sandbox/clock/advance", (ctx) => {
    const body = controlBody(ctx);
    const r = createReader();
    rejectUnknown(r, body, ["seconds"]);
    const seconds = readNumber(r, body, "seconds", "seconds", { min: 0, max: 10 * 365 * 86_400 });
    if (seconds === undefined) r.add("seconds", "Is required.");
    r.fail();
    ctx.sb.clock.advance(seconds ?? 0);
    for (const ws of ctx.sb.state.workspaces.values()) settleWithdrawals(ctx.sb, ws);
    ctx.sb.changed();
    return { status: 200, json: clockView(ctx) };
  }),
  route<ControlHandler>("GET", "/_sandbox/fulfilment", (ctx) => ({ status: 200, json: ctx.sb.settings.fulfilment })),
  route<ControlHandler>("PUT", "/_sandbox/fulfilment", (ctx) => {
    const body = controlBody(ctx);
    const r = createReader();
    rejectUnknown(r, body, ["delayMs", "failRate", "mode"]);
    const delayMs = readInteger(r, body, "delayMs", "delayMs", { min: 0, max: 3_600_000 });
    const failRate = readRate(r, body, "failRate", "failRate");
    const mode = readString(r, body, "mode", "mode", { pattern: /^(auto|manual)$/, patternMessage: "Must be auto or manual." });
    r.fail();
    const f = ctx.sb.settings.fulfilment;
    if ("delayMs" in body) f.delayMs = delayMs ?? null; // null restores the default random 1–3 s
    if (failRate !== undefined) f.failRate = failRate;
    if (mode === "auto" || mode === "manual") f.mode = mode;
    return { status: 200, json: f };
  }),
  route<ControlHandler>("GET", "/_sandbox/faults", (ctx) => ({ status: 200, json: ctx.sb.settings.faults })),
  route<ControlHandler>("PUT", "/_sandbox/faults", (ctx) => {
    ctx.sb.settings.faults = parseFaults(controlBody(ctx));
    return { status: 200, json: ctx.sb.settings.faults };
  }),
  route<ControlHandler>("DELETE", "/_sandbox/faults", (ctx) => {
    ctx.sb.settings.faults = noFaults();
    return { status: 200, json: ctx.sb.settings.faults };
  }),
  route<ControlHandler>("GET", "/_sandbox/rate-limit", (ctx) => ({
    status: 200,
    json: {
      perMinute: ctx.sb.settings.rateLimitPerMinute,
      rateLimitedSinceStart: ctx.sb.counters.rateLimited,
      windows: [...ctx.sb.counters.windows].map(([key, tally]) => {
        const [workspace, startMs] = key.split(" ");
        return { workspace, startUtc: iso(Number(startMs)), ...tally };
      }),
    },
  })),
  route<ControlHandler>("PUT", "/_sandbox/rate-limit", (ctx) => {
    const body = controlBody(ctx);
    const r = createReader();
    rejectUnknown(r, body, ["perMinute"]);
    const perMinute = readInteger(r, body, "perMinute", "perMinute", { required: true, min: 1, max: 1_000_000_000 });
    r.fail();
    ctx.sb.settings.rateLimitPerMinute = perMinute ?? ctx.sb.settings.rateLimitPerMinute;
    for (const ws of ctx.sb.state.workspaces.values()) ws.rateWindow = { startMs: 0, count: 0 }; // a new limit starts a fresh window
    return { status: 200, json: { perMinute: ctx.sb.settings.rateLimitPerMinute } };
  }),
  route<ControlHandler>("GET", "/_sandbox/settings", (ctx) => ({ status: 200, json: settingsView(ctx) })),
  route<ControlHandler>("PUT", "/_sandbox/settings", (ctx) => {
    const body = controlBody(ctx);
    const r = createReader();
    rejectUnknown(r, body, ["quoteTtlSeconds", "webhookRetryScale", "webhookTimeoutMs"]);
    const quoteTtlSeconds = readInteger(r, body, "quoteTtlSeconds", "quoteTtlSeconds", { min: 1, max: 86_400 });
    const webhookRetryScale = readNumber(r, body, "webhookRetryScale", "webhookRetryScale", { min: 0, max: 100 });
    const webhookTimeoutMs = readInteger(r, body, "webhookTimeoutMs", "webhookTimeoutMs", { min: 1, max: 60_000 });
    r.fail();
    const s = ctx.sb.settings;
    if (quoteTtlSeconds !== undefined) s.quoteTtlSeconds = quoteTtlSeconds;
    if (webhookRetryScale !== undefined) s.webhookRetryScale = webhookRetryScale;
    if (webhookTimeoutMs !== undefined) s.webhookTimeoutMs = webhookTimeoutMs;
    return { status: 200, json: settingsView(ctx) };
  }),
  route<ControlHandler>("GET", "/_sandbox/audit", (ctx) => ({
    status: 200,
    json: { items: ctx.sb.state.audit.map(({ atMs, ...entry }) => ({ atUtc: iso(atMs), ...entry })) },
  })),
];
