import { describe, expect, test } from "vitest";
import { allowedMethods } from "@/lib/http/allowed-methods";
import { discoverApiRoutes, exportedMethods } from "../../scripts/discover-api-routes.mjs";

const ROUTES = [
  { pattern: "/api/[...path]", methods: ["GET", "POST", "PUT", "PATCH", "DELETE"] },
  { pattern: "/api/orders", methods: ["GET", "POST"] },
  { pattern: "/api/orders/[id]", methods: ["GET"] },
  { pattern: "/api/orders/export", methods: ["GET"] },
  { pattern: "/api/orders/[id]/reveal", methods: ["POST"] },
];

describe("the methods a path answers (the request gate's 405)", () => {
  test("the route Next would pick decides: static before dynamic before catch-all", () => {
    expect(allowedMethods("/api/orders", ROUTES)).toEqual(["GET", "POST", "HEAD", "OPTIONS"]);
    expect(allowedMethods("/api/orders/export", ROUTES)).toEqual(["GET", "HEAD", "OPTIONS"]);
    expect(allowedMethods("/api/orders/o-1", ROUTES)).toEqual(["GET", "HEAD", "OPTIONS"]);
    expect(allowedMethods("/api/orders/o-1/reveal", ROUTES)).toEqual(["POST", "OPTIONS"]);
    expect(allowedMethods("/api/orders/o-1/other", ROUTES)).toEqual(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]);
    expect(allowedMethods("/elsewhere", ROUTES)).toBeNull();
  });

  test("exports are read in every form a route file uses", () => {
    expect(exportedMethods("export const GET = withStaff(…);\nexport async function POST(req) {}")).toEqual(["GET", "POST"]);
    expect(exportedMethods("export { notFound as GET, notFound as DELETE }")).toEqual(["GET", "DELETE"]);
    expect(exportedMethods("export function GET() {}\nexport const runtime = 'nodejs';")).toEqual(["GET"]);
  });

  test("every route under app/api is found, each with at least one method", () => {
    const routes = discoverApiRoutes();
    expect(routes.map((r) => r.pattern)).toContain("/api/withdrawals/[id]/approval");
    for (const route of routes) expect(route.methods.length, route.pattern).toBeGreaterThan(0);
  });
});
