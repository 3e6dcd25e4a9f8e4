import { readdirSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";
import { expect, test, request as playwrightRequest, type APIRequestContext, type Browser } from "@playwright/test";
import { discoverApiRoutes, type ApiRoute } from "../../scripts/discover-api-routes.mjs";
import { E2E_ORIGIN } from "../../playwright.config";
import { ROLES, signInAs, withDb } from "./helpers";
import {
  ASTERISK_METHODS,
  BODY,
  IMAGE_URLS,
  QUERY,
  ROUTER_HEADERS,
  absoluteFormTargets,
  badValues,
  pathSample,
} from "./fuzz-inputs";
import { cookieHeader, rawRequest, type RawAnswer } from "./raw-request";
import { sandboxApi } from "./sandbox";

/**
 * Every route handler under app/api (discovered, not listed), every method it exports plus
 * one it does not, as every role and with no session: broken paths, query strings, bodies,
 * content types and sizes. Every answer must be a complete 4xx problem document with
 * `Cache-Control: no-store`, and no table may gain or lose a row.
 */

type Case = {
  label: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  expect: "refused" | "no-error";
  door?: boolean;
};
type Who = { name: string; api: APIRequestContext };

const ALL_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const BOGUS_METHOD_BODY = "{}";
const CONCURRENCY = 6;
const retried: string[] = [];

// next-auth's own endpoints take form posts and answer with redirects by design; only the
// address and method cases (which the app answers before next-auth runs) apply to them.
const NOT_JSON = new Set(["/api/auth/[...nextauth]"]);

/** Query values through encodeURIComponent; a lone surrogate cannot be UTF-8, so it is sent as the raw bytes a client could send. */
function encode(value: string): string {
  return value
    .replace(/[\uD800-\uDFFF]/g, "\uFFFF")
    .split("\uFFFF")
    .map(encodeURIComponent)
    .join("%ED%A0%80");
}

function fillPath(pattern: string, override?: { param: string; raw: string }): string {
  return pattern.replace(/\[(\.\.\.)?([^\]]+)\]/g, (_m, dots: string | undefined, name: string) => {
    const param = `${dots ?? ""}${name}`;
    return override && override.param === param
      ? override.raw
      : pathSample(pattern, param).split("/").map(encodeURIComponent).join("/");
  });
}

function queryString(fields: Record<string, string>): string {
  const parts = Object.entries(fields).map(([k, v]) => `${encode(k)}=${encode(v)}`);
  return parts.length ? `?${parts.join("&")}` : "";
}

function setPath(sample: Record<string, unknown>, dotted: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(sample);
  const keys = dotted.split(".");
  let at = copy;
  for (const key of keys.slice(0, -1)) at = at[key] as Record<string, unknown>;
  at[keys[keys.length - 1]!] = value;
  return copy;
}

const JSON_HEADERS = { "content-type": "application/json" };

/** The cases for one route and method: the same for every role. */
function casesFor(route: ApiRoute, method: string): Case[] {
  const cases: Case[] = [];
  const key = `${method} ${route.pattern}`;
  const body = BODY[key];
  const sampleBody = body ? JSON.stringify(body.sample) : method === "GET" ? undefined : "{}";
  const sampleQuery = Object.fromEntries(Object.entries(QUERY[route.pattern] ?? {}).map(([k, [v]]) => [k, v]));
  const base = fillPath(route.pattern);
  const hasBody = method !== "GET";
  const add = (label: string, c: Omit<Case, "label" | "method" | "expect"> & { expect?: Case["expect"] }) =>
    cases.push({
      label,
      method,
      expect: "refused",
      ...c,
      headers: { ...(hasBody && c.body !== undefined ? JSON_HEADERS : {}), ...c.headers },
    });
  // The cases sent as well to an identity the route refuses (no session, no permission): its door must hold for them too.
  const door = (label: string, c: Omit<Case, "label" | "method" | "expect">) => {
    add(label, c);
    cases[cases.length - 1]!.door = true;
  };

  // Path parameters: control characters, broken Unicode, overlong.
  for (const [, dots, name] of route.pattern.matchAll(/\[(\.\.\.)?([^\]]+)\]/g)) {
    const param = `${dots ?? ""}${name}`;
    for (const [label, raw] of [
      ["NUL", "a%00b"],
      ["C0", "%01"],
      ["line break", "a%0Ab"],
      ["lone surrogate", "%ED%A0%80"],
      ["overlong", "a".repeat(3000)],
    ] as const) {
      (label === "NUL" ? door : add)(`path ${param}: ${label}`, {
        path: fillPath(route.pattern, { param, raw }),
        body: sampleBody,
      });
    }
  }
  // Query parameters: a NUL in an unknown name and value is refused for every route; each known one broken by its kind.
  add("query: NUL in a parameter name", { path: `${base}?a%00b=1`, body: sampleBody });
  door("query: NUL in a value", { path: `${base}?fuzz=%00`, body: sampleBody });
  add("query: line break in a value", { path: `${base}?fuzz=a%0D%0Ab`, body: sampleBody });
  if (method === "GET") {
    for (const [field, [, kind]] of Object.entries(QUERY[route.pattern] ?? {})) {
      for (const bad of badValues(kind, "query")) {
        add(`query ${field}=${JSON.stringify(String(bad)).slice(0, 30)}`, {
          path: `${base}${queryString({ ...sampleQuery, [field]: String(bad) })}`,
        });
      }
      // A lone surrogate cannot travel in a URL: its bytes arrive as U+FFFD, which is valid text. Only "no error" is asked.
      add(`query ${field}: surrogate bytes`, {
        path: `${base}${queryString({ ...sampleQuery, [field]: "x\ud800" })}`,
        expect: "no-error",
      });
    }
  }
  if (hasBody && !NOT_JSON.has(route.pattern)) {
    const limit = body?.maxBytes ?? 64 * 1024;
    door("body: malformed JSON", { path: base, body: '{"a":' });
    door("body: wrong content type", { path: base, body: sampleBody ?? "{}", headers: { "content-type": "text/plain" } });
    add("body: form content type", { path: base, body: "a=1", headers: { "content-type": "application/x-www-form-urlencoded" } });
    add("body: over the limit", { path: base, body: JSON.stringify({ pad: "x".repeat(limit + 1024) }) });
    for (const top of ["[]", '"text"', "123", "null"]) add(`body: top-level ${top}`, { path: base, body: top });
    add("body: NUL in a field name", { path: base, body: JSON.stringify({ ...(body?.sample ?? {}), "a\u0000": 1 }) });
    add("body: NUL in an unknown field", { path: base, body: JSON.stringify({ ...(body?.sample ?? {}), extra: "\u0000" }) });
    // A field the route does not know is refused, never dropped in silence (a typo would save nothing and say "Saved").
    if (body) add("body: an unknown field", { path: base, body: JSON.stringify({ ...body.sample, fuzzUnknownField: 1 }) });
    for (const [field, kind] of Object.entries(body?.kinds ?? {})) {
      for (const bad of badValues(kind, "body")) {
        add(`body ${field}=${JSON.stringify(bad)?.slice(0, 30)}`, {
          path: base,
          body: JSON.stringify(setPath(body!.sample, field, bad)),
        });
      }
    }
  }
  return cases;
}

/** Row counts of every table in the app's schema (pg-boss keeps its own schema, "pgboss", which is not counted). */
async function rowCounts(): Promise<Record<string, number>> {
  return withDb(async (db) => {
    const tables = await db.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables.rows)
      counts[name] = Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM "${name}"`)).rows[0]!.n);
    // RateBudget gains a row per minute window in which anything (the worker's own polling
    // included) called the upstream: it moves with the clock, not with these requests.
    delete counts.RateBudget;
    // ServiceStatus is the one row of the upstream's last-seen health, created by the first
    // upstream error ever (here: a deposits cursor the app cannot judge, passed on and refused
    // upstream with a 400, which the app answers as a 400 too).
    delete counts.ServiceStatus;
    // BalanceRead records what the upstream's balance was when a page last read it (at most one
    // row per currency every five minutes, for the wallet chart): it moves with the clock too.
    delete counts.BalanceRead;
    // UpstreamCallMinute counts upstream calls per minute, priority and outcome (the admin's
    // budget chart): a row per minute in which anything called, so it moves with the clock too.
    delete counts.UpstreamCallMinute;
    // SharedReadCache holds catalog answers any read fills (shared by the app's processes): a cache, not data.
    delete counts.SharedReadCache;
    // ProductImage keeps the pictures catalog answers name, fetched by the worker after any catalog read: a cache too.
    delete counts.ProductImage;
    // The catalog watch records what any catalog answer showed (a product first seen, a price seen
    // to differ): a record of the upstream's catalog, like the cache. What people watch (CatalogWatch) stays counted.
    delete counts.CatalogProductState;
    delete counts.CatalogPricePoint;
    delete counts.CatalogChange;
    // WalletReconciliation gains a row per currency when the worker's daily job reconciles a day,
    // at 00:05 UTC or catching up at its start (which can fall in this run): it moves with the clock too.
    delete counts.WalletReconciliation;
    // UpstreamSpend is the budget's count per person and minute, like RateBudget; a person past
    // their share of a minute is audited once for that minute (upstream.share_exceeded), which is
    // the budget's record of a request refused with 429, not a change these requests made.
    delete counts.UpstreamSpend;
    // WorkerHeartbeat is a row per worker process, beaten every 5 s: it moves with the clock too.
    delete counts.WorkerHeartbeat;
    counts.AuditEvent = Number(
      (await db.query<{ n: string }>(`SELECT count(*) AS n FROM "AuditEvent" WHERE action <> 'upstream.share_exceeded'`)).rows[0]!
        .n,
    );
    return counts;
  });
}

/** Opens every upstream order the mirror lacks through the app (lookup on demand mirrors it). */
async function mirrorEveryUpstreamOrder(api: APIRequestContext): Promise<void> {
  const mirrored = new Set(
    await withDb(async (db) => (await db.query<{ id: string }>(`SELECT id FROM "Order"`)).rows.map((r) => r.id)),
  );
  let cursor: string | null = null;
  do {
    const page: { items: { id: string }[]; nextCursor?: string | null; hasMore?: boolean } = await sandboxApi(
      `/orders?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    for (const { id } of page.items) {
      if (mirrored.has(id)) continue;
      let res = await api.get(`/api/orders/${encodeURIComponent(id)}`);
      // Past this person's lookups of the minute, wait as the answer says (a person would too).
      while (res.status() === 429) {
        await new Promise((r) => setTimeout(r, Number(res.headers()["retry-after"] ?? 5) * 1000));
        res = await api.get(`/api/orders/${encodeURIComponent(id)}`);
      }
      expect(res.status(), `opening upstream order ${id}`).toBe(200);
    }
    cursor = page.hasMore ? (page.nextCursor ?? null) : null;
  } while (cursor);
}

/** Waits until background work left over from earlier specs (webhook deliveries, the worker) has settled. */
async function settledRowCounts(): Promise<Record<string, number>> {
  let last = await rowCounts();
  for (let i = 0; i < 30; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = await rowCounts();
    if (JSON.stringify(now) === JSON.stringify(last)) return now;
    last = now;
  }
  return last;
}

async function signedIn(browser: Browser, role: (typeof ROLES)[number]): Promise<Who> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, role);
  const state = await context.storageState();
  await context.close();
  return {
    name: role,
    api: await playwrightRequest.newContext({
      baseURL: E2E_ORIGIN,
      storageState: state,
      extraHTTPHeaders: { origin: E2E_ORIGIN },
    }),
  };
}

type Answer = { failure: string | null; status?: number; headers?: Record<string, string> };

async function check(who: Who, c: Case): Promise<string | null> {
  return (await answer(who, c)).failure;
}

async function answer(who: Who, c: Case): Promise<Answer> {
  const where = `${who.name} ${c.method} ${c.path.slice(0, 120)} [${c.label}]`;
  const send = () =>
    who.api.fetch(c.path, { method: c.method, headers: c.headers, data: c.body, maxRedirects: 0, timeout: 30_000 });
  let res;
  try {
    res = await send().catch((error: unknown) => {
      // No answer at all (not a byte): Node closes an idle keep-alive socket after 5 s and the
      // client may reuse it at that very moment. Sent once more; a second miss is a failure.
      // A cut *answer* (a status, then a broken body) is never retried.
      retried.push(`${where}: ${String(error).split("\n")[0]}`);
      return send();
    });
  } catch (error) {
    return { failure: `${where}: no answer (${error instanceof Error ? error.message.split("\n")[0] : String(error)})` };
  }
  let body: Buffer;
  try {
    body = await res.body(); // a cut connection fails here
  } catch (error) {
    return { failure: `${where}: ${res.status()} then the connection was cut (${String(error).split("\n")[0]})` };
  }
  const status = res.status();
  const headers = res.headers();
  const verdict = (failure: string | null): Answer => ({ failure, status, headers });
  if (status >= 500) return verdict(`${where}: ${status} ${body.toString("utf8").slice(0, 200)}`);
  if (c.expect === "no-error") return verdict(null);
  if (status < 400) return verdict(`${where}: accepted with ${status}`);
  if (!headers["content-type"]?.startsWith("application/problem+json"))
    return verdict(`${where}: ${status} is not a problem document (${headers["content-type"]})`);
  if (!headers["cache-control"]?.includes("no-store")) return verdict(`${where}: ${status} without Cache-Control: no-store`);
  const doc = JSON.parse(body.toString("utf8")) as { status?: number; code?: unknown };
  if (doc.status !== status || typeof doc.code !== "string")
    return verdict(`${where}: malformed problem document ${body.toString("utf8").slice(0, 200)}`);
  return verdict(null);
}

async function runAll(jobs: (() => Promise<string | null>)[]): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < jobs.length) {
        const failure = await jobs[next++]!().catch((error: unknown) => String(error).split("\n")[0]!);
        if (failure) failures.push(failure);
      }
    }),
  );
  return failures;
}

test.describe("fuzz: every route handler, every method, every role", () => {
  test.describe.configure({ timeout: 600_000 });

  test("bad input is always a 4xx problem document, never a 5xx or a cut connection, and changes nothing", async ({
    browser,
  }) => {
    const routes = discoverApiRoutes();
    expect(routes.length).toBeGreaterThan(20);
    const who: Who[] = [];
    for (const role of ROLES) who.push(await signedIn(browser, role));
    who.push({
      name: "no session",
      api: await playwrightRequest.newContext({ baseURL: E2E_ORIGIN, extraHTTPHeaders: { origin: E2E_ORIGIN } }),
    });

    // Orders that earlier specs placed directly at the upstream would otherwise reach the mirror
    // through the history import or the safety-net sync in the middle of this run.
    await mirrorEveryUpstreamOrder(who.find((w) => w.name === "viewer")!.api);
    const started = Date.now();
    const before = await settledRowCounts();
    const jobs: (() => Promise<string | null>)[] = [];
    const probeFailures: string[] = [];
    let cells = 0;
    let probes = 0;
    let caseCount = 0;
    let sent = 0;
    for (const route of routes) {
      for (const method of route.methods) {
        const cases = casesFor(route, method);
        cells++;
        caseCount += cases.length;
        jobs.push(async () => {
          // Which identities get past the door (session, permission)? A GET of the sample, or a
          // non-object JSON body, which every handler refuses after its door.
          const admitted: Who[] = [];
          for (const w of who) {
            const probe = await w.api.fetch(fillPath(route.pattern), {
              method,
              headers: method === "GET" ? {} : JSON_HEADERS,
              data: method === "GET" ? undefined : "[]",
              maxRedirects: 0,
            });
            await probe.body().catch(() => null);
            probes++;
            if (![401, 403].includes(probe.status())) admitted.push(w);
            // What a staff route answers carries personal or business data: never kept by a cache.
            const cacheControl = probe.headers()["cache-control"] ?? "";
            if (probe.status() < 400 && !MAY_BE_KEPT.has(route.pattern) && !cacheControl.includes("no-store"))
              probeFailures.push(`${w.name} ${method} ${route.pattern}: ${probe.status()} with Cache-Control "${cacheControl}"`);
          }
          // Each identity refused at the door gets the door cases; the full set is dealt out
          // round-robin over the admitted identities, so that every case is sent once per
          // route × method and every admitted role sends its share (bounded runtime).
          const failures: string[] = [];
          const send = async (w: Who, c: Case) => {
            sent++;
            const failure = await check(w, c);
            if (failure) failures.push(failure);
          };
          for (const w of who) if (!admitted.includes(w)) for (const c of cases.filter((c) => c.door)) await send(w, c);
          for (const [i, c] of cases.entries()) if (admitted.length) await send(admitted[i % admitted.length]!, c);
          return failures.length ? failures.join("\n") : null;
        });
      }
      // One method the route does not export: 405 with Allow, as every role.
      const missing = ALL_METHODS.find((m) => !route.methods.includes(m));
      if (missing) {
        for (const w of who) {
          jobs.push(async () => {
            const path = fillPath(route.pattern);
            sent++;
            const res = await answer(w, {
              label: "method not allowed",
              method: missing,
              path,
              body: missing === "GET" ? undefined : BOGUS_METHOD_BODY,
              headers: JSON_HEADERS,
              expect: "refused",
            });
            if (res.failure) return res.failure;
            // Without a session the request gate answers 401 first: the route's existence is not told to strangers.
            if (w.name !== "no session" || PUBLIC.test(route.pattern)) {
              if (res.status !== 405) return `${w.name} ${missing} ${path}: ${res.status}, expected 405`;
              const allow = res.headers?.["allow"] ?? "";
              for (const m of route.methods)
                if (!allow.includes(m)) return `${w.name} ${missing} ${path}: Allow "${allow}" lacks ${m}`;
            }
            return null;
          });
        }
      }
    }
    const failures = await runAll(jobs);
    const after = await settledRowCounts();
    const seconds = Math.round((Date.now() - started) / 1000);
    const summary = `${routes.length} routes, ${cells} route×method cells (${caseCount} cases), ${who.length} identities: ${sent + probes} requests in ${seconds} s; ${retried.length} resent after no answer`;
    console.log(`fuzz: ${summary}`);
    if (retried.length) console.log(retried.join("\n"));
    test.info().annotations.push({ type: "fuzz", description: summary });
    const all = [...probeFailures, ...failures.flatMap((f) => f.split("\n"))];
    expect.soft(all.slice(0, 40), `${all.length} failures`).toEqual([]);
    expect(after).toEqual(before);
    for (const w of who) await w.api.dispose();
  });

  test("what no browser sends (a target that is not a path, the image optimizer, router headers) is never a 5xx or a way to another origin", async ({
    browser,
  }) => {
    const routes = discoverApiRoutes();
    const pages = discoverPages();
    expect(pages.length).toBeGreaterThan(10);
    const who: (Who & { cookie: string })[] = [];
    for (const role of ROLES) {
      const w = await signedIn(browser, role);
      who.push({ ...w, cookie: cookieHeader((await w.api.storageState()).cookies) });
    }
    who.push({
      name: "no session",
      api: await playwrightRequest.newContext({ baseURL: E2E_ORIGIN, extraHTTPHeaders: { origin: E2E_ORIGIN } }),
      cookie: "",
    });
    const before = await settledRowCounts();
    const jobs: (() => Promise<string | null>)[] = [];
    const deal = (i: number) => who[i % who.length]!;
    const raw = (w: (typeof who)[number], line: string, method: string): Promise<RawAnswer> =>
      rawRequest(
        line,
        { ...(w.cookie ? { cookie: w.cookie } : {}), origin: E2E_ORIGIN, ...(method === "GET" ? {} : JSON_HEADERS) },
        // As the probes above: a body every handler refuses after its door, so nothing changes.
        ["GET", "HEAD", "OPTIONS"].includes(method) ? "" : "[]",
      );

    // The asterisk-form target, every method as every identity: a 400 problem document.
    for (const method of ASTERISK_METHODS)
      for (const w of who)
        jobs.push(async () => {
          const where = `${w.name} ${method} *`;
          const res = await raw(w, `${method} * HTTP/1.1`, method);
          if (res.status !== 400) return `${where}: ${res.status} ${res.body.slice(0, 120)}`;
          if (method !== "HEAD" && !res.headers["content-type"]?.startsWith("application/problem+json"))
            return `${where}: 400 is not a problem document (${res.headers["content-type"]})`;
          return null;
        });

    // Absolute-form targets, every route × method and every page, dealt out over the identities:
    // answered as the same request to the path alone would be, never sent to the origin named in it.
    const targets = [
      ...routes.flatMap((route) => route.methods.map((method) => ({ method, path: fillPath(route.pattern) }))),
      ...pages.map((page) => ({ method: "GET", path: page })),
    ];
    for (const [i, { method, path }] of targets.entries()) {
      const w = deal(i);
      for (const target of absoluteFormTargets(path))
        jobs.push(async () => {
          const where = `${w.name} ${method} ${target}`;
          const [absolute, plain] = [
            await raw(w, `${method} ${target} HTTP/1.1`, method),
            await raw(w, `${method} ${path} HTTP/1.1`, method),
          ];
          return (
            rawFailure(where, absolute) ??
            (absolute.status !== plain.status ? `${where}: ${absolute.status}, but ${plain.status} for ${path} itself` : null)
          );
        });
    }

    // Next's image optimizer, with every page, every API path and a few others as its url.
    const imageUrls = [...pages, ...routes.map((route) => fillPath(route.pattern)), ...IMAGE_URLS];
    const imageCases = [
      ...imageUrls.map((url, i) => ({ url, w: deal(i) })),
      ...who.map((w) => ({ url: "/staff", w })), // the reported one, as everyone
    ];
    for (const { url, w } of imageCases)
      jobs.push(async () => {
        const address = `/_next/image?url=${encodeURIComponent(url)}&w=64&q=75`;
        const res = await w.api.get(address, { maxRedirects: 0 });
        await res.body();
        return res.status() >= 400 && res.status() < 500 ? null : `${w.name} GET ${address}: ${res.status()}, expected a 4xx`;
      });

    // Router headers on every page (each set) and every API path (one set each), redirects followed.
    const routerCases = [
      ...pages.flatMap((page) => ROUTER_HEADERS.map((headers) => ({ path: page, headers }))),
      ...routes.map((route, i) => ({ path: fillPath(route.pattern), headers: ROUTER_HEADERS[i % ROUTER_HEADERS.length]! })),
    ];
    for (const [i, { path, headers }] of routerCases.entries())
      jobs.push(async () => {
        const w = deal(i);
        const where = `${w.name} GET ${path} ${JSON.stringify(headers)}`;
        const res = await w.api.get(path, { headers, maxRedirects: 3 });
        await res.body();
        if (res.status() >= 500) return `${where}: ${res.status()}`;
        if ("next-router-state-tree" in headers && res.status() !== 400) return `${where}: ${res.status()}, expected 400`;
        return null;
      });

    const failures = await runAll(jobs);
    console.log(`fuzz: ${jobs.length} checks of requests no browser sends, ${who.length} identities`);
    expect.soft(failures.slice(0, 40), `${failures.length} failures`).toEqual([]);
    expect(await settledRowCounts()).toEqual(before);
    for (const w of who) await w.api.dispose();
  });

  test("the route list the request gate uses for 405 agrees with the methods Next serves (its own OPTIONS answer)", async ({
    browser,
  }) => {
    const admin = await signedIn(browser, "admin");
    for (const route of discoverApiRoutes()) {
      const res = await admin.api.fetch(fillPath(route.pattern), { method: "OPTIONS", maxRedirects: 0 });
      if (res.status() !== 204) continue; // a route that answers OPTIONS itself (next-auth) has no Allow to compare
      const allow = (res.headers()["allow"] ?? "")
        .split(",")
        .map((m) => m.trim())
        .filter((m) => !["OPTIONS", "HEAD"].includes(m));
      expect(allow.sort(), route.pattern).toEqual(route.methods.filter((m) => !["OPTIONS", "HEAD"].includes(m)).sort());
    }
    await admin.api.dispose();
  });

  test("pages answer a bad address or filter with a clear message, never an error page", async ({ page }) => {
    await signInAs(page, "admin");
    for (const path of [
      "/orders/a%00b",
      "/orders/bulk/%01",
      "/catalog/%0A",
      "/orders?reference=a%00b",
      "/audit?actor=%00",
      "/events?kind=%00",
      "/orders?product=x%0Ay",
      "/orders?q=ord_%00abcd",
      "/reports?by=a%00b",
    ]) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(400);
      await expect(page.getByRole("heading", { name: "This address is not valid" })).toBeVisible();
    }
    for (const path of [
      "/orders?from=0000-01-01",
      "/orders?to=10000-01-01",
      "/audit?from=0000-01-01",
      "/audit?cursor=99999999999999999999",
      "/orders?cursor=99999999999999999999.x",
      `/orders?q=${"ord_".padEnd(250, "x")}`,
      "/orders?q=ord_%E2%80%AEabcd",
      "/reports?period=custom&from=0000-01-01",
    ]) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(200);
    }
    await page.goto("/orders?from=0000-01-01");
    await expect(page.getByTestId("orders-filter-ignored")).toContainText("from date");
    await page.goto("/audit?from=0000-01-01");
    await expect(page.getByText("Some filters were not valid and were ignored.")).toBeVisible();
    await page.goto("/reports?period=custom&from=2026-02-30&to=2026-03-01");
    await expect(page.getByTestId("report-filter-problem")).toContainText("Use a date as YYYY-MM-DD.");
  });
});

test("the reported inputs: each is a 400, 405 or 415 problem document with a field message where a field is at fault", async ({
  browser,
}) => {
  const admin = await signedIn(browser, "admin");
  const buyer = await signedIn(browser, "buyer");
  const expectProblem = async (res: Awaited<ReturnType<APIRequestContext["fetch"]>>, status: number, field?: string) => {
    expect(res.status(), res.url()).toBe(status);
    expect(res.headers()["cache-control"]).toContain("no-store");
    const doc = (await res.json()) as { status: number; errors?: Record<string, string[]> };
    expect(doc.status).toBe(status);
    if (field) expect(Object.keys(doc.errors ?? {}), res.url()).toContain(field);
  };
  await expectProblem(await admin.api.get("/api/audit?cursor=99999999999999999999"), 400, "cursor");
  await expectProblem(await admin.api.get("/api/audit?from=0000-01-01"), 400, "from");
  await expectProblem(await admin.api.get("/api/audit/export?from=0000-01-01"), 400, "from");
  await expectProblem(await admin.api.get("/api/orders/export?to=10000-01-01"), 400, "to");
  await expectProblem(await admin.api.get("/api/orders/export?reference=a%00b"), 400, "reference");
  await expectProblem(await admin.api.get("/api/audit/export?actor=%00"), 400, "actor");
  await expectProblem(await admin.api.get("/api/orders/%00"), 400, "path");
  await expectProblem(
    await admin.api.post("/api/staff/invitations", {
      data: JSON.stringify({ email: "nul@example.com", name: "a\u0000b", roles: ["viewer"] }),
      headers: JSON_HEADERS,
    }),
    400,
    "name",
  );
  await expectProblem(
    await admin.api.post("/api/staff/invitations", {
      data: JSON.stringify({ email: "nul@example.com", name: "a\nb", roles: ["viewer"] }),
      headers: JSON_HEADERS,
    }),
    400,
    "name",
  );
  await expectProblem(
    await buyer.api.post("/api/orders", {
      data: JSON.stringify({
        idempotencyKey: "k-nul",
        clientReference: "\ud800",
        item: { productId: "p", variantId: "v", quantity: 1, currency: "USD" },
      }),
      headers: JSON_HEADERS,
    }),
    400,
    "clientReference",
  );
  await expectProblem(
    await buyer.api.post("/api/bulk-orders", {
      data: JSON.stringify({ fileName: "a\u0000.csv", csv: "productId\n" }),
      headers: JSON_HEADERS,
    }),
    400,
    "fileName",
  );
  await expectProblem(await buyer.api.post("/api/quotes", { data: "{}", headers: { "content-type": "text/plain" } }), 415);
  const wrongMethod = await buyer.api.fetch("/api/quotes", { method: "GET" });
  await expectProblem(wrongMethod, 405);
  expect(wrongMethod.headers()["allow"]).toContain("POST");
  await admin.api.dispose();
  await buyer.api.dispose();
});

test("the reported edge requests (issue 37): each is a clean 4xx or what was asked for, never a 5xx or another origin", async ({
  browser,
}) => {
  const admin = await signedIn(browser, "admin");
  const cookie = cookieHeader((await admin.api.storageState()).cookies);
  const stranger = await playwrightRequest.newContext({ baseURL: E2E_ORIGIN });

  // GET * and OPTIONS * (asterisk-form): were a 500 (Next could not parse the target).
  for (const method of ["GET", "OPTIONS"]) {
    const res = await rawRequest(`${method} * HTTP/1.1`);
    expect(res.status, method).toBe(400);
    expect(res.headers["content-type"]).toBe("application/problem+json");
    expect(JSON.parse(res.body)).toMatchObject({ status: 400, code: "invalid_request" });
  }

  // An absolute-form target: was a 308 to http://evil.example/api/staff; now the app's own staff list.
  const staff = await rawRequest("GET http://evil.example/api/staff HTTP/1.1", { cookie });
  expect(staff.status).toBe(200);
  expect(staff.headers["location"]).toBeUndefined();
  expect((JSON.parse(staff.body) as { items: { email: string }[] }).items.map((s) => s.email)).toContain("admin@demo.local");
  expect((await rawRequest("GET http://evil.example/api/staff HTTP/1.1")).status).toBe(401);

  // The image optimizer given a gated page: was a 500 ("internal response is invalid"), with a session or without.
  for (const api of [stranger, admin.api]) {
    const res = await api.get("/_next/image?url=%2Fstaff&w=64&q=75", { maxRedirects: 0 });
    expect(res.status()).toBe(404);
  }

  // A router request whose state tree Next cannot read: was a redirect to ?_rsc=…, then a 500 there.
  for (const address of ["/signin", "/signin?_rsc=abc"]) {
    const res = await stranger.get(address, { headers: { rsc: "1", "next-router-state-tree": "x" }, maxRedirects: 0 });
    expect(res.status(), address).toBe(400);
  }

  // Signed-in JSON answers that said nothing of caching.
  for (const address of [
    "/api/staff",
    "/api/audit",
    "/api/settings",
    "/api/events",
    "/api/catalog/products",
    "/api/bulk-orders",
    "/api/wallet/reconciliation",
  ]) {
    const res = await admin.api.get(address);
    expect(res.status(), address).toBe(200);
    expect(res.headers()["cache-control"], address).toBe("no-store");
  }

  // DELETE with no body to an /api path that does not exist: was a 415.
  const gone = await admin.api.delete("/api/fuzz/unknown");
  expect(gone.status()).toBe(404);
  expect(await gone.json()).toMatchObject({ status: 404, code: "not_found" });

  await admin.api.dispose();
  await stranger.dispose();
});

test("the router's own requests pass the gate's router-state check: a click through the navigation is answered as RSC", async ({
  page,
}) => {
  await signInAs(page, "admin");
  const routerAnswers: number[] = [];
  page.on("response", async (res) => {
    const headers = await res.request().allHeaders();
    if (headers["rsc"] === "1" && headers["next-router-state-tree"]) routerAnswers.push(res.status());
  });
  const navigation = page.getByRole("navigation", { name: "Main" });
  const visits = [
    ["Orders", "/orders"],
    ["Catalog", "/catalog"],
    ["Audit log", "/audit"],
  ] as const;
  for (const [name, path] of visits) {
    // A click before the page has hydrated is a new document (no router request): wait for the router.
    await expect(page.locator("html[data-links-routed]")).toHaveCount(1);
    await navigation.getByRole("link", { name }).click();
    await expect(page).toHaveURL(`${E2E_ORIGIN}${path}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
  await expect.poll(() => routerAnswers.length).toBeGreaterThanOrEqual(visits.length);
  expect(routerAnswers.filter((status) => status !== 200)).toEqual([]);
});

const PUBLIC =
  /^\/api\/(health$|health\/ready$|metrics$|auth\/|webhooks\/service|invitations\/acceptance|password-resets\/completion)/;
/** Staff routes whose answer a browser may keep (its own Cache-Control: private, a day). */
const MAY_BE_KEPT = new Set(["/api/catalog/images/[ref]"]);

/** Every page of the app (app/**\/page.tsx), route groups left out and each dynamic segment filled. */
function discoverPages(): string[] {
  const app = join(process.cwd(), "app");
  const pages = readdirSync(app, { recursive: true, encoding: "utf8" })
    .filter((file) => basename(file) === "page.tsx")
    .map((file) =>
      dirname(file)
        .split(sep)
        .filter((segment) => segment !== "." && !/^\(.*\)$/.test(segment))
        .map((segment) => (segment.startsWith("[") ? "fuzz" : segment))
        .join("/"),
    );
  return [...new Set(pages.map((page) => `/${page}`))].sort();
}

/** A raw answer's failure: a 5xx, or a redirect anywhere but this app. */
function rawFailure(where: string, res: RawAnswer): string | null {
  if (!(res.status >= 100 && res.status < 500)) return `${where}: ${res.status} ${res.body.slice(0, 120)}`;
  const location = res.headers["location"];
  if (location !== undefined && new URL(location, E2E_ORIGIN).origin !== E2E_ORIGIN)
    return `${where}: ${res.status} to ${location}`;
  return null;
}
