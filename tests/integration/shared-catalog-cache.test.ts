import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { db } from "@/lib/db/client";
import { serviceConfig } from "@/lib/env";
import { wireUpstream } from "@/lib/upstream/service";

/**
 * Catalog answers are shared through the database by every app process and instance: each
 * `wireUpstream` below is wired as one app process wires its client (a cache of its own in
 * front of the shared one). Upstream calls are counted from the client's attempt log.
 */
let logged: string[] = [];
const logLevel = process.env.LOG_LEVEL;

beforeEach(() => {
  logged = [];
  process.env.LOG_LEVEL = "debug"; // every attempt is logged
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    logged.push(String(chunk));
    return true;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  process.env.LOG_LEVEL = logLevel;
});

const process_ = () => wireUpstream({ ...serviceConfig(), catalogTtlMs: 60_000 }).client;
const catalogCalls = () =>
  logged
    .filter((l) => l.includes('"upstream attempt"'))
    .map((l) => JSON.parse(l) as { path: string })
    .filter((a) => a.path.startsWith("/api/v1/products")).length;

test("a catalog page one process read from the upstream is served to another from the shared cache, until it expires", async () => {
  // A query of this test's own, so that no other test's cached page answers it.
  const query = { limit: 7, offset: 0, query: `gift ${Date.now()}` };
  const first = await process_().listProducts(query);
  expect(catalogCalls()).toBe(1);

  const second = await process_().listProducts(query);
  expect(second).toEqual(first);
  expect(catalogCalls()).toBe(1);

  // Past its time the shared answer is not served: the next process asks the upstream again.
  await db().sharedReadCache.updateMany({
    where: { key: { contains: query.query } },
    data: { expiresAt: new Date(Date.now() - 1) },
  });
  await process_().listProducts(query);
  expect(catalogCalls()).toBe(2);
});

test("a product read by one process is served to the others from the shared cache", async () => {
  const { items } = await process_().listProducts({ limit: 1, offset: 0 });
  const id = items[0]!.id;
  const first = await process_().getProduct(id);
  const before = catalogCalls();
  expect(await process_().getProduct(id)).toEqual(first);
  expect(catalogCalls()).toBe(before);
});
