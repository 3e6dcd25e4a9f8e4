import { discoverApiRoutes } from "./scripts/discover-api-routes.mjs";

/**
 * Security headers that do not depend on the request go here and apply to every response,
 * static files included. The Content-Security-Policy carries a per-request nonce and is
 * therefore set in proxy.ts.
 */
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // The app's own files only: the sandbox, tests and scripts are checked by `tsc --noEmit`.
  typescript: { tsconfigPath: "tsconfig.app.json" },
  // The route handlers and the methods each exports, read from app/api at build time: proxy.ts
  // answers any other method with a 405 problem document and an Allow header.
  env: {
    API_ROUTE_METHODS: JSON.stringify(
      discoverApiRoutes(import.meta.dirname).map(({ pattern, methods }) => ({ pattern, methods })),
    ),
  },
  serverExternalPackages: ["@node-rs/argon2", "@electric-sql/pglite", "@electric-sql/pglite-socket", "pg", "pg-boss"],
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default nextConfig;
