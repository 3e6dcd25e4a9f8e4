import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { controlImport } from "@/lib/orders/control-import";
import { getImportProgress } from "@/lib/orders/import-progress";

/** The history import's progress and the safety-net sync's last run (admins; the panel polls it). */
export const GET = withStaff(
  async ({ actor }) => Response.json(await getImportProgress(actor), { headers: { "cache-control": "no-store" } }),
  { permission: "settings.read" },
);

/** `{action: "pause" | "resume" | "restart"}`. */
export const POST = withStaff(
  async ({ req, actor }) => {
    await controlImport(actor, await readJsonBody(req));
    return Response.json(await getImportProgress(actor));
  },
  { permission: "settings.manage" },
);
