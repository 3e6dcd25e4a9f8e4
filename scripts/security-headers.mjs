/**
 * The security headers that do not depend on the request: next.config.mjs applies them to
 * every response Next sends (static files included), and scripts/lib/webhook-door.mjs to the
 * webhook answers it sends itself. The Content-Security-Policy carries a per-request nonce
 * for pages and is therefore set in proxy.ts.
 */
export const SECURITY_HEADERS = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];
