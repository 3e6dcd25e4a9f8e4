import http from "node:http";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

/**
 * The app's edge (lib/edge/serve.ts: target, peer address, policy, request gate, compression)
 * as the app server runs it ahead of Next in production and dev mode alike, behind a real
 * local server whose "Next" answers 200 and echoes what reached it. The e2e suite (fuzz.spec.ts,
 * sign-in specs, webhook-door.spec.ts) checks the same answers against the whole app; this pins
 * the edge's part: which requests it judges, what reaches Next, and what a client cannot choose.
 */
const SECRET = "unit-test-secret-0123456789abcdefghijklmnopqrstuv";
const ROOT = path.resolve(import.meta.dirname, "../..");

let server: http.Server;
let port: number;
let cookie: string;

beforeAll(async () => {
  // lib/env reads these on first use.
  Object.assign(process.env, {
    DATABASE_URL: "postgresql://localhost/unused",
    AUTH_SECRET: SECRET,
    APP_URL: "http://localhost:3000",
  });
  const { createEdge } = await import("@/lib/edge/serve");
  const edge = createEdge({ dev: false, dir: ROOT });
  server = http.createServer((req, res) =>
    edge(req, res, async () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          reached: true,
          url: req.url,
          peer: req.headers["x-backoffice-peer-address"],
          policy: req.headers["content-security-policy"],
        }),
      );
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  const token = await encode({ token: { sid: "sess_1", sub: "staff_1" }, secret: SECRET, maxAge: 3600 });
  cookie = `next-auth.session-token=${token}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function get(path: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  // node:http with the path as given: fetch, or a URL, would clean up the raw paths these tests send.
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const options = { host: "127.0.0.1", port, path, method: init.method ?? "GET", headers: init.headers };
    const req = http.request(options, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** One request written on a socket as given: the request targets below are ones no HTTP client sends. */
async function raw(requestLine: string, headers: Record<string, string> = {}) {
  const head = [requestLine, "Host: 127.0.0.1", "Connection: close", ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  const text = await new Promise<string>((resolve, reject) => {
    // Written, not ended: node:http drops a connection whose client half-closed before the answer was ready.
    const socket = net.connect(port, "127.0.0.1", () => socket.write(`${head.join("\r\n")}\r\n\r\n`));
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (received += chunk));
    socket.on("end", () => resolve(received));
    socket.on("error", reject);
  });
  const [top = "", body = ""] = text.split("\r\n\r\n");
  const [statusLine = "", ...lines] = top.split("\r\n");
  const found = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
  );
  return { status: Number(statusLine.split(" ")[1]), headers: found, body: found["transfer-encoding"] ? unchunk(body) : body };
}

function unchunk(body: string): string {
  let out = "";
  for (let at = 0, size = 0; (size = parseInt(body.slice(at), 16)) > 0; at = body.indexOf("\r\n", at) + 2 + size + 2)
    out += body.substr(body.indexOf("\r\n", at) + 2, size);
  return out;
}

describe("the edge ahead of Next", () => {
  test("a signed-in request reaches Next with the socket's peer address and a fresh policy, which the response carries too", async () => {
    const res = await get("/orders?status=failed", { headers: { cookie, "x-backoffice-peer-address": "203.0.113.9" } });
    expect(res.status).toBe(200);
    const reached = JSON.parse(res.body);
    expect(reached).toMatchObject({ reached: true, url: "/orders?status=failed", peer: "127.0.0.1" });
    expect(reached.policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(res.headers["content-security-policy"]).toBe(reached.policy);
    const again = JSON.parse((await get("/orders", { headers: { cookie } })).body);
    expect(again.policy).not.toBe(reached.policy);
  });

  test("without a session cookie that verifies: 401 for the API, the sign-in page for a page", async () => {
    for (const headers of [{}, { cookie: "next-auth.session-token=forged" }] as Record<string, string>[]) {
      const api = await get("/api/orders", { headers });
      expect(api.status).toBe(401);
      expect(api.headers["content-type"]).toBe("application/problem+json");
      expect(JSON.parse(api.body)).toMatchObject({ code: "unauthenticated", status: 401 });
      expect(api.headers["content-security-policy"]).toMatch(/nonce-/);
      expect(api.headers["x-frame-options"]).toBe("DENY");

      const page = await get("/orders?status=failed&_rsc=abc", { headers });
      expect(page.status).toBe(307);
      // Next's router parameter is not part of where to come back to.
      expect(page.headers.location).toBe(`/signin?callbackUrl=${encodeURIComponent("/orders?status=failed")}`);
    }
  });

  test("the public doors need no session", async () => {
    expect(JSON.parse((await get("/api/health")).body)).toMatchObject({ reached: true });
    // Readiness: a load balancer's or orchestrator's probe has no session.
    expect(JSON.parse((await get("/api/health/ready")).body)).toMatchObject({ reached: true });
    expect((await get("/api/health/other")).status).toBe(401);
    expect((await get("/signin?callbackUrl=%00")).status).toBe(200); // the sign-in page judges its own query
    expect(JSON.parse((await get("/robots.txt")).body)).toMatchObject({ reached: true }); // "Disallow: /" for every crawler
    // A one-time link's pages and their uses: the token proves the visitor, not a session.
    const token = "A".repeat(43);
    for (const path of [`/signin/invitation/${token}`, `/signin/reset-password/${token}`])
      expect(JSON.parse((await get(path)).body), path).toMatchObject({ reached: true });
    for (const path of ["/api/invitations/acceptance", "/api/password-resets/completion"])
      expect(JSON.parse((await get(path, { method: "POST" })).body), path).toMatchObject({ reached: true });
    // Nothing beside or below them.
    expect((await get(`/signin/invitation/${token}/more`)).status).toBe(307);
    expect((await get("/signin/invitation")).status).toBe(307);
    expect((await get("/api/invitations/other", { method: "POST" })).status).toBe(401);
  });

  test("the address's text rule and a broken percent-encoding are 400s, signed in or not", async () => {
    const query = await get("/api/orders?reference=a%00b", { headers: { cookie } });
    expect(query.status).toBe(400);
    expect(JSON.parse(query.body)).toMatchObject({
      code: "invalid_request",
      errors: { reference: [expect.stringMatching(/U\+0000/)] },
    });
    const path = await get("/api/orders/%ff");
    expect(path.status).toBe(400);
    const page = await get("/orders?status=%0a", { headers: { cookie } });
    expect(page.status).toBe(400);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain("“status” parameter");
  });

  test("a Next-Router-State-Tree header Next cannot read is a 400 (a page saying so, or a problem document); one it can goes on", async () => {
    const tree = encodeURIComponent(
      JSON.stringify(["", { children: ["signin", { children: ["__PAGE__", {}] }] }, null, null, 1]),
    );
    const fine = await get("/signin?_rsc=abc", { headers: { rsc: "1", "next-router-state-tree": tree } });
    expect(JSON.parse(fine.body)).toMatchObject({ reached: true });
    const dynamic = encodeURIComponent(JSON.stringify(["", { children: [["id", "ord_1", "d", null], {}] }]));
    expect((await get("/orders/ord_1", { headers: { cookie, rsc: "1", "next-router-state-tree": dynamic } })).status).toBe(200);
    for (const broken of ["x", encodeURIComponent('["x"]'), "%ff", `${tree}, ${tree}`]) {
      const page = await get("/signin?_rsc=abc", { headers: { rsc: "1", "next-router-state-tree": broken } });
      expect(page.status, broken.slice(0, 40)).toBe(400);
      expect(page.headers["content-type"]).toContain("text/html");
      expect(page.body).toContain("Next-Router-State-Tree");
      const api = await get("/api/orders", { headers: { cookie, rsc: "1", "next-router-state-tree": broken } });
      expect(api.status).toBe(400);
      expect(JSON.parse(api.body)).toMatchObject({ code: "invalid_request", status: 400 });
    }
  });

  test("a method the route does not export is a 405 with Allow, from the route list read off app/api", async () => {
    const res = await get("/api/orders", { method: "DELETE", headers: { cookie } });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET, POST, HEAD, OPTIONS");
    expect(JSON.parse(res.body)).toMatchObject({ code: "method_not_allowed" });
  });

  test("a request target that names no path (asterisk-form, another scheme), or one Next would rewrite first, is a 400 problem document", async () => {
    for (const line of [
      "GET * HTTP/1.1",
      "OPTIONS * HTTP/1.1",
      "GET ftp://evil.example/ HTTP/1.1",
      "GET //orders HTTP/1.1",
      "GET /api\\orders HTTP/1.1",
      "GET http://evil.example//evil.example HTTP/1.1",
    ]) {
      for (const headers of [{}, { cookie }] as Record<string, string>[]) {
        const res = await raw(line, headers);
        expect(res.status, line).toBe(400);
        expect(res.headers["content-type"], line).toBe("application/problem+json");
        expect(res.headers["cache-control"], line).toBe("no-store");
        expect(JSON.parse(res.body), line).toMatchObject({ status: 400, code: "invalid_request" });
      }
    }
  });

  test("an absolute-form target is served by its path only: another origin in it is never reached", async () => {
    expect((await raw("GET http://evil.example/api/orders HTTP/1.1")).status).toBe(401);
    const signedIn = await raw("GET http://evil.example/api/orders?x=1 HTTP/1.1", { cookie });
    expect(JSON.parse(signedIn.body)).toMatchObject({ reached: true, url: "/api/orders?x=1" });
    expect(JSON.parse((await raw("GET HTTP://evil.example HTTP/1.1", { cookie })).body)).toMatchObject({
      reached: true,
      url: "/",
    });
    const page = await raw("GET https://evil.example/orders HTTP/1.1");
    expect(page.status).toBe(307);
    expect(page.headers.location).toBe(`/signin?callbackUrl=${encodeURIComponent("/orders")}`);
  });

  test("Next's static files and the favicon reach Next without a session", async () => {
    for (const path of ["/_next/static/chunks/x.js", "/favicon.ico"]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(JSON.parse(res.body), path).toMatchObject({ reached: true });
    }
  });
});
