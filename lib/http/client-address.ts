/**
 * The source address of a request. Next fills `x-forwarded-for` from the socket when the
 * header is absent; behind a reverse proxy, the proxy appends the address it saw, so the
 * rightmost entry is the one a client cannot forge. Production deployments must sit behind
 * a proxy that appends to (or overwrites) X-Forwarded-For.
 */
type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function read(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === "function") return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[value.length - 1] : value;
}

export function clientAddress(headers: HeaderSource): string | null {
  const forwarded = read(headers, "x-forwarded-for");
  const last = forwarded?.split(",").map((s) => s.trim()).filter(Boolean).pop();
  const address = last ?? read(headers, "x-real-ip") ?? null;
  return address ? address.replace(/^::ffff:/, "").slice(0, 64) : null;
}

export function clientUserAgent(headers: HeaderSource): string | null {
  return read(headers, "user-agent")?.slice(0, 512) ?? null;
}
