import { orderRoutes } from "./api/orders";
import { productRoutes } from "./api/products";
import { walletRoutes } from "./api/wallet";
import { withdrawalRoutes } from "./api/withdrawals";
import type { ApiRoute } from "./api/context";
import { normalizeIp } from "./cidr";
import type { PlaneHandler } from "./context";
import { rollFaults } from "./faults";
import { parseJsonBody, readBody } from "./http/body";
import { sendReply } from "./http/reply";
import { matchRoute, splitPath } from "./http/router";
import { authenticate, requireScope } from "./keys";
import { notFound, SandboxError } from "./problem";
import { takeRequest } from "./rate-limit";
import { pushBounded } from "./state";

// The /api/v1 pipeline, in the order the issue fixes: key (401) and source address (403) first, then the
// route (404/405) and its scope (403), then the rate limit (429), injected faults, the body, the door.

const MAX_CALLS_KEPT = 10_000;

const ROUTES: ApiRoute[] = [...productRoutes, ...orderRoutes, ...walletRoutes, ...withdrawalRoutes];

export const handlePublicApi: PlaneHandler = async (sb, req, res, url, correlationId) => {
  const method = req.method ?? "GET";
  const match = matchRoute(ROUTES, method, splitPath(url.pathname));
  const auth = authenticate(sb, req.headers["x-api-key"], normalizeIp(req.socket.remoteAddress));
  if (!("route" in match)) {
    if (match.allowed.length === 0) throw notFound(`There is no endpoint ${url.pathname}.`);
    throw new SandboxError({
      status: 405,
      code: "method_not_allowed",
      detail: `${method} is not supported on ${url.pathname}.`,
      headers: { Allow: match.allowed.join(", ") },
    });
  }
  const endpoint = match.route.handler;
  pushBounded(
    sb.calls,
    {
      atMs: sb.clock.now(),
      keyId: auth.key.id,
      method,
      path: url.pathname,
      scope: endpoint.scope,
      allowed: auth.key.scopes.includes(endpoint.scope),
    },
    MAX_CALLS_KEPT,
  );
  requireScope(auth.key, endpoint.scope);
  takeRequest(sb, auth.workspace);
  const faults = sb.settings.faults;
  const roll = rollFaults(faults, method, url.pathname);
  if (roll.latencyMs > 0) await sb.timers.sleep(roll.latencyMs);
  if (roll.error)
    throw new SandboxError({
      status: 503,
      code: "service_unavailable",
      detail: "Injected fault: the service is temporarily unavailable.",
    });
  if (roll.rateLimited) {
    sb.counters.rateLimited += 1;
    throw new SandboxError({
      status: 429,
      code: "rate_limited",
      detail: "Injected fault: the workspace is over its request limit.",
      extra: { retryAfterSeconds: faults.retryAfterSeconds },
      headers: { "Retry-After": String(faults.retryAfterSeconds) },
    });
  }
  if (roll.timeout) {
    await sb.timers.sleep(faults.timeoutMs);
    throw new SandboxError({
      status: 504,
      code: "gateway_timeout",
      detail: "Injected fault: the request timed out and was not processed.",
    });
  }
  let body: unknown;
  if (endpoint.readsBody) body = parseJsonBody(await readBody(req, sb.settings.maxBodyBytes), req.headers["content-type"]);
  else req.resume();
  const reply = endpoint.handle({
    sb,
    auth,
    params: match.params,
    query: url.searchParams,
    headers: req.headers,
    body,
    correlationId,
  });
  if (roll.drop) {
    // The request is committed; the caller just never hears about it.
    req.socket.destroy();
    return;
  }
  sendReply(res, reply);
};
