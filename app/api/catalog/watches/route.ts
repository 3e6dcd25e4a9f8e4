import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { parseInput } from "@/lib/validation";
import { addWatch, listWatches } from "@/lib/catalog-watch/manage-watches";
import { watchInputSchema } from "@/lib/catalog-watch/watch-target";

/** What one watches in the catalog, newest first. */
export const GET = withStaff(async ({ actor }) => Response.json({ items: await listWatches(actor) }), {
  permission: "catalog.watch",
});

/** Watches a product ({productId}) or a brand or country ({productType, brand?, countryCode?}); 201 when new, 200 when already watched. */
export const POST = withStaff(
  async ({ req, actor }) => {
    const { watch, created } = await addWatch(actor, parseInput(watchInputSchema, await readJsonBody(req)));
    return Response.json(watch, { status: created ? 201 : 200 });
  },
  { permission: "catalog.watch" },
);
