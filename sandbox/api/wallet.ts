import { audit } from "../audit";
import { BSC_USD, depositAddressView, depositView, ensureDepositAddress, readDepositAddress } from "../deposits";
import { route } from "../http/router";
import { isCurrencyCode } from "../money";
import { pageOf, readPageParams } from "../page";
import { invalidRequest, notFound } from "../problem";
import { settleWithdrawals } from "../withdrawals";
import { balanceView } from "../wallet";
import { param, type ApiEndpoint, type ApiRoute } from "./context";

export const walletRoutes: ApiRoute[] = [
  route<ApiEndpoint>("GET", "/api/v1/wallet/balance", {
    scope: "wallet.read",
    readsBody: false,
    handle: ({ sb, auth, query }) => {
      const ws = auth.workspace;
      settleWithdrawals(sb, ws);
      const currency = query.get("currency");
      if (currency === null) {
        const items = [...ws.balances.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([code, balance]) => balanceView(code, balance));
        return { status: 200, json: { items } };
      }
      if (!isCurrencyCode(currency))
        throw invalidRequest("The currency is invalid.", { currency: ["Must be a three-letter upper-case ISO 4217 code."] });
      const balance = ws.balances.get(currency) ?? {
        availableCents: 0,
        reservedCents: 0,
        withdrawalHoldCents: 0,
        updatedAtMs: 0,
      };
      return { status: 200, json: balanceView(currency, balance) };
    },
  }),
  route<ApiEndpoint>("GET", "/api/v1/wallet/deposits", {
    scope: "wallet.read",
    readsBody: false,
    handle: ({ sb, auth, query }) => {
      const currency = query.get("currency");
      if (currency !== null && !isCurrencyCode(currency))
        throw invalidRequest("The currency is invalid.", { currency: ["Must be a three-letter upper-case ISO 4217 code."] });
      const params = readPageParams(query);
      const matching = auth.workspace.deposits.filter((d) => currency === null || d.currency === currency).reverse();
      const page = pageOf(matching, params);
      const now = sb.clock.now();
      return { status: 200, json: { ...page, items: page.items.map((d) => depositView(d, now)) } };
    },
  }),
  route<ApiEndpoint>("GET", "/api/v1/wallet/deposit-addresses", {
    scope: "wallet.read",
    readsBody: false,
    handle: ({ auth }) => ({
      status: 200,
      json: { items: [...auth.workspace.depositAddresses.values()].map(depositAddressView) },
    }),
  }),
  route<ApiEndpoint>("GET", "/api/v1/wallet/deposit-addresses/:network", {
    scope: "wallet.read",
    readsBody: false,
    handle: (ctx) => ({ status: 200, json: depositAddressView(readDepositAddress(ctx.auth.workspace, param(ctx, "network"))) }),
  }),
  route<ApiEndpoint>("PUT", "/api/v1/wallet/deposit-addresses/:network", {
    scope: "wallet.deposit-address.write",
    readsBody: false, // the request needs no body; the network is the path
    handle: (ctx) => {
      if (param(ctx, "network") !== BSC_USD)
        throw notFound(`Deposit network ${param(ctx, "network")} is not offered; only ${BSC_USD}.`);
      const { address, created } = ensureDepositAddress(ctx.sb, ctx.auth.workspace);
      if (created)
        audit(ctx.sb, {
          workspaceId: ctx.auth.workspace.id,
          keyId: ctx.auth.key.id,
          action: "deposit-address.create",
          resourceId: address.address,
          correlationId: ctx.correlationId,
        });
      return { status: created ? 201 : 200, json: depositAddressView(address) };
    },
  }),
];
