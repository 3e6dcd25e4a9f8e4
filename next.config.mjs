import { discoverApiRoutes } from "./scripts/discover-api-routes.mjs";
import { SECURITY_HEADERS } from "./scripts/security-headers.mjs";

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // scripts/serve-app.mjs compresses instead (scripts/lib/compress-response.mjs says why).
  compress: false,
  reactStrictMode: true,
  // No page uses next/image (product pictures are plain <img> of /api/catalog/images), so the
  // optimizer at /_next/image is off: it answers 404. On, it fetched any path of the app given
  // as `url` (a gated page came back a redirect, answered as a 500) and ran sharp for anyone.
  images: { unoptimized: true },
  // The app's own files only: the sandbox, tests and scripts are checked by `tsc --noEmit`.
  typescript: { tsconfigPath: "tsconfig.app.json" },
  // The route handlers and the methods each exports, read from app/api at build time: the request
  // gate (lib/http/gate.ts) answers any other method with a 405 problem document and an Allow header.
  env: {
    API_ROUTE_METHODS: JSON.stringify(
      discoverApiRoutes(import.meta.dirname).map(({ pattern, methods }) => ({ pattern, methods })),
    ),
  },
  serverExternalPackages: ["@node-rs/argon2", "@electric-sql/pglite", "@electric-sql/pglite-socket", "pg", "pg-boss"],
  async headers() {
    return [{ source: "/:path*", headers: SECURITY_HEADERS }];
  },
};

export default nextConfig;
