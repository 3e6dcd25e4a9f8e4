import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { updateDelivery } from "@/lib/books/update-delivery";

/** Finance chooses the monthly journal's schedule, format and recipients ({schedule, format, recipientIds}). */
export const PUT = withStaff(async ({ req, actor }) => Response.json(await updateDelivery(actor, await readJsonBody(req))), {
  permission: "books.close",
  stepUp: true,
});
