import { withStaff } from "@/lib/http/with-staff";
import { searchParamsObject } from "@/lib/http/parse";
import { parseInput } from "@/lib/validation";
import { catalogApiQuerySchema, listProducts, type CatalogQuery } from "@/lib/catalog/list-products";

/** The catalog as JSON, same query as the page (q, country, category, size, page). */
export const GET = withStaff(
  async ({ req, actor }) =>
    Response.json(await listProducts(actor, parseInput(catalogApiQuerySchema, searchParamsObject(req.url)) as CatalogQuery)),
  { permission: "catalog.read", sessionCheck: "upstream-slot" },
);
