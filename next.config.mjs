import { SECURITY_HEADERS } from "./scripts/security-headers.mjs";

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // The app server's edge compresses instead (lib/edge/compress-response.ts says why).
  compress: false,
  reactStrictMode: true,
  // No page uses next/image (product pictures are plain <img> of /api/catalog/images), so the
  // optimizer at /_next/image is off: it answers 404. On, it fetched any path of the app given
  // as `url` (a gated page came back a redirect, answered as a 500) and ran sharp for anyone.
  images: { unoptimized: true },
  // The app's own files only: the sandbox, tests and scripts are checked by `tsc --noEmit`.
  typescript: { tsconfigPath: "tsconfig.app.json" },
  serverExternalPackages: [
    "@node-rs/argon2",
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "pg",
    "pg-boss",
    // Loaded by Node as they are (instrumentation.ts): they patch Node's modules and pg at run time.
    "@opentelemetry/sdk-node",
    "@opentelemetry/instrumentation-undici",
    "@opentelemetry/instrumentation-pg",
  ],
  // Where a Prometheus scraper looks by default; the route itself lives with the API's.
  async rewrites() {
    return [{ source: "/metrics", destination: "/api/metrics" }];
  },
  async headers() {
    return [{ source: "/:path*", headers: SECURITY_HEADERS }];
  },
};

export default nextConfig;
