import { keysetListRoute } from "@/lib/http/keyset-list-route";
import {
  listReconciliations,
  reconciliationCursorSchema,
  reconciliationFilterSchema,
} from "@/lib/reconciliation/list-reconciliations";

export const GET = keysetListRoute({
  filter: reconciliationFilterSchema,
  cursor: reconciliationCursorSchema,
  permission: "wallet.read",
  list: listReconciliations,
});
