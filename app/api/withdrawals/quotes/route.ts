import { withStaff } from "@/lib/http/with-staff";
import { readJsonBody } from "@/lib/http/parse";
import { quoteWithdrawal } from "@/lib/withdrawals/quote-withdrawal";

/** Fee, net amount and payout date for {amount, currency}; 409 withdrawal_above_balance when it does not fit. */
export const POST = withStaff(async ({ req, actor }) => Response.json(await quoteWithdrawal(actor, await readJsonBody(req))), {
  permission: "withdrawals.request",
});
