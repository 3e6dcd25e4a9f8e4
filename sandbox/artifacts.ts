import { randomInt } from "node:crypto";
import type { Catalog } from "./catalog";
import { randomToken } from "./ids";
import type { Artifact, Order } from "./state";

// Fulfilment artifacts: generated once per unit at fulfilment, shown only by the reveal call.

const DAY_MS = 86_400_000;

function digits(count: number): string {
  let out = "";
  for (let i = 0; i < count; i++) out += String(randomInt(10));
  return out;
}

function giftCode(): string {
  const token = randomToken(16).toUpperCase();
  return `${token.slice(0, 4)}-${token.slice(4, 8)}-${token.slice(8, 12)}-${token.slice(12, 16)}`;
}

export function generateArtifacts(catalog: Catalog, order: Order, now: number): Artifact[] {
  const artifacts: Artifact[] = [];
  order.lines.forEach((line, lineIndex) => {
    const withPin = catalog.byId.get(line.productId)?.withPin ?? false;
    for (let unitIndex = 0; unitIndex < line.quantity; unitIndex++) {
      const at = { lineIndex, unitIndex };
      if (line.productType === "esim") {
        const matching = randomToken(20).toUpperCase();
        artifacts.push({
          type: "claim-url",
          value: `https://esim.sandbox.invalid/claim/${randomToken(24)}`,
          expiresAtMs: now + 30 * DAY_MS,
          ...at,
        });
        artifacts.push({ type: "activation-code", value: `LPA:1$smdp.sandbox.invalid$${matching}`, expiresAtMs: null, ...at });
      } else if (line.productType === "phone-top-up") {
        artifacts.push({ type: "reference", value: `TOPUP-${digits(12)}`, expiresAtMs: null, ...at });
      } else {
        artifacts.push({ type: "code", value: giftCode(), expiresAtMs: now + 365 * DAY_MS, ...at });
        if (withPin) artifacts.push({ type: "pin", value: digits(8), expiresAtMs: null, ...at });
      }
    }
  });
  return artifacts;
}
