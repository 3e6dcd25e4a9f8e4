import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";

export type PriceHistory = {
  /** The face value charted ("$100"): the dearest, whose move the watch reports (./price-move.ts). */
  faceValue: string;
  currency: string;
  /** When this history was read: the last price holds until then. */
  asOf: string;
  /** Each price it was seen at, oldest first (minor units as strings: JSON has no bigint). */
  points: { at: string; priceMinor: string }[];
  /** The product's last loss or return of availability the app saw, if any. */
  lastAvailabilityChange: { change: "available" | "unavailable"; at: string } | null;
};

const MAX_POINTS = 60;

/** A product's price history as the app saw it (watch passes and people's catalog reads), or null before any. */
export async function getPriceHistory(actor: Actor, productId: string): Promise<PriceHistory | null> {
  assertCan(actor, "catalog.read");
  const dearest = await db().catalogPricePoint.findFirst({ where: { productId }, orderBy: { priceMinor: "desc" } });
  if (!dearest) return null;
  const [points, availability] = await Promise.all([
    db().catalogPricePoint.findMany({
      where: { productId, variantId: dearest.variantId },
      orderBy: { observedAt: "desc" },
      take: MAX_POINTS,
    }),
    db().catalogChange.findFirst({
      where: { productId, change: { in: ["available", "unavailable"] } },
      orderBy: { detectedAt: "desc" },
    }),
  ]);
  return {
    faceValue: dearest.faceValue,
    currency: dearest.currency,
    asOf: new Date().toISOString(),
    points: points.reverse().map((p) => ({ at: p.observedAt.toISOString(), priceMinor: p.priceMinor.toString() })),
    lastAvailabilityChange: availability
      ? { change: availability.change === "available" ? "available" : "unavailable", at: availability.detectedAt.toISOString() }
      : null,
  };
}
