"use client";

import { useQuery } from "@tanstack/react-query";
import { readAvailableMinor } from "./available-funds";

/** After a not-enough-funds refusal: what the order needs and what the wallet has now. */
export function FundsShortfall({
  currency,
  neededMinor,
  money,
}: {
  currency: string;
  neededMinor: bigint | null;
  money: (minor: bigint) => string;
}) {
  const funds = useQuery({
    queryKey: ["funds", currency],
    queryFn: () => readAvailableMinor(currency),
    staleTime: 0,
  });
  const available = funds.data ?? null;
  return (
    <span className="mt-1 block" data-testid="funds-shortfall">
      {neededMinor !== null ? (
        <>
          This order needs <strong>{money(neededMinor)}</strong>;{" "}
        </>
      ) : null}
      {available !== null ? (
        <>
          the wallet has <strong>{money(available)}</strong> available.
        </>
      ) : funds.isPending ? (
        "reading the balance…"
      ) : (
        "the balance could not be read."
      )}
    </span>
  );
}
