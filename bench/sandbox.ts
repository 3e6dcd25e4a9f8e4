import { runLoad, type LoadResult } from "./sandbox/load";
import { spawnSandbox } from "./sandbox/spawn";
import { benchNumber } from "./lib/setting";

// `npm run bench:sandbox`: the sandbox's own throughput, so app benchmarks can show it is not their bottleneck.
// Settings: BENCH_SECONDS (per scenario, default 5), BENCH_CONCURRENCY (default 32).

const seconds = benchNumber("BENCH_SECONDS", 5, { min: 1 });
const concurrency = benchNumber("BENCH_CONCURRENCY", 32, { min: 1 });

async function main(): Promise<void> {
  const sandbox = await spawnSandbox({
    SANDBOX_PORT: "0",
    SANDBOX_RATE_LIMIT: "1000000000",
    SANDBOX_WALLET: "USD:100000000",
    SANDBOX_FULFILMENT_DELAY_MS: "200",
  });
  try {
    const auth = { "X-Api-Key": sandbox.apiKey };
    const catalog = (await (
      await fetch(`${sandbox.baseUrl}/api/v1/products?category=gift-card&limit=100`, { headers: auth })
    ).json()) as { items: { id: string; isAvailable: boolean; currency: string; variants: { id: string }[] }[] };
    const product = catalog.items.find((p) => p.isAvailable && p.currency === "USD" && p.variants.length > 0);
    if (!product) throw new Error("no orderable product in the catalog");
    const item = JSON.stringify({ productId: product.id, variantId: product.variants[0]?.id, quantity: 1, currency: "USD" });
    const results: LoadResult[] = [];
    // A short warm-up so JIT compilation does not count against the first scenario.
    await runLoad("warm-up", sandbox.baseUrl, () => ({ method: "GET", path: "/api/v1/products?limit=50", headers: auth }), {
      seconds: 1,
      concurrency,
    });
    results.push(
      await runLoad(
        "GET /api/v1/products?limit=50",
        sandbox.baseUrl,
        (n) => ({ method: "GET", path: `/api/v1/products?limit=50&offset=${(n % 6) * 50}`, headers: auth }),
        { seconds, concurrency },
      ),
    );
    results.push(
      await runLoad(
        "POST /api/v1/orders (inline, fresh key)",
        sandbox.baseUrl,
        (n) => ({
          method: "POST",
          path: "/api/v1/orders",
          headers: { ...auth, "Content-Type": "application/json", "Idempotency-Key": `bench-${process.pid}-${n}` },
          body: `{"item":${item},"clientReference":"bench-${n}"}`,
        }),
        { seconds, concurrency },
      ),
    );
    console.log(
      `sandbox benchmark: ${seconds} s per scenario, ${concurrency} concurrent keep-alive connections, sandbox in its own process`,
    );
    console.table(
      results.map(({ name, requests, errors, perSecond, p50Ms, p95Ms, p99Ms }) => ({
        scenario: name,
        requests,
        errors,
        "req/s": perSecond,
        "p50 ms": p50Ms,
        "p95 ms": p95Ms,
        "p99 ms": p99Ms,
      })),
    );
    console.log(JSON.stringify({ results }));
  } finally {
    await sandbox.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
