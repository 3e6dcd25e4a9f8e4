import { withStaff } from "@/lib/http/with-staff";
import { readEmptyBody } from "@/lib/http/parse";
import { removeWatch } from "@/lib/catalog-watch/manage-watches";

/** Stops watching (one's own watch only). */
export const DELETE = withStaff<{ id: string }>(
  async ({ req, actor, params }) => {
    await readEmptyBody(req);
    await removeWatch(actor, params.id);
    return new Response(null, { status: 204 });
  },
  { permission: "catalog.watch" },
);
