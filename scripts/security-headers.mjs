/**
 * The security headers that do not depend on the request: next.config.mjs applies them to
 * every response Next sends (static files included), and the app server's edge
 * (lib/edge/plain-answer.ts) to the answers it sends itself. The Content-Security-Policy carries a per-request nonce
 * for pages, so it is made per request (freshContentSecurityPolicy below).
 */
export const SECURITY_HEADERS = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

/**
 * The Content-Security-Policy of one response, with its script nonce. The edge (lib/edge/serve.ts)
 * makes the nonce and puts this policy in the request's own `content-security-policy` header,
 * where Next looks for the nonce to give its scripts, and sends the same policy back as the
 * response header (lib/edge/serve.ts, in production and dev mode). No inline script runs
 * without the nonce.
 * @param {string} nonce base64, fresh for each request
 * @param {{ dev: boolean }} mode dev mode's React needs eval
 * @returns {string}
 */
function contentSecurityPolicy(nonce, { dev }) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * A fresh nonce (16 random bytes, base64) and the policy that names it.
 * @param {{ dev: boolean }} mode
 */
export function freshContentSecurityPolicy(mode) {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return contentSecurityPolicy(Buffer.from(bytes).toString("base64"), mode);
}
