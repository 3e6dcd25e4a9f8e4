import { iso } from "./clock";
import { toAmount } from "./money";
import { conflict } from "./problem";
import type { Balance, Workspace } from "./state";

// Balances per currency, in cents. Every movement goes through one of these functions; each runs synchronously
// inside a single request or timer callback, so concurrent orders can never interleave between check and write.
//   available  → spendable now
//   reserved   → held for orders in `reserved`/`processing`
//   withdrawalHold → held for withdrawals in `requested`

// Reading a balance never adds a row: a currency appears in the wallet with its first movement, so a
// refused request (an order or withdrawal in a currency never held) leaves the wallet as it was.
export function balanceOf(ws: Workspace, currency: string): Balance {
  return ws.balances.get(currency) ?? { availableCents: 0, reservedCents: 0, withdrawalHoldCents: 0, updatedAtMs: 0 };
}

function assertSane(balance: Balance): void {
  if (balance.availableCents < 0 || balance.reservedCents < 0 || balance.withdrawalHoldCents < 0) {
    throw new Error("wallet invariant broken: a negative balance component");
  }
}

// The change is worked out on a copy and stored only when it leaves the balance sane.
function move(ws: Workspace, currency: string, now: number, change: (b: Balance) => void): Balance {
  const balance = { ...balanceOf(ws, currency) };
  change(balance);
  assertSane(balance);
  balance.updatedAtMs = now;
  ws.balances.set(currency, balance);
  return balance;
}

export function reserveForOrder(ws: Workspace, currency: string, cents: number, now: number): void {
  const balance = balanceOf(ws, currency);
  if (balance.availableCents < cents) {
    throw conflict(
      "insufficient_funds",
      `The ${currency} wallet's available balance does not cover ${toAmount(cents)} ${currency}.`,
      {
        availableBalance: toAmount(balance.availableCents),
        requiredAmount: toAmount(cents),
        currency,
      },
    );
  }
  move(ws, currency, now, (b) => {
    b.availableCents -= cents;
    b.reservedCents += cents;
  });
}

export function captureReservation(ws: Workspace, currency: string, cents: number, now: number): void {
  move(ws, currency, now, (b) => {
    b.reservedCents -= cents;
  });
}

export function releaseReservation(ws: Workspace, currency: string, cents: number, now: number): void {
  move(ws, currency, now, (b) => {
    b.reservedCents -= cents;
    b.availableCents += cents;
  });
}

export function credit(ws: Workspace, currency: string, cents: number, now: number): Balance {
  return move(ws, currency, now, (b) => {
    b.availableCents += cents;
  });
}

export function holdForWithdrawal(ws: Workspace, currency: string, cents: number, now: number): void {
  const balance = balanceOf(ws, currency);
  if (balance.availableCents < cents) {
    throw conflict("withdrawal_above_balance", `The withdrawal exceeds the available ${currency} balance.`, {
      availableBalance: toAmount(balance.availableCents),
      currency,
    });
  }
  move(ws, currency, now, (b) => {
    b.availableCents -= cents;
    b.withdrawalHoldCents += cents;
  });
}

export function releaseWithdrawalHold(ws: Workspace, currency: string, cents: number, now: number): void {
  move(ws, currency, now, (b) => {
    b.withdrawalHoldCents -= cents;
    b.availableCents += cents;
  });
}

export function payOutWithdrawal(ws: Workspace, currency: string, cents: number, now: number): void {
  move(ws, currency, now, (b) => {
    b.withdrawalHoldCents -= cents;
  });
}

export function setAvailable(ws: Workspace, currency: string, cents: number, now: number): void {
  move(ws, currency, now, (b) => {
    b.availableCents = cents;
  });
}

export function balanceView(currency: string, balance: Balance): Record<string, unknown> {
  const total = balance.availableCents + balance.reservedCents + balance.withdrawalHoldCents;
  return {
    currency,
    availableBalance: toAmount(balance.availableCents),
    reservedBalance: toAmount(balance.reservedCents),
    pendingWithdrawalBalance: toAmount(balance.withdrawalHoldCents),
    totalBalance: toAmount(total),
    updatedAtUtc: balance.updatedAtMs ? iso(balance.updatedAtMs) : null,
  };
}
