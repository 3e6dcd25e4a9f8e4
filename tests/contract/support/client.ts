import { startSandbox, type RunningSandbox, type SandboxOptions } from "../../../sandbox/server";

// A thin HTTP client for the contract tests: every call goes over the wire like the app's would.

// Response bodies are whatever JSON the sandbox sent; tests read fields by name and assert on them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;
export type Response = { status: number; headers: Headers; body: Json; text: string };

export type Call = {
  method?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  key?: string | null;
  signal?: AbortSignal;
};

export type TestSandbox = RunningSandbox & {
  api(path: string, call?: Call): Promise<Response>;
  control(method: string, path: string, body?: unknown): Promise<Response>;
};

export async function request(url: string, call: Call = {}): Promise<Response> {
  const headers: Record<string, string> = { ...call.headers };
  let body: string | undefined = call.rawBody;
  if (call.body !== undefined) {
    body = JSON.stringify(call.body);
    headers["Content-Type"] ??= "application/json";
  }
  const res = await fetch(url, {
    method: call.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
    signal: call.signal,
  });
  const text = await res.text();
  let parsed: Json = undefined;
  const type = res.headers.get("content-type") ?? "";
  if (type.includes("json") && text) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed, text };
}

export function withHelpers(running: RunningSandbox): TestSandbox {
  return {
    ...running,
    api: (path, call = {}) => {
      const headers = { ...call.headers };
      const key = call.key === undefined ? running.apiKey : call.key;
      if (key !== null) headers["X-Api-Key"] = key;
      return request(`${running.baseUrl}/api/v1${path}`, { ...call, headers });
    },
    control: (method, path, body) => request(`${running.baseUrl}/_sandbox${path}`, { method, body }),
  };
}

// In-process sandbox on a random port with fast, quiet defaults for tests.
export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const running = await startSandbox({
    port: 0,
    fulfilmentDelayMs: 30,
    webhookRetryScale: 0.002,
    rateLimitPerMinute: 100_000,
    log: () => {},
    ...options,
  });
  return withHelpers(running);
}

export function expectProblem(res: Response, status: number, code: string): void {
  if (res.status !== status || res.body?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${res.text}`);
  }
  const type = res.headers.get("content-type") ?? "";
  if (!type.startsWith("application/problem+json")) throw new Error(`expected a problem document, got ${type}`);
  for (const field of ["title", "status", "detail", "code", "correlationId"]) {
    if (res.body[field] === undefined) throw new Error(`problem document lacks ${field}: ${res.text}`);
  }
  if (res.body.correlationId !== res.headers.get("x-correlation-id"))
    throw new Error("correlationId differs from X-Correlation-Id");
}
