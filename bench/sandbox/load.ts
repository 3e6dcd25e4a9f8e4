import { Agent, request } from "node:http";

// A bounded closed-loop load generator: `concurrency` workers each send one request at a time for `seconds`.

export type Call = { method: string; path: string; headers?: Record<string, string>; body?: string };
export type LoadResult = {
  name: string;
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
};

function send(agent: Agent, baseUrl: string, call: Call): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${call.path}`, { method: call.method, headers: call.headers, agent }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(call.body);
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function runLoad(
  name: string,
  baseUrl: string,
  makeCall: (n: number) => Call,
  options: { seconds: number; concurrency: number },
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const latencies: number[] = [];
  let errors = 0;
  let counter = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const call = makeCall(counter++);
      const t0 = performance.now();
      try {
        const status = await send(agent, baseUrl, call);
        if (status < 200 || status >= 300) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    name,
    requests: latencies.length,
    errors,
    seconds: round(seconds),
    perSecond: Math.round(latencies.length / seconds),
    p50Ms: round(percentile(latencies, 50)),
    p95Ms: round(percentile(latencies, 95)),
    p99Ms: round(percentile(latencies, 99)),
  };
}
