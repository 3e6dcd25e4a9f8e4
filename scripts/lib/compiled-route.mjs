/**
 * What the app server (scripts/serve-app.mjs) needs to answer a request ahead of Next with the
 * app's own compiled code: an export of a route module from the production build, and the
 * writing of the plain answer such an export gives back. Shared by the webhook door
 * (webhook-door.mjs) and the request gate (request-gate.mjs).
 */
import { createRequire } from "node:module";
import path from "node:path";
import { SECURITY_HEADERS } from "../security-headers.mjs";

const SECURITY = Object.fromEntries(SECURITY_HEADERS.map(({ key, value }) => [key.toLowerCase(), value]));

/**
 * The export `name` of the compiled route at `route` (e.g. "api/webhooks/service") in the
 * production build in `dir` (`next build`'s output), loaded as Next loads the route. Throws
 * when there is no such build or the route has no such function.
 * @param {string} dir
 * @param {string} route
 * @param {string} name
 * @returns {Promise<Function>}
 */
export async function loadRouteExport(dir, route, name) {
  const require = createRequire(import.meta.url);
  const { routeModule } = require(path.join(dir, ".next/server/app", route, "route.js"));
  await routeModule.ensureUserland();
  const found = routeModule.userland[name];
  if (typeof found !== "function") throw new Error(`the compiled route ${route} exports no ${name}`);
  return found;
}

/**
 * Writes a plain answer (lib/http/problem.ts's `PlainAnswer`) with the headers Next would add
 * (next.config.mjs's security headers) and the given Content-Security-Policy; the answer's own
 * headers come last. Nothing, if the client is already gone.
 * @param {import("node:http").ServerResponse} res
 * @param {{ status: number; headers: Record<string, string>; body: string }} answer
 * @param {string} policy
 */
export function sendPlainAnswer(res, answer, policy) {
  if (res.destroyed) return;
  const body = Buffer.from(answer.body);
  res.writeHead(answer.status, {
    ...SECURITY,
    "content-security-policy": policy,
    ...answer.headers,
    "content-length": body.length,
  });
  res.end(body);
}
