import { z } from "zod";
import { formatFaceValue } from "@/lib/catalog/face-value";
import { minorToDecimal } from "@/lib/money";

/**
 * What a spend request buys, line by line, as the buyer asked for it: stored on the request
 * when it is written (lib/spend/describe-spend-line.ts), so the approver sees the product, the
 * variant or face value, the quantity and the prices the buyer saw, not what the catalog says
 * by the time they look. Pure: the card's words and the stored shape, unit-tested.
 */
const minor = z.string().regex(/^\d+$/);
/** How the total was set: the buyer's quote, a price the app asked for on submission, or the buyer's own ceiling. */
export const PRICED_BY = ["quote", "price", "ceiling"] as const;
export type PricedBy = (typeof PRICED_BY)[number];

export const storedSpendLine = z.object({
  productId: z.string(),
  productName: z.string().nullable(),
  variantId: z.string().nullable(),
  variantLabel: z.string().nullable(),
  faceValue: z.number().nullable(),
  faceCurrency: z.string().nullable(),
  quantity: z.number().int().positive(),
  unitMinor: minor.nullable(),
  totalMinor: minor,
  currency: z.string(),
  pricedBy: z.enum(PRICED_BY),
  pricedAt: z.string(),
});
export type StoredSpendLine = z.infer<typeof storedSpendLine>;

export type SpendLineView = {
  productId: string;
  /** Null when the catalog could not be read at the time (the id is shown instead). */
  productName: string | null;
  /** The variant ("$100") or face value ("COP 5,000") bought; null when not known. */
  option: string | null;
  quantity: number;
  /** Decimal amounts in `currency`; a unit price is null when the total does not divide by the quantity. */
  unit: string | null;
  total: string;
  currency: string;
  pricedBy: PricedBy;
  pricedAt: string;
};

/** The unit price of a line: the total divided by the quantity when it divides exactly, else the list price if known. */
export function unitMinorOf(totalMinor: bigint, quantity: number, listedUnitMinor: bigint | null): bigint | null {
  if (quantity > 0 && totalMinor % BigInt(quantity) === 0n) return totalMinor / BigInt(quantity);
  return listedUnitMinor;
}

export function toSpendLineView(line: StoredSpendLine): SpendLineView {
  const option =
    line.variantLabel ?? (line.faceValue !== null ? formatFaceValue(line.faceValue, line.faceCurrency) : line.variantId);
  return {
    productId: line.productId,
    productName: line.productName,
    option,
    quantity: line.quantity,
    unit: line.unitMinor === null ? null : minorToDecimal(BigInt(line.unitMinor), line.currency),
    total: minorToDecimal(BigInt(line.totalMinor), line.currency),
    currency: line.currency,
    pricedBy: line.pricedBy,
    pricedAt: line.pricedAt,
  };
}

/** The stored lines, or null when there are none (a bulk file, a request written before lines were kept). */
export function readSpendLines(json: unknown): SpendLineView[] | null {
  const parsed = z.array(storedSpendLine).min(1).safeParse(json);
  return parsed.success ? parsed.data.map(toSpendLineView) : null;
}

const storedItem = z.object({
  productId: z.string(),
  variantId: z.string().nullish(),
  value: z.number().nullish(),
  quantity: z.number().int().positive(),
  currency: z.string(),
});

/**
 * For a request written before lines were kept: what its stored order says (the product id,
 * variant or value, quantity) with the request's total, priced when it was asked.
 */
export function linesFromOrderRequest(
  orderRequest: unknown,
  total: { currency: string; amountMinor: bigint } | undefined,
  requestedAt: Date,
): SpendLineView[] {
  const item = storedItem.safeParse((orderRequest as { item?: unknown } | null)?.item);
  if (!item.success || !total) return [];
  const { productId, variantId, value, quantity } = item.data;
  const unit = unitMinorOf(total.amountMinor, quantity, null);
  return [
    toSpendLineView({
      productId,
      productName: null,
      variantId: variantId ?? null,
      variantLabel: null,
      faceValue: value ?? null,
      faceCurrency: null,
      quantity,
      unitMinor: unit === null ? null : unit.toString(),
      totalMinor: total.amountMinor.toString(),
      currency: total.currency,
      pricedBy: "price",
      pricedAt: requestedAt.toISOString(),
    }),
  ];
}
