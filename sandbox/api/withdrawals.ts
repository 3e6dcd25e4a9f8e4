import { route } from "../http/router";
import { pageOf, readPageParams } from "../page";
import { invalidRequest } from "../problem";
import {
  cancelWithdrawal,
  findWithdrawal,
  readWithdrawalBody,
  requestWithdrawal,
  settleWithdrawals,
  termsView,
  withdrawalTerms,
  withdrawalView,
} from "../withdrawals";
import { param, type ApiEndpoint, type ApiRoute } from "./context";

const STATUSES = ["requested", "cancelled", "paid"];

export const withdrawalRoutes: ApiRoute[] = [
  route<ApiEndpoint>("POST", "/api/v1/withdrawals/quotes", {
    scope: "wallet.read",
    readsBody: true,
    handle: ({ sb, auth, body }) => {
      settleWithdrawals(sb, auth.workspace);
      const { amountCents, currency } = readWithdrawalBody(body);
      const terms = withdrawalTerms(amountCents, currency, sb.clock.now());
      return { status: 200, json: termsView(terms, auth.workspace.balances.get(currency)?.availableCents ?? 0) };
    },
  }),
  route<ApiEndpoint>("POST", "/api/v1/withdrawals", {
    scope: "wallet.withdraw",
    readsBody: true,
    handle: ({ sb, auth, body, correlationId }) => {
      const withdrawal = requestWithdrawal(sb, auth, body, correlationId);
      return { status: 201, json: withdrawalView(withdrawal), headers: { Location: `/api/v1/withdrawals/${withdrawal.id}` } };
    },
  }),
  route<ApiEndpoint>("GET", "/api/v1/withdrawals", {
    scope: "wallet.read",
    readsBody: false,
    handle: ({ sb, auth, query }) => {
      settleWithdrawals(sb, auth.workspace);
      const status = query.get("status");
      if (status !== null && !STATUSES.includes(status))
        throw invalidRequest("The status filter is invalid.", { status: [`Must be one of ${STATUSES.join(", ")}.`] });
      const params = readPageParams(query);
      const matching = [...auth.workspace.withdrawals.values()]
        .filter((w) => status === null || w.status === status)
        .sort((a, b) => b.seq - a.seq);
      const page = pageOf(matching, params);
      return { status: 200, json: { ...page, items: page.items.map(withdrawalView) } };
    },
  }),
  route<ApiEndpoint>("GET", "/api/v1/withdrawals/:withdrawalId", {
    scope: "wallet.read",
    readsBody: false,
    handle: (ctx) => {
      settleWithdrawals(ctx.sb, ctx.auth.workspace);
      return { status: 200, json: withdrawalView(findWithdrawal(ctx.auth.workspace, param(ctx, "withdrawalId"))) };
    },
  }),
  route<ApiEndpoint>("POST", "/api/v1/withdrawals/:withdrawalId/cancellation", {
    scope: "wallet.withdraw",
    readsBody: false,
    handle: (ctx) => ({
      status: 200,
      json: withdrawalView(cancelWithdrawal(ctx.sb, ctx.auth, param(ctx, "withdrawalId"), ctx.correlationId)),
    }),
  }),
];
