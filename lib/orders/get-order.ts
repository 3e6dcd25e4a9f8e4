import "server-only";
import { z } from "zod";
import { singleLineText, parseInput } from "@/lib/validation";
import { db } from "@/lib/db/client";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { AppError } from "@/lib/errors";
import { toMinor } from "@/lib/money";
import { lookupOrder } from "./lookup-order";
import { toOrderView, type OrderView } from "./order-view";

/** One line as the order page shows it; amounts are minor units as strings (JSON-safe). */
export type OrderLineView = {
  productId: string;
  variantId: string | null;
  productName: string;
  variantLabel: string;
  quantity: number;
  currency: string;
  unitPriceMinor: string | null;
  lineTotalMinor: string | null;
  faceValueMinor: string | null;
  faceCurrency: string | null;
};

export type Placer = { id: string; name: string; email: string };
/** Where an order came from: placed in this back-office (by `placedBy`, when known), or through the API elsewhere (a storefront). */
export type OrderOrigin = "here" | "elsewhere";
export type OrderDetail = Omit<OrderView, "lines"> & { lines: OrderLineView[]; placedBy: Placer | null; origin: OrderOrigin };

/** Placed here: this app's idempotency ledger sent it (the key is mirrored with it) or a person is recorded. */
export function originOf(order: { placedById: string | null; idempotencyKey: string | null }): OrderOrigin {
  return order.placedById || order.idempotencyKey ? "here" : "elsewhere";
}

export const orderIdSchema = singleLineText().trim().min(1, "Enter an order id.").max(200, "Not an order id.");

// The mirror stores the upstream's lines as JSON; read them leniently so that one odd
// line (an older or thinner read) degrades to blanks instead of breaking the page.
const storedLine = z.object({
  productId: z.string(),
  variantId: z.string().nullable().optional().catch(null),
  productName: z.string().catch(""),
  variantLabel: z.string().catch(""),
  quantity: z.number().int().nonnegative().catch(0),
  unitPrice: z.number().finite().nullable().optional().catch(null),
  currency: z.string().nullable().optional().catch(null),
  faceValue: z.number().finite().nullable().optional().catch(null),
  faceCurrency: z.string().nullable().optional().catch(null),
});

/** The mirrored `lines` JSON as typed lines; amounts converted once to integer minor units. */
export function readOrderLines(json: unknown, orderCurrency: string): OrderLineView[] {
  if (!Array.isArray(json)) return [];
  return json.flatMap((raw) => {
    const parsed = storedLine.safeParse(raw);
    if (!parsed.success) return [];
    const line = parsed.data;
    const currency = line.currency ?? orderCurrency;
    const unit = safeMinor(line.unitPrice, currency);
    const faceCurrency = line.faceCurrency ?? null;
    return [
      {
        productId: line.productId,
        variantId: line.variantId ?? null,
        productName: line.productName,
        variantLabel: line.variantLabel,
        quantity: line.quantity,
        currency,
        unitPriceMinor: unit?.toString() ?? null,
        lineTotalMinor: unit === null ? null : (unit * BigInt(line.quantity)).toString(),
        faceValueMinor: faceCurrency ? (safeMinor(line.faceValue, faceCurrency)?.toString() ?? null) : null,
        faceCurrency,
      },
    ];
  });
}

function safeMinor(amount: number | null | undefined, currency: string): bigint | null {
  if (amount === null || amount === undefined) return null;
  try {
    return toMinor(amount, currency);
  } catch {
    return null;
  }
}

/**
 * One order from the local mirror, with the staff member who placed it. An id the mirror
 * lacks is asked of the upstream once and mirrored (lookupOrder); its 404 is "no such
 * order in this workspace".
 */
export async function getOrder(actor: Actor, id: unknown): Promise<OrderDetail> {
  assertCan(actor, "orders.read");
  const orderId = parseInput(orderIdSchema, id);
  let order = await db().order.findUnique({ where: { id: orderId } });
  if (!order) {
    await lookupOrder(actor, orderId);
    order = await db().order.findUnique({ where: { id: orderId } });
  }
  if (!order) throw new AppError("not_found", "There is no such order in this workspace.");
  const placer = order.placedById
    ? await db().staff.findUnique({ where: { id: order.placedById }, select: { id: true, name: true, email: true } })
    : null;
  return { ...toOrderView(order), lines: readOrderLines(order.lines, order.currency), placedBy: placer, origin: originOf(order) };
}
