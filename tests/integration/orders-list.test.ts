import { beforeAll, describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { ROLES } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/auth/actor";
import { parseInput } from "@/lib/validation";
import { listOrders, orderCursorSchema, orderFilterSchema, type OrderFilter } from "@/lib/orders/list-orders";
import { exportOrdersCsv } from "@/lib/orders/export-orders";
import { getOrder } from "@/lib/orders/get-order";
import { countOrdersCapped } from "@/lib/orders/count-orders";
import { revealCounts } from "@/lib/reveal/reveal-history";
import { makeStaff } from "../support/db";

// Every row of this file carries a unique client-reference prefix, so other tests' orders never interfere.
const prefix = `olt-${randomUUID().slice(0, 8)}`;
let seq = 0;

type Line = {
  productId: string;
  productName: string;
  variantLabel?: string;
  quantity?: number;
  unitPrice?: number;
  currency?: string;
};

async function mirrorRow(o: {
  ref: string;
  formula?: string;
  status?: string;
  at?: Date;
  placedById?: string | null;
  lines?: Line[];
  totalMinor?: bigint;
  currency?: string;
}) {
  seq += 1;
  const id = `ord_${prefix}_${String(seq).padStart(4, "0")}`;
  const currency = o.currency ?? "USD";
  const at = o.at ?? new Date();
  await db().order.create({
    data: {
      id,
      clientReference: `${o.formula ?? ""}${prefix}-${o.ref}`,
      status: o.status ?? "fulfilled",
      totalMinor: o.totalMinor ?? 1000n,
      currency,
      lines: (o.lines ?? [{ productId: "prd_default", productName: "Default Card" }]).map((l) => ({
        variantId: null,
        variantLabel: "",
        quantity: 1,
        unitPrice: 10,
        currency,
        faceValue: null,
        faceCurrency: null,
        ...l,
      })),
      upstreamCreatedAt: at,
      upstreamUpdatedAt: at,
      placedById: o.placedById ?? null,
    },
  });
  return id;
}

const filter = (f: Partial<OrderFilter> = {}): OrderFilter => ({ product: undefined, reference: prefix, ...f });
const refs = (rows: { clientReference: string }[]) => rows.map((r) => r.clientReference.slice(prefix.length + 1));

let buyer: Actor;
let otherBuyer: Actor;
let viewer: Actor;

beforeAll(async () => {
  [buyer, otherBuyer, viewer] = await Promise.all([makeStaff(["buyer"]), makeStaff(["buyer"]), makeStaff(["viewer"])]);
});

describe("orders list (from the mirror)", () => {
  test("every role may read the list, one order and the export; no role means forbidden", async () => {
    const id = await mirrorRow({ ref: "perm" });
    for (const role of ROLES) {
      const actor = await makeStaff([role]);
      expect((await listOrders(actor, filter({ reference: `${prefix}-perm` }))).rows).toHaveLength(1);
      expect((await getOrder(actor, id)).id).toBe(id);
      expect(await exportOrdersCsv(actor, filter())).toBeInstanceOf(ReadableStream);
    }
    const nobody = await makeStaff([]);
    await expect(listOrders(nobody, filter())).rejects.toMatchObject({ code: "forbidden" });
    await expect(getOrder(nobody, id)).rejects.toMatchObject({ code: "forbidden" });
    await expect(exportOrdersCsv(nobody, filter())).rejects.toMatchObject({ code: "forbidden" });
  });

  test("filters by one or several statuses, client reference in any case, and who placed it", async () => {
    const ref = `f-${randomUUID().slice(0, 6)}`;
    await mirrorRow({ ref: `${ref}-Alpha`, status: "fulfilled", placedById: buyer.staffId });
    await mirrorRow({ ref: `${ref}-beta`, status: "failed", placedById: otherBuyer.staffId });
    await mirrorRow({ ref: `${ref}-gamma`, status: "processing", placedById: buyer.staffId });
    const base = { reference: `${prefix}-${ref}` };
    const statuses = (s: string) => parseInput(orderFilterSchema, { ...base, status: s }).status;

    expect(refs((await listOrders(viewer, filter({ ...base, status: ["failed"] }))).rows)).toEqual([`${ref}-beta`]);
    const several = await listOrders(viewer, filter({ ...base, status: statuses("fulfilled,processing") }));
    expect(refs(several.rows).sort()).toEqual([`${ref}-Alpha`, `${ref}-gamma`]);
    expect(statuses("FAILED")).toEqual(["failed"]);
    expect(parseInput(orderFilterSchema, { status: ["failed", "fulfilled,failed"] }).status).toEqual(["failed", "fulfilled"]);

    expect(refs((await listOrders(viewer, filter({ reference: `${ref.toUpperCase()}-ALPHA` }))).rows)).toEqual([`${ref}-Alpha`]);
    expect((await listOrders(viewer, filter({ reference: `${prefix}-${ref}-%` }))).rows).toHaveLength(0);

    const mine = await listOrders(buyer, filter({ ...base, placedBy: "me" }));
    expect(refs(mine.rows).sort()).toEqual([`${ref}-Alpha`, `${ref}-gamma`]);
    expect(mine.rows[0]!.placedBy).toEqual({ id: buyer.staffId, name: buyer.name, email: buyer.email });
    expect(refs((await listOrders(viewer, filter({ ...base, placedBy: otherBuyer.staffId }))).rows)).toEqual([`${ref}-beta`]);
  });

  test("the date range covers whole UTC days, both ends inclusive", async () => {
    const ref = `d-${randomUUID().slice(0, 6)}`;
    const base = { reference: `${prefix}-${ref}` };
    await mirrorRow({ ref: `${ref}-before`, at: new Date("2031-02-28T23:59:59.999Z") });
    await mirrorRow({ ref: `${ref}-start`, at: new Date("2031-03-01T00:00:00.000Z") });
    await mirrorRow({ ref: `${ref}-end`, at: new Date("2031-03-01T23:59:59.999Z") });
    await mirrorRow({ ref: `${ref}-after`, at: new Date("2031-03-02T00:00:00.000Z") });

    const day = await listOrders(viewer, filter({ ...base, from: "2031-03-01", to: "2031-03-01" }));
    expect(refs(day.rows)).toEqual([`${ref}-end`, `${ref}-start`]);
    expect(refs((await listOrders(viewer, filter({ ...base, from: "2031-03-02" }))).rows)).toEqual([`${ref}-after`]);
    expect(refs((await listOrders(viewer, filter({ ...base, to: "2031-02-28" }))).rows)).toEqual([`${ref}-before`]);
  });

  test("the product filter finds a product id inside the lines, or part of a product name; wildcards are literal", async () => {
    const ref = `p-${randomUUID().slice(0, 6)}`;
    const base = { reference: `${prefix}-${ref}` };
    const productId = `prd_${randomUUID().slice(0, 8)}`;
    await mirrorRow({
      ref: `${ref}-two-lines`,
      lines: [
        { productId: "prd_other", productName: "Other" },
        { productId, productName: "Steam Wallet 100% Bonus" },
      ],
    });
    await mirrorRow({ ref: `${ref}-steam`, lines: [{ productId: "prd_steam2", productName: "STEAM Wallet" }] });
    await mirrorRow({ ref: `${ref}-none`, lines: [{ productId: "prd_x", productName: "Netflix" }] });

    expect(refs((await listOrders(viewer, filter({ ...base, product: productId }))).rows)).toEqual([`${ref}-two-lines`]);
    expect(refs((await listOrders(viewer, filter({ ...base, product: "steam wallet" }))).rows).sort()).toEqual([
      `${ref}-steam`,
      `${ref}-two-lines`,
    ]);
    expect(refs((await listOrders(viewer, filter({ ...base, product: "100%" }))).rows)).toEqual([`${ref}-two-lines`]);
    expect((await listOrders(viewer, filter({ ...base, product: "_" }))).rows).toHaveLength(0);
    expect((await listOrders(viewer, filter({ ...base, product: "prd_" }))).rows).toHaveLength(0);
  });

  test("one search matches an order id or its beginning, part of a client reference in any case, or a product", async () => {
    const ref = `s-${randomUUID().slice(0, 6)}`;
    const productId = `prd_${randomUUID().slice(0, 8)}`;
    const cardId = await mirrorRow({ ref: `${ref}-card`, lines: [{ productId, productName: "Gift Card Deluxe" }] });
    await mirrorRow({ ref: `${ref}-topup`, lines: [{ productId: "prd_top", productName: "Mobile Top-Up" }] });
    const search = (q: string) => listOrders(viewer, parseInput(orderFilterSchema, { q, reference: `${prefix}-${ref}` }));

    expect(refs((await search(cardId)).rows)).toEqual([`${ref}-card`]);
    // Part of an id matches by its beginning (its "_" literal, not LIKE's any character), never from the middle.
    const begun = (await search(cardId.slice(0, -1))).rows;
    expect(begun.map((r) => r.id)).toContain(cardId);
    for (const row of begun) expect(row.id.startsWith(cardId.slice(0, -1))).toBe(true);
    expect((await search(cardId.slice(4))).rows).toHaveLength(0);
    expect((await search(cardId.slice(0, -1).replace(/_(?=[^_]*$)/, "x"))).rows).toHaveLength(0);
    expect(refs((await search(`${ref}-TOPUP`.toUpperCase())).rows)).toEqual([`${ref}-topup`]);
    expect(refs((await search(productId)).rows)).toEqual([`${ref}-card`]);
    expect(refs((await search("card delux")).rows)).toEqual([`${ref}-card`]);
    expect(refs((await search("  top-up  ")).rows)).toEqual([`${ref}-topup`]);
    expect(await countOrdersCapped(viewer, parseInput(orderFilterSchema, { q: ref }))).toEqual({ total: 2, capped: false });
    expect(() => parseInput(orderFilterSchema, { q: "x".repeat(201) })).toThrow(
      expect.objectContaining({ code: "invalid_request" }),
    );
    expect(parseInput(orderFilterSchema, { q: "" }).q).toBeUndefined();
  });

  test("a product name with quotes, a backslash or accents is found by any part of it, in any case", async () => {
    const ref = `q-${randomUUID().slice(0, 6)}`;
    const base = { reference: `${prefix}-${ref}` };
    await mirrorRow({ ref: `${ref}-quoted`, lines: [{ productId: "prd_q", productName: 'Say "Hi" \\ Café Card' }] });
    await mirrorRow({ ref: `${ref}-plain`, lines: [{ productId: "prd_p", productName: "Say Hi Cafe Card" }] });

    for (const product of ['"hi"', '" \\ c', "\\", "CAFé CARD"])
      expect(refs((await listOrders(viewer, filter({ ...base, product }))).rows), product).toEqual([`${ref}-quoted`]);
    expect(refs((await listOrders(viewer, filter({ ...base, product: "say hi" }))).rows)).toEqual([`${ref}-plain`]);
  });

  test("pages are stable: equal timestamps neither skip nor repeat, and new orders do not shift older pages", async () => {
    const ref = `g-${randomUUID().slice(0, 6)}`;
    const base = { reference: `${prefix}-${ref}` };
    const same = new Date("2030-06-01T12:00:00.000Z");
    for (let i = 0; i < 4; i++) await mirrorRow({ ref: `${ref}-same${i}`, at: same });
    for (let i = 0; i < 3; i++) await mirrorRow({ ref: `${ref}-old${i}`, at: new Date(same.getTime() - (i + 1) * 60_000) });

    const all = await listOrders(viewer, filter(base), { limit: 100 });
    expect(all.rows).toHaveLength(7);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const result = await listOrders(viewer, filter(base), { limit: 3, cursor });
      seen.push(...result.rows.map((r) => r.id));
      // An order placed meanwhile lands on the first page, never on the pages still to come.
      if (page === 0) await mirrorRow({ ref: `${ref}-newer`, at: new Date(same.getTime() + 1) });
      if (!result.nextCursor) break;
      expect(orderCursorSchema.safeParse(result.nextCursor).success).toBe(true);
      cursor = result.nextCursor;
    }
    expect(seen).toEqual(all.rows.map((r) => r.id));
  });

  test("one order comes with exact line totals and its placer; unknown ids are not_found, bad ones invalid_request", async () => {
    const id = await mirrorRow({
      ref: "detail",
      placedById: buyer.staffId,
      totalMinor: 5997n,
      lines: [{ productId: "prd_d", productName: "Gift", variantLabel: "$19.99", quantity: 3, unitPrice: 19.99 }],
    });
    const order = await getOrder(viewer, id);
    expect(order.placedBy).toEqual({ id: buyer.staffId, name: buyer.name, email: buyer.email });
    expect(order.totalMinor).toBe("5997");
    expect(order.lines).toEqual([
      expect.objectContaining({ productName: "Gift", quantity: 3, unitPriceMinor: "1999", lineTotalMinor: "5997" }),
    ]);
    await expect(getOrder(viewer, `ord_${prefix}_missing`)).rejects.toMatchObject({ code: "not_found" });
    await expect(getOrder(viewer, "")).rejects.toMatchObject({ code: "invalid_request" });
  });

  test("bad filter input is refused as invalid_request, naming the field", () => {
    const refused = (input: Record<string, unknown>, field: string) => {
      try {
        parseInput(orderFilterSchema, input);
        throw new Error("accepted");
      } catch (error) {
        expect(error).toMatchObject({ code: "invalid_request", fieldErrors: { [field]: expect.any(Array) } });
      }
    };
    refused({ status: "shipped" }, "status");
    refused({ from: "2024-13-01" }, "from");
    refused({ from: "2024-05-02", to: "2024-05-01" }, "to");
    refused({ placedBy: "'; drop table" }, "placedBy");
    refused({ reference: "x".repeat(101) }, "reference");
    expect(orderCursorSchema.safeParse("abc").success).toBe(false);
    expect(parseInput(orderFilterSchema, { status: "", from: "", to: "", product: " ", placedBy: "", reference: "" })).toEqual({
      product: undefined,
      reference: undefined,
    });
  });

  test("the CSV export streams the filtered rows in batches, with exact totals and formula-safe cells", async () => {
    const ref = `c-${randomUUID().slice(0, 6)}`;
    await mirrorRow({
      ref: `${ref}-a`,
      totalMinor: 1234n,
      placedById: buyer.staffId,
      lines: [{ productId: "prd_c", productName: '=HYPERLINK("x")', quantity: 2 }],
    });
    await mirrorRow({ ref: `${ref}-yen`, totalMinor: 500n, currency: "JPY", status: "failed", formula: "=1+1 " });
    const text = await new Response(await exportOrdersCsv(viewer, filter({ reference: `${prefix}-${ref}` }))).text();
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "orderId,createdAtUtc,updatedAtUtc,clientReference,status,total,currency,items,origin,placedBy,placedByEmail",
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`,'=1+1 ${prefix}-${ref}-yen,failed,500,JPY,`);
    expect(lines[2]).toContain(
      `,${prefix}-${ref}-a,fulfilled,12.34,USD,"2 × =HYPERLINK(""x"")",placed here,${buyer.name},${buyer.email}`,
    );

    const onlyFailed = await new Response(
      await exportOrdersCsv(viewer, filter({ reference: `${prefix}-${ref}`, status: ["failed"] })),
    ).text();
    expect(onlyFailed.trimEnd().split("\r\n")).toHaveLength(2);

    // More rows than one batch: every row exactly once.
    const bulk = `${prefix}-bulk-${randomUUID().slice(0, 6)}`;
    const at = Date.now();
    await db().order.createMany({
      data: Array.from({ length: 520 }, (_, i) => ({
        id: `ord_${bulk}_${i}`,
        clientReference: `${bulk}-${i}`,
        status: "fulfilled",
        totalMinor: 100n,
        currency: "USD",
        lines: [],
        upstreamCreatedAt: new Date(at - (i % 7) * 1000),
        upstreamUpdatedAt: new Date(at),
      })),
    });
    const big = (await new Response(await exportOrdersCsv(viewer, filter({ reference: bulk }))).text())
      .trimEnd()
      .split("\r\n")
      .slice(1);
    expect(big).toHaveLength(520);
    expect(new Set(big.map((l) => l.split(",")[0])).size).toBe(520);
  });

  test('the count of a text search stops at 1,000 ("1,000+"); other filters count on to 10,000', async () => {
    const many = `${prefix}-many-${randomUUID().slice(0, 6)}`;
    const placer = await makeStaff(["buyer"]);
    const at = Date.now();
    await db().order.createMany({
      data: Array.from({ length: 1_003 }, (_, i) => ({
        id: `ord_${many}_${i}`,
        clientReference: `${many}-${i}`,
        status: i < 1_002 ? "processing" : "failed",
        totalMinor: 100n,
        currency: "USD",
        lines: [],
        placedById: i < 1_002 ? placer.staffId : null,
        upstreamCreatedAt: new Date(at - i * 1000),
        upstreamUpdatedAt: new Date(at),
      })),
    });
    expect(await countOrdersCapped(viewer, filter({ reference: many }))).toEqual({ total: 1_000, capped: true });
    expect(await countOrdersCapped(viewer, filter({ reference: `${many}-1002` }))).toEqual({ total: 1, capped: false });
    // The same rows found without searching text are counted exactly.
    expect(await countOrdersCapped(viewer, filter({ reference: undefined, placedBy: placer.staffId }))).toEqual({
      total: 1_002,
      capped: false,
    });
  });

  test('the list\'s "Revealed n×" flag counts answered reveals and those still unanswered, not refused ones', async () => {
    const staff = await makeStaff(["support"]);
    const [twice, once, never] = [`ord_${prefix}_rv1`, `ord_${prefix}_rv2`, `ord_${prefix}_rv3`];
    const reveal = (orderId: string, state: string) =>
      db().codeReveal.create({
        data: {
          idempotencyKey: randomUUID(),
          orderId,
          staffId: staff.staffId,
          ticket: "SUP-1",
          reason: "Customer asked again",
          correlationId: randomUUID(),
          state,
        },
      });
    for (const [orderId, state] of [
      [twice, "succeeded"],
      [twice, "started"],
      [twice, "failed"],
      [once, "succeeded"],
      [never, "failed"],
    ] as const)
      await reveal(orderId, state);

    const counts = await revealCounts([twice, once, never, `ord_${prefix}_none`]);
    expect(Object.fromEntries(counts)).toEqual({ [twice]: 2, [once]: 1 });
    expect(await revealCounts([])).toEqual(new Map());
  });
});
