/**
 * Signs in to the running app the way a browser does (next-auth's CSRF token, then the
 * credentials callback) and keeps the session cookie, for benchmarks that act as staff.
 */
export type Session = {
  cookie: string;
  get(path: string): Promise<{ status: number; ms: number; body: string }>;
  /** A JSON POST from the app's own origin (state-changing handlers check Origin). */
  post(path: string, json: unknown): Promise<Response>;
};

/**
 * What Chromium and Firefox send (Node's fetch sends "gzip, deflate"), so that a page view here
 * is compressed as a staff member's browser gets it: zstd by an app that offers it, gzip by
 * one that does not. BENCH_ACCEPT_ENCODING to ask otherwise (e.g. "gzip", as Safari gets).
 */
const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? "gzip, deflate, br, zstd";

export async function signIn(baseUrl: string, email: string, password: string): Promise<Session> {
  const jar = new Map<string, string>();
  const remember = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...rest] = pair!.split("=");
      jar.set(name!.trim(), rest.join("="));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");

  const csrfRes = await fetch(`${baseUrl}/api/auth/csrf`);
  remember(csrfRes);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const login = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie(), origin: baseUrl },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  remember(login);
  if (![...jar.keys()].some((k) => k.includes("session-token"))) throw new Error(`sign-in failed for ${email} (${login.status})`);

  return {
    cookie: cookie(),
    async get(path: string) {
      const started = performance.now();
      const res = await fetch(`${baseUrl}${path}`, {
        headers: { cookie: cookie(), "accept-encoding": ACCEPT_ENCODING },
        redirect: "manual",
      });
      const body = await res.text();
      return { status: res.status, ms: performance.now() - started, body };
    },
    post: (path: string, json: unknown) =>
      fetch(`${baseUrl}${path}`, {
        method: "POST",
        headers: { cookie: cookie(), origin: baseUrl, "content-type": "application/json", "accept-encoding": ACCEPT_ENCODING },
        body: JSON.stringify(json),
      }),
  };
}
