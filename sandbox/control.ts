import { isLoopback, normalizeIp } from "./cidr";
import type { PlaneHandler } from "./context";
import { keyRoutes } from "./control/keys";
import { settingsRoutes } from "./control/settings";
import { simulationRoutes } from "./control/simulation";
import { stateRoutes } from "./control/state";
import { webhookRoutes } from "./control/webhooks";
import type { ControlRoute } from "./control/context";
import { parseJsonBody, readBody } from "./http/body";
import { sendReply } from "./http/reply";
import { matchRoute, route, splitPath } from "./http/router";
import { forbidden, notFound, SandboxError } from "./problem";

// /_sandbox/: the stand-in for the merchant dashboard and the outside world. Loopback clients only,
// no API key, and never subject to rate limits or injected faults.

const ROUTES: ControlRoute[] = [...keyRoutes, ...webhookRoutes, ...simulationRoutes, ...settingsRoutes, ...stateRoutes];
ROUTES.push(
  route("GET", "/_sandbox", () => ({ status: 200, json: { endpoints: ROUTES.map((r) => `${r.method} /${r.parts.join("/")}`) } })),
);

export const handleControl: PlaneHandler = async (sb, req, res, url, correlationId) => {
  if (!isLoopback(normalizeIp(req.socket.remoteAddress))) throw forbidden("The control plane answers loopback clients only.");
  const method = req.method ?? "GET";
  const match = matchRoute(ROUTES, method, splitPath(url.pathname));
  if (!("route" in match)) {
    if (match.allowed.length === 0) throw notFound(`There is no control endpoint ${url.pathname}.`);
    throw new SandboxError({
      status: 405,
      code: "method_not_allowed",
      detail: `${method} is not supported on ${url.pathname}.`,
      headers: { Allow: match.allowed.join(", ") },
    });
  }
  const body = parseJsonBody(await readBody(req, sb.settings.maxBodyBytes), req.headers["content-type"]);
  sendReply(res, match.route.handler({ sb, params: match.params, query: url.searchParams, body, correlationId }));
};
