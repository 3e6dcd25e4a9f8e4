import { expect, test } from "vitest";
import { db } from "@/lib/db/client";
import { countOrdersCapped } from "@/lib/orders/count-orders";
import { orderFilterSchema } from "@/lib/orders/list-orders";
import { makeStaff } from "../support/db";

test("a count behind a reference search stops at 1,000 (each trigram match is checked row by row); an exact one below it", async () => {
  const support = await makeStaff(["support"]);
  const tag = `capcount${Date.now().toString(36)}`;
  const now = new Date();
  await db().order.createMany({
    data: Array.from({ length: 1_005 }, (_, i) => ({
      id: `ord_${tag}_${i}`,
      clientReference: `${tag}-${i}`,
      status: "fulfilled",
      totalMinor: 100n,
      currency: "XCC", // a currency no other test charts or totals
      lines: [],
      upstreamCreatedAt: now,
      upstreamUpdatedAt: now,
    })),
  });
  expect(await countOrdersCapped(support, orderFilterSchema.parse({ reference: tag }))).toEqual({ total: 1_000, capped: true });
  expect(await countOrdersCapped(support, orderFilterSchema.parse({ reference: `${tag}-10` }))).toEqual({
    total: 16, // -10, -100 to -109, -1000 to -1004
    capped: false,
  });
});
