import { randomUUID } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { buildCatalog } from "./catalog";
import { createClock } from "./clock";
import type { Sandbox, Settings } from "./context";
import { handleControl } from "./control";
import { registerEndpoint } from "./control/webhooks";
import { noFaults } from "./faults";
import { sendProblem } from "./http/reply";
import { issueKey } from "./keys";
import { parseAmount } from "./money";
import { resumeFulfilment, scheduleFulfilment } from "./order-lifecycle";
import { createPersister, loadState } from "./persist";
import { asProblem, invalidRequest, notFound, problemBody, SandboxError } from "./problem";
import { handlePublicApi } from "./public-api";
import { createState, DEFAULT_WORKSPACE, SCOPES, workspaceFor, type State } from "./state";
import { createTimers } from "./timers";
import { credit } from "./wallet";
import { emitEvent, newWebhookSecret, resumeDeliveries } from "./webhooks";

export type SandboxOptions = {
  port?: number; // 0 = a random free port
  host?: string;
  apiKey?: string; // a full-scope key to accept (svckey_<lookup>_<secret>); generated when absent
  webhookUrl?: string; // registered for the default workspace at start
  webhookSecret?: string; // that endpoint's secret, and the default for endpoints registered without one
  seed?: string;
  wallet?: Record<string, number>; // opening available balances of a fresh state, e.g. {USD: 5000}
  stateFile?: string;
  quoteTtlSeconds?: number;
  rateLimitPerMinute?: number;
  webhookRetryScale?: number;
  webhookTimeoutMs?: number;
  fulfilmentDelayMs?: number | null; // null = random 1–3 s
  fulfilmentFailRate?: number;
  maxBodyBytes?: number;
  tls?: { key: string | Buffer; cert: string | Buffer };
  log?: (line: string) => void;
};

export type RunningSandbox = { baseUrl: string; apiKey: string; webhookSecret: string; close(): Promise<void> };

export const DEFAULT_WALLET: Record<string, number> = { USD: 10_000, EUR: 5_000, GBP: 5_000 };

function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopbackHost(host) && !options.tls)
    throw new Error(`refusing to serve plain HTTP on ${host}: binding a non-loopback address needs a TLS key and certificate`);
  const log = options.log ?? ((line: string) => process.stderr.write(`[sandbox] ${line}\n`));
  const loaded = options.stateFile ? loadState(options.stateFile) : null;
  const state: State = loaded ?? createState(options.webhookSecret ?? newWebhookSecret());
  if (options.webhookSecret) state.defaultWebhookSecret = options.webhookSecret;
  if (!loaded) openWallet(state, options.wallet ?? DEFAULT_WALLET);

  const settings: Settings = {
    rateLimitPerMinute: options.rateLimitPerMinute ?? 120,
    quoteTtlSeconds: options.quoteTtlSeconds ?? 300,
    webhookRetryScale: options.webhookRetryScale ?? 1,
    webhookTimeoutMs: options.webhookTimeoutMs ?? 5_000,
    maxBodyBytes: options.maxBodyBytes ?? 64 * 1024,
    fulfilment: { mode: "auto", delayMs: options.fulfilmentDelayMs ?? null, failRate: options.fulfilmentFailRate ?? 0 },
    faults: noFaults(),
  };
  const persister = createPersister(options.stateFile, state, log);
  const shutdown = new AbortController();
  const sb: Sandbox = {
    state,
    catalog: buildCatalog(options.seed ?? "1"),
    settings,
    clock: createClock(state),
    timers: createTimers((error) => log(`background step failed: ${String(error)}`)),
    shutdown: shutdown.signal,
    changed: persister.changed,
    emit: (workspaceId, type, data) => emitEvent(sb, workspaceId, type, data),
    onOrderCreated: (workspaceId, orderId) => scheduleFulfilment(sb, workspaceId, orderId),
    log,
    counters: { rateLimited: 0, windows: new Map() },
    calls: [],
  };

  const { plaintext: apiKey } = issueKey(
    state,
    { workspaceId: DEFAULT_WORKSPACE, scopes: [...SCOPES], allowCidrs: [], expiresAtMs: null, label: "bootstrap" },
    sb.clock.now(),
    options.apiKey,
  );
  let webhookSecret = state.defaultWebhookSecret;
  if (options.webhookUrl) {
    webhookSecret = registerEndpoint(state.endpoints, {
      workspaceId: DEFAULT_WORKSPACE,
      url: options.webhookUrl,
      secret: webhookSecret,
      eventTypes: null,
      now: sb.clock.now(),
    }).secret;
  }
  persister.changed();
  resumeFulfilment(sb);
  resumeDeliveries(sb);

  const handler = (req: IncomingMessage, res: ServerResponse) => void handleRequest(sb, req, res);
  const server: Server = options.tls
    ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, handler)
    : createHttpServer(handler);
  server.requestTimeout = 60_000;
  server.headersTimeout = 20_000;
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => answerMalformed(error, socket));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 4010, host, () => resolve());
  });
  const address = server.address() as AddressInfo; // a TCP listener always reports an AddressInfo
  const urlHost = address.family === "IPv6" || address.address.includes(":") ? `[${address.address}]` : address.address;
  const baseUrl = `${options.tls ? "https" : "http"}://${urlHost}:${address.port}`;

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      shutdown.abort();
      sb.timers.clearAll();
      server.close(() => resolve());
      server.closeAllConnections();
      try {
        persister.flushSync();
      } catch (error) {
        log(`could not persist state on close: ${String(error)}`);
      }
    });
    return closing;
  };
  return { baseUrl, apiKey, webhookSecret, close };
}

function openWallet(state: State, wallet: Record<string, number>): void {
  const ws = workspaceFor(state, DEFAULT_WORKSPACE);
  for (const [currency, amount] of Object.entries(wallet)) {
    const cents = parseAmount(amount);
    if (typeof cents === "string" || cents < 0) throw new Error(`invalid opening balance for ${currency}: ${cents}`);
    credit(ws, currency, cents, Date.now());
  }
}

async function handleRequest(sb: Sandbox, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const correlationId = randomUUID();
  res.setHeader("X-Correlation-Id", correlationId);
  try {
    const url = parseRequestUrl(req.url);
    if (url.pathname === "/_sandbox" || url.pathname.startsWith("/_sandbox/"))
      await handleControl(sb, req, res, url, correlationId);
    else if (url.pathname === "/api/v1" || url.pathname.startsWith("/api/v1/"))
      await handlePublicApi(sb, req, res, url, correlationId);
    else throw notFound(`There is nothing at ${url.pathname}; the API lives under /api/v1.`);
  } catch (error) {
    if (!(error instanceof SandboxError))
      sb.log(`unexpected error on ${req.method} ${req.url}: ${error instanceof Error ? error.stack : String(error)}`);
    if (!res.headersSent && !res.destroyed) sendProblem(res, asProblem(error), correlationId);
  }
}

// Node rejects unparseable HTTP itself; answer it as a problem document too, correlation id included.
function answerMalformed(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const correlationId = randomUUID();
  const body = JSON.stringify(
    problemBody({ status: 400, code: "invalid_request", detail: "The request is not valid HTTP/1.1." }, correlationId),
  );
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json\r\nX-Correlation-Id: ${correlationId}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function parseRequestUrl(raw: string | undefined): URL {
  try {
    const text = raw ?? "/";
    return text.startsWith("/") ? new URL(`http://sandbox.invalid${text}`) : new URL(text);
  } catch {
    throw invalidRequest("The request target is not a valid URL.");
  }
}
