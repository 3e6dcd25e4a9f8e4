import type { z } from "zod";
import { defaultCodeFor, ServiceError } from "./errors";
import { problemSchema } from "./schemas";
import {
  createHttpExchange,
  DEFAULT_MAX_ANSWER_BYTES,
  ExchangeTimeoutError,
  ExchangeTooLargeError,
  type ExchangeResponse,
  type ResponseHeaders,
} from "./http-exchange";
import { backoffMs, MAX_ATTEMPTS, retryAfterMs, shouldRetry } from "./retry-policy";
import { createKeyring, keyLookupSegment, type KeyChoice, type KeyName, type KeySlotConfig, type Scope } from "./keys";
import { endpointLabel, pathOf, type AnswerOf, type Endpoint, type JsonEndpoint, type PathParams } from "./endpoints";

/**
 * The one HTTP door to the upstream: a call names its endpoint (./endpoints.ts), which gives its
 * method, path, scope, answer and retry class; then the key the scope needs (./keys.ts), per-attempt
 * timeout, the contract's retries, an overall deadline, the shared request budget, key
 * rotation on 401 (per key), and problem documents turned into ServiceErrors. Knows nothing
 * of staff, sessions or pages.
 */
/**
 * The budget's classes, most urgent first: `money` (placing an order, a reveal, sending or
 * reconciling a withdrawal) has a reserved share of every minute that the others never take;
 * `interactive` is a person waiting on a read; `background` is work nobody waits on.
 */
export type Priority = "money" | "interactive" | "background";

/** Who a call is spent for: a person (held to their share of the minute) or a job. Opaque to the transport. */
export type Spender = { kind: "person"; staffId: string; email?: string } | { kind: "job"; name: string };

export type BudgetCharge = {
  priority: Priority;
  by?: Spender;
  /** A lookup of something the app may not know (an order id, a client reference): held to a smaller share. */
  lookup?: boolean;
  /** Past the person's share, wait for the next minute (up to the deadline) instead of being refused: work the person asked for in one go, such as checking a bulk file. */
  patient?: boolean;
};

/** Why the budget gave no slot: the spender's own share is used up, or the whole window is. */
export class BudgetRefusal extends Error {
  constructor(
    /** `session`: the person's session is no longer alive (the budget checked it with the slot); nothing taken. */
    readonly reason: "share" | "window" | "session",
    /** Until the window that has room starts. */
    readonly retryAfterMs: number,
  ) {
    super(
      reason === "share"
        ? "the spender's share of this minute is used up"
        : reason === "window"
          ? "the budget for this minute is used up"
          : "the spender's session is no longer alive",
    );
    this.name = "BudgetRefusal";
  }
}

export type RequestBudget = {
  /**
   * Resolves when this instance may send one request. Rejects with a BudgetRefusal when the
   * spender's share is used up (at once: a person past their share is told, not queued) or
   * when the next window with room starts after `deadline` (epoch ms).
   */
  acquire(charge: BudgetCharge, deadline: number): Promise<void>;
};

export type AttemptLog = {
  method: string;
  path: string;
  /** The endpoint's path with ":id" for each filled segment: a label that names no id. */
  endpoint: string;
  attempt: number;
  status?: number;
  code?: string;
  correlationId?: string;
  durationMs: number;
  outcome: "ok" | "retry" | "error";
  /** The budget priority the request was sent at (the admin's per-minute counts keep it). */
  priority?: Priority;
};

/** What one answer said of the key that was sent (key health: lib/upstream/key-health.ts). */
export type KeyOutcome = {
  key: KeyName;
  /** The key's public lookup segment, never the secret. */
  lookup: string;
  scope: Scope;
  /** "ok": any answer but 401/403 (the key itself was accepted). */
  outcome: "ok" | "unauthorized" | "forbidden";
  /** The upstream's own words for a 401/403. */
  message?: string;
  correlationId?: string;
};

export type TransportOptions = {
  baseUrl: string;
  /**
   * The keys, each with its rotation (the active key first; the next one is switched to when
   * the first gets 401). A call is sent with the narrowest key serving its scope (./keys.ts).
   */
  keys: KeySlotConfig[];
  budget: RequestBudget;
  timeoutMs?: number;
  retryBaseMs?: number;
  deadlineMs?: number;
  /** The largest answer body taken (decoded), unless a request says otherwise: 5 MiB. */
  maxAnswerBytes?: number;
  onAttempt?: (log: AttemptLog) => void;
  onError?: (error: ServiceError, path: string) => void;
  onKeySwitch?: (key: KeyName, fromIndex: number, toIndex: number) => void;
  onKeyOutcome?: (outcome: KeyOutcome) => void;
};

/** A call of one endpoint of ENDPOINTS (./endpoints.ts): its `{name}` segments, query and body. */
export type RawRequest<E extends Endpoint = Endpoint> = {
  endpoint: E;
  params?: PathParams<E>;
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Required by an `idempotent` endpoint: the same key on every attempt. */
  idempotencyKey?: string;
  priority?: Priority;
  by?: Spender;
  lookup?: boolean;
  patient?: boolean;
  deadlineMs?: number;
};

/** A JSON endpoint's answer, checked against its schema. */
export type JsonAnswer<E extends JsonEndpoint> = {
  data: AnswerOf<E>;
  correlationId?: string;
  status: number;
  headers: ResponseHeaders;
};

export type RawResponse = { status: number; headers: ResponseHeaders; body: Uint8Array; correlationId?: string };

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

export function assertSafeBaseUrl(baseUrl: string): URL {
  const url = new URL(baseUrl);
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:" && LOOPBACK.test(url.hostname)) return url;
  throw new Error(`SERVICE_BASE_URL must be https (plain http is allowed only on loopback): ${url.origin}`);
}

export function createTransport(options: TransportOptions) {
  const base = assertSafeBaseUrl(options.baseUrl);
  const timeoutMs = options.timeoutMs ?? 12_000;
  const retryBaseMs = options.retryBaseMs ?? 1_000;
  const exchange = createHttpExchange(base);
  const keyring = createKeyring(options.keys);
  // Set by a 429: until then no request of this client is sent (nor takes a budget slot),
  // since the upstream has said the workspace's window is spent.
  let pausedUntil = 0;

  function urlFor(path: string, query: RawRequest["query"]): URL {
    const url = new URL(path.replace(/^\//, ""), base.href.endsWith("/") ? base.href : `${base.href}/`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null && value !== "") url.searchParams.set(name, String(value));
    }
    return url;
  }

  async function send(req: RawRequest): Promise<RawResponse> {
    const { endpoint } = req;
    const { method, scope, retry: retryKind } = endpoint;
    if (retryKind === "idempotent" && !req.idempotencyKey)
      throw new Error(`${method} ${endpoint.path} is sent only with an Idempotency-Key`);
    const deadline = Date.now() + (req.deadlineMs ?? options.deadlineMs ?? 30_000);
    const url = urlFor(pathOf(endpoint, req.params), req.query);
    const logPath = url.pathname;
    let lastError: ServiceError | undefined;
    const priority = req.priority ?? "interactive";
    const label = endpointLabel(endpoint);
    const onAttempt = (log: Omit<AttemptLog, "endpoint">) => options.onAttempt?.({ ...log, endpoint: label, priority });
    if (!keyring.serves(scope)) {
      // Before the budget: a call this process may not make costs nothing and is not retried.
      const error = new ServiceError({
        status: 0,
        code: "no_key_for_scope",
        message: `This process holds no key with the scope ${scope}.`,
        extra: { scope },
      });
      options.onError?.(error, logPath);
      throw error;
    }

    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      if (pausedUntil > Date.now() && !(await pause(pausedUntil - Date.now(), deadline))) {
        lastError ??= new ServiceError({
          status: 429,
          code: "rate_limited",
          message: "The Issuing Service asked to wait before the next request.",
          extra: { retryAfterMs: pausedUntil - Date.now() },
        });
        break;
      }
      try {
        await options.budget.acquire({ priority, by: req.by, lookup: req.lookup, patient: req.patient }, deadline);
      } catch (error) {
        // Not the upstream's business nor the budget's: the caller is refused, and says so itself.
        if (error instanceof BudgetRefusal && error.reason === "session") throw error;
        const share = error instanceof BudgetRefusal && error.reason === "share";
        lastError = new ServiceError({
          status: 0,
          code: share ? "share_exceeded" : "budget_exhausted",
          message: share
            ? "This person's share of the upstream request budget for this minute is used up."
            : "The upstream request budget for this minute is used up.",
          extra: { retryAfterMs: error instanceof BudgetRefusal ? error.retryAfterMs : 60_000 },
        });
        break;
      }
      const started = Date.now();
      const choice: KeyChoice = keyring.choose(scope)!;
      const key = choice.key;
      let response: ExchangeResponse;
      try {
        response = await exchange(url, {
          method,
          timeoutMs: Math.min(timeoutMs, Math.max(1, deadline - Date.now())),
          headers: {
            "X-Api-Key": key,
            Accept: "application/json",
            ...(req.body !== undefined ? { "Content-Type": "application/json" } : {}),
            ...(req.idempotencyKey ? { "Idempotency-Key": req.idempotencyKey } : {}),
            ...req.headers,
          },
          body: req.body !== undefined ? JSON.stringify(req.body) : undefined,
          maxBytes: endpoint.maxAnswerBytes ?? options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
        });
      } catch (error) {
        if (error instanceof ExchangeTooLargeError) {
          // Not retried: the same request would get the same answer, and read as far as the cap again.
          lastError = new ServiceError({
            status: 502,
            code: "malformed_response",
            message: `The Issuing Service sent an answer larger than ${error.maxBytes} bytes for ${logPath}.`,
          });
          onAttempt({
            method,
            path: logPath,
            attempt,
            code: lastError.code,
            durationMs: Date.now() - started,
            outcome: "error",
          });
          break;
        }
        const transport = error instanceof ExchangeTimeoutError ? "timeout" : "network_error";
        lastError = new ServiceError({
          status: 0,
          code: transport,
          message:
            transport === "timeout" ? "The Issuing Service did not answer in time." : "The Issuing Service could not be reached.",
        });
        const retry = shouldRetry(retryKind, { transport }) && attempt < MAX_ATTEMPTS;
        onAttempt({
          method,
          path: logPath,
          attempt,
          code: transport,
          durationMs: Date.now() - started,
          outcome: retry ? "retry" : "error",
        });
        if (!retry) break;
        if (!(await pause(backoffMs(attempt, retryBaseMs), deadline))) break;
        continue;
      }

      const { body } = response;
      const correlationId = response.headers.get("x-correlation-id") ?? undefined;
      const keyOutcome = (outcome: KeyOutcome["outcome"], message?: string) =>
        options.onKeyOutcome?.({ key: choice.name, lookup: keyLookupSegment(key), scope, outcome, message, correlationId });
      if (response.status !== 401 && response.status !== 403) keyOutcome("ok");
      if (response.status < 400) {
        onAttempt({
          method,
          path: logPath,
          attempt,
          status: response.status,
          correlationId,
          durationMs: Date.now() - started,
          outcome: "ok",
        });
        return { status: response.status, headers: response.headers, body, correlationId };
      }

      const error = problemError(response.status, body, correlationId);
      lastError = error;
      if (response.status === 401 || response.status === 403)
        keyOutcome(response.status === 401 ? "unauthorized" : "forbidden", error.message);
      if (response.status === 401 || response.status === 403) Object.assign(error.extra, { key: choice.name, scope });
      const rotation = response.status === 401 ? keyring.rotate(choice) : "none";
      if (rotation !== "none") {
        if (rotation === "switched") options.onKeySwitch?.(choice.name, choice.index, choice.index + 1);
        onAttempt({
          method,
          path: logPath,
          attempt,
          status: 401,
          code: error.code,
          correlationId: error.correlationId,
          durationMs: Date.now() - started,
          outcome: "retry",
        });
        attempt -= 1; // a key switch is not a failed attempt
        continue;
      }
      if (response.status === 429)
        pausedUntil = Math.max(pausedUntil, Date.now() + retryAfterMs(response.headers.get("retry-after")));
      const retry = shouldRetry(retryKind, { status: response.status }) && attempt < MAX_ATTEMPTS;
      onAttempt({
        method,
        path: logPath,
        attempt,
        status: response.status,
        code: error.code,
        correlationId: error.correlationId,
        durationMs: Date.now() - started,
        outcome: retry ? "retry" : "error",
      });
      if (!retry) break;
      const delay = response.status === 429 ? retryAfterMs(response.headers.get("retry-after")) : backoffMs(attempt, retryBaseMs);
      if (!(await pause(delay, deadline))) break;
    }

    const error =
      lastError ??
      new ServiceError({
        status: 0,
        code: "deadline_exceeded",
        message: "The Issuing Service did not answer before the deadline.",
      });
    options.onError?.(error, logPath);
    throw error;
  }

  async function request<E extends JsonEndpoint>(req: RawRequest<E>): Promise<JsonAnswer<E>> {
    const res = await send(req);
    const path = pathOf(req.endpoint, req.params);
    let json: unknown;
    try {
      json = res.body.length ? JSON.parse(new TextDecoder().decode(res.body)) : undefined;
    } catch {
      throw malformed(res, path, "a body that is not JSON", options);
    }
    const parsed = (req.endpoint.answer as z.ZodType<AnswerOf<E>>).safeParse(json);
    if (!parsed.success) {
      const where = parsed.error.issues[0]?.path.join(".") || "(root)";
      throw malformed(res, path, `an unexpected shape at ${where}`, options);
    }
    return { data: parsed.data, correlationId: res.correlationId, status: res.status, headers: res.headers };
  }

  return {
    send,
    request,
    /** The configured keys by their public lookup segments (never a secret), for key health. */
    keys: () => keyring.describe(),
    /** Whether this process holds a key that serves `scope` (a payout key, say). */
    serves: (scope: Scope) => keyring.serves(scope),
    baseUrl: base.origin + base.pathname.replace(/\/$/, ""),
  };
}

export type Transport = ReturnType<typeof createTransport>;

function problemError(status: number, body: Uint8Array, headerCorrelationId?: string): ServiceError {
  let parsed: z.infer<typeof problemSchema> = {};
  try {
    const result = problemSchema.safeParse(JSON.parse(new TextDecoder().decode(body)));
    if (result.success) parsed = result.data;
  } catch {
    // Not a problem document: keep the status-derived code.
  }
  const errors = parsed.errors
    ? Object.fromEntries(Object.entries(parsed.errors).map(([k, v]) => [k, Array.isArray(v) ? v : [v]]))
    : undefined;
  const extra: Record<string, unknown> = {};
  if (parsed.quotedTotal !== undefined) extra.quotedTotal = parsed.quotedTotal;
  return new ServiceError({
    status,
    code: parsed.code ?? defaultCodeFor(status),
    message: parsed.detail ?? parsed.title ?? `The Issuing Service answered ${status}.`,
    correlationId: parsed.correlationId ?? headerCorrelationId,
    errors,
    extra,
  });
}

function malformed(res: RawResponse, path: string, what: string, options: TransportOptions): ServiceError {
  const error = new ServiceError({
    status: 502,
    code: "malformed_response",
    message: `The Issuing Service sent ${what} for ${path}.`,
    correlationId: res.correlationId,
  });
  options.onError?.(error, path);
  return error;
}

/** Sleeps unless that would pass the deadline; false means "give up now". */
async function pause(ms: number, deadline: number): Promise<boolean> {
  if (Date.now() + ms >= deadline) return false;
  await new Promise((resolve) => setTimeout(resolve, ms));
  return true;
}
