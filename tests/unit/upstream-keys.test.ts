import { describe, expect, test } from "vitest";
import { createKeyring, KEY_SCOPES, SCOPES } from "@/lib/upstream/client/keys";
import { scopeFor } from "@/lib/upstream/client/endpoints";
import { processEnvironments } from "../../scripts/lib/child-env";

describe("the contract's scope table", () => {
  test.each([
    ["GET", "/api/v1/products", "products.read"],
    ["GET", "/api/v1/products/prd_1", "products.read"],
    ["GET", "/api/v1/catalog-product-images/img_1", "products.read"],
    ["POST", "/api/v1/quotes", "quotes.create"],
    ["POST", "/api/v1/orders", "orders.create"],
    ["GET", "/api/v1/orders", "orders.read"],
    ["GET", "/api/v1/orders/ord_1", "orders.read"],
    ["POST", "/api/v1/orders/ord_1/fulfillment", "orders.read"],
    ["GET", "/api/v1/wallet/balance", "wallet.read"],
    ["GET", "/api/v1/wallet/deposits", "wallet.read"],
    ["GET", "/api/v1/wallet/deposit-addresses/bsc-usd", "wallet.read"],
    ["PUT", "/api/v1/wallet/deposit-addresses/bsc-usd", "wallet.deposit-address.write"],
    ["POST", "/api/v1/withdrawals/quotes", "wallet.read"],
    ["GET", "/api/v1/withdrawals", "wallet.read"],
    ["POST", "/api/v1/withdrawals", "wallet.withdraw"],
    ["POST", "/api/v1/withdrawals/wd_1/cancellation", "wallet.withdraw"],
  ])("%s %s needs %s", (method, path, scope) => {
    expect(scopeFor(method, path)).toBe(scope);
  });

  test("an endpoint outside the table is refused, not sent with some key", () => {
    expect(() => scopeFor("DELETE", "/api/v1/orders/ord_1")).toThrow(/No scope is known/);
  });

  test("the capability keys split the contract's scopes between them, the payout scopes apart", () => {
    const split = [...KEY_SCOPES.read, ...KEY_SCOPES.ordering, ...KEY_SCOPES.payout];
    expect(new Set(split)).toEqual(new Set(SCOPES));
    expect(split).toHaveLength(SCOPES.length);
    expect(KEY_SCOPES.read).not.toContain("wallet.withdraw");
  });
});

describe("the keyring", () => {
  const general = "svckey_gen_s1";
  const read = "svckey_read_s2";
  const payout = "svckey_pay_s3";

  test("chooses the narrowest configured key; the general key only for what no capability key serves", () => {
    const ring = createKeyring([
      { name: "general", keys: [general] },
      { name: "read", keys: [read] },
      { name: "payout", keys: [payout] },
    ]);
    expect(ring.choose("wallet.read")).toMatchObject({ name: "read", key: read });
    expect(ring.choose("wallet.withdraw")).toMatchObject({ name: "payout", key: payout });
    expect(ring.choose("orders.create")).toMatchObject({ name: "general", key: general });
  });

  test("without a key for a scope, nothing is chosen", () => {
    const ring = createKeyring([{ name: "read", keys: [read] }]);
    expect(ring.choose("wallet.withdraw")).toBeNull();
    expect(ring.serves("wallet.withdraw")).toBe(false);
  });

  test("rotates one slot at a time, once, and only when it has a next key", () => {
    const ring = createKeyring([
      { name: "read", keys: [read, "svckey_read2_s4"] },
      { name: "payout", keys: [payout] },
    ]);
    const first = ring.choose("orders.read")!;
    const alsoFirst = ring.choose("products.read")!;
    expect(ring.rotate(first)).toBe("switched");
    expect(ring.rotate(alsoFirst)).toBe("moved"); // a call that raced the switch is sent again, not switched twice
    expect(ring.choose("orders.read")).toMatchObject({ key: "svckey_read2_s4", index: 1 });
    expect(ring.rotate(ring.choose("orders.read")!)).toBe("none");
    expect(ring.rotate(ring.choose("wallet.withdraw")!)).toBe("none");
    expect(
      ring
        .describe()
        .find((k) => k.name === "read")!
        .keys.map((k) => [k.lookup, k.inUse]),
    ).toEqual([
      ["read", false],
      ["read2", true],
    ]);
  });
});

describe("the launcher's environments", () => {
  test("the web processes never get the payout key, wherever it came from; the worker does", () => {
    const { web, worker } = processEnvironments(
      {
        NODE_ENV: "test",
        PATH: "/usr/bin",
        SERVICE_PAYOUT_KEY_NEXT: "svckey_opnext_x",
        SERVICE_PAYOUT_KEY_EXPIRES_AT: "2027-01-01T00:00:00Z",
      },
      { SERVICE_READ_KEY: "svckey_r_x", SERVICE_ORDERING_KEY: "svckey_o_x" },
      { SERVICE_PAYOUT_KEY: "svckey_p_x" },
    );
    expect(Object.keys(web).filter((k) => k.startsWith("SERVICE_PAYOUT"))).toEqual([]);
    expect(web).toMatchObject({ SERVICE_READ_KEY: "svckey_r_x", SERVICE_ORDERING_KEY: "svckey_o_x", PATH: "/usr/bin" });
    expect(worker).toMatchObject({
      SERVICE_READ_KEY: "svckey_r_x",
      SERVICE_PAYOUT_KEY: "svckey_p_x",
      SERVICE_PAYOUT_KEY_NEXT: "svckey_opnext_x",
    });
  });
});
