import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { serviceConfig } from "@/lib/env";
import { upstreamFailure } from "@/lib/upstream/to-app-error";
import { wireUpstream } from "@/lib/upstream/service";
import { control, eventually } from "../support/sandbox";

/**
 * The upstream client's answers to the contract's 429 (Retry-After) and to a key refused
 * with 401 while a next key is configured (docs/service-api-v1.md: keys rotate by issuing
 * the new one, deploying it as the next key, then revoking the old). The upstream is the
 * sandbox over HTTP; each test wires a client of its own, as the app wires its one.
 */
let logged: string[] = [];
const logLevel = process.env.LOG_LEVEL;

beforeEach(() => {
  logged = [];
  process.env.LOG_LEVEL = "debug"; // every attempt is logged, so that none can hide a key
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    logged.push(String(chunk));
    return true;
  });
});

afterEach(async () => {
  vi.restoreAllMocks();
  process.env.LOG_LEVEL = logLevel;
  await control("DELETE", "/faults");
});

const client = (over: Partial<ReturnType<typeof serviceConfig>> = {}) => wireUpstream({ ...serviceConfig(), ...over }).client;
const attempts = () =>
  logged.filter((l) => l.includes('"upstream attempt"')).map((l) => JSON.parse(l) as Record<string, unknown>);

describe("a 429 from the upstream", () => {
  test("is waited out for its Retry-After, then the call succeeds; the client's other calls hold off meanwhile", async () => {
    await control("PUT", "/faults", { rateLimitedRate: 1, retryAfterSeconds: 1, maxFaults: 1, pathPrefix: "/api/v1/wallet" });
    const upstream = client();
    const started = Date.now();
    const first = upstream.getBalances();
    const refusedAt = await eventually(async () => (attempts().some((a) => a.status === 429) ? Date.now() : undefined), 5_000, 5);
    // Asked after the 429: the upstream would answer it at once (the fault is spent), but the client waits.
    const second = upstream.getBalances().then(() => Date.now());

    expect((await first).data.items.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(await second).toBeGreaterThanOrEqual(refusedAt + 900);
    expect(attempts().filter((a) => a.status === 429)).toEqual([
      expect.objectContaining({ path: "/api/v1/wallet/balance", code: "rate_limited", outcome: "retry" }),
    ]);
  });

  test("with a Retry-After past the caller's deadline fails at once as rate limited, and sends nothing more until then", async () => {
    await control("PUT", "/faults", { rateLimitedRate: 1, retryAfterSeconds: 60, maxFaults: 1, pathPrefix: "/api/v1/wallet" });
    const upstream = client();
    const started = Date.now();
    const error = await upstream.getBalances({ deadlineMs: 5_000 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2_000);
    // The person is told to wait, and for how long (not that the service is down, nor that the key or their input is wrong).
    expect(error).toMatchObject({ code: "rate_limited", status: 429, extra: { retryAfterSeconds: 60 } });
    expect(upstreamFailure(error)).toMatchObject({ status: 429, code: "rate_limited" });

    // The fault is spent, so a request sent now would succeed: failing fast shows none is sent.
    const next = await upstream.getBalances({ deadlineMs: 5_000 }).catch((e: unknown) => e);
    expect(upstreamFailure(next)).toMatchObject({ status: 429, code: "rate_limited" });
    expect(attempts().filter((a) => a.status === 429)).toHaveLength(1);
  });
});

describe("key rotation", () => {
  async function issueKey(label: string): Promise<{ id: string; key: string }> {
    const scopes = ((await control("GET", "/keys")) as { items: { scopes: string[] }[] }).items[0]!.scopes;
    return (await control("POST", "/keys", { scopes, label })) as { id: string; key: string };
  }

  test("a 401 on the old key switches to the next one, which then serves every call; neither key is logged", async () => {
    const [old, next] = [await issueKey("rotation-old"), await issueKey("rotation-next")];
    await control("DELETE", `/keys/${old.id}`); // the dashboard revokes the old key
    const upstream = client({ keys: [{ name: "general", keys: [old.key, next.key] }] });

    expect((await upstream.getBalances()).data.items.length).toBeGreaterThan(0);
    expect((await upstream.listOrders({ limit: 1 })).status).toBe(200);
    expect(attempts().filter((a) => a.status === 401)).toHaveLength(1); // the old key is tried once, not per call
    expect(logged.some((l) => l.includes("switched to the next configured key"))).toBe(true);
    for (const key of [old.key, next.key]) {
      const secret = key.split("_").at(-1)!;
      expect(logged.join("\n")).not.toContain(secret);
    }
  });

  test("with no next key, the refusal reaches the caller as a key problem without the key in it", async () => {
    const old = await issueKey("rotation-alone");
    await control("DELETE", `/keys/${old.id}`);
    const error = await client({ keys: [{ name: "general", keys: [old.key] }] })
      .getBalances()
      .catch((e: unknown) => e);

    expect(error).toMatchObject({ code: "upstream_key_refused" });
    expect(upstreamFailure(error)).toMatchObject({ status: 401 });
    const secret = old.key.split("_").at(-1)!;
    const told = [JSON.stringify(error), String(error), String((error as Error).cause), JSON.stringify((error as Error).cause)];
    for (const text of [...told, logged.join("\n")]) expect(text).not.toContain(secret);
  });
});
