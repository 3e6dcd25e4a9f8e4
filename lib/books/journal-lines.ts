import type { BookAccount } from "./account-words";

/**
 * One wallet movement as the journal books it: the movement (or the part of it not booked in an
 * earlier month) with what the journal's words need. `deltaMinor` is the change of the wallet's
 * available balance, as WalletMovement keeps it (prisma/migrations/20261127120000_wallet_movements).
 */
export type BookedMovement = {
  sourceId: string;
  kind: string;
  currency: string;
  at: Date;
  deltaMinor: bigint;
  feeMinor: bigint | null;
  reference: string | null;
  /** It happened in a month already locked when it reached the app, so it is booked in a later one. */
  late: boolean;
};

export type JournalLine = {
  /** The journal's day, `YYYY-MM-DD`: the movement's day, or the booking month's first day when late. */
  date: string;
  currency: string;
  account: BookAccount;
  debitMinor: bigint;
  creditMinor: bigint;
  description: string;
  orderId: string;
  clientReference: string;
  depositId: string;
  withdrawalId: string;
  late: boolean;
};

/** Each kind's postings (debit positive) for a movement of `d`, and its words; the postings add up to zero. */
const RULES: Record<
  string,
  { natural: 1n | -1n | 0n; words: string; post: (d: bigint, fee: bigint) => [BookAccount, bigint][] }
> = {
  credit: {
    natural: 1n,
    words: "Deposit credited to the supplier wallet",
    post: (d) => [
      ["wallet", d],
      ["bankClearing", -d],
    ],
  },
  order: {
    natural: -1n,
    words: "Order placed, paid from the supplier wallet",
    post: (d) => [
      ["costOfGoods", -d],
      ["wallet", d],
    ],
  },
  order_release: {
    natural: 1n,
    words: "Order failed, its charge released",
    post: (d) => [
      ["wallet", d],
      ["costOfGoods", -d],
    ],
  },
  refund: {
    natural: 1n,
    words: "Order refunded by the supplier",
    post: (d) => [
      ["wallet", d],
      ["costOfGoods", -d],
    ],
  },
  withdrawal: {
    natural: -1n,
    words: "Withdrawal to the bank",
    post: (d, fee) => [
      ["bankClearing", -d - fee],
      ["fees", fee],
      ["wallet", d],
    ],
  },
  withdrawal_release: {
    natural: 1n,
    words: "Withdrawal cancelled, its amount returned",
    post: (d, fee) => [
      ["wallet", d],
      ["bankClearing", -d + fee],
      ["fees", -fee],
    ],
  },
  reconciliation_difference: {
    natural: 0n,
    words: "Unexplained reconciliation difference, to suspense",
    post: (d) => [
      ["wallet", d],
      ["suspense", -d],
    ],
  },
};

const ORDER_KINDS = new Set(["order", "order_release", "refund"]);
const WITHDRAWAL_KINDS = new Set(["withdrawal", "withdrawal_release"]);

/**
 * The journal lines of one movement, booked on `bookingDay`. A withdrawal's fee goes to the fees
 * account and the rest to bank clearing; a part of a movement running against its kind (an
 * amount corrected after its month was locked) is described as a correction.
 */
export function journalLines(m: BookedMovement, bookingDay: string): JournalLine[] {
  const rule = RULES[m.kind];
  if (!rule) throw new Error(`no journal rule for the movement kind ${m.kind}`);
  const magnitude = m.deltaMinor < 0n ? -m.deltaMinor : m.deltaMinor;
  const fee = m.feeMinor !== null && m.feeMinor <= magnitude ? (m.deltaMinor < 0n ? m.feeMinor : -m.feeMinor) : 0n;
  const signedFee = m.kind === "withdrawal_release" ? -fee : fee;
  const day = m.at.toISOString().slice(0, 10);
  const against = rule.natural !== 0n && m.deltaMinor * rule.natural < 0n;
  const words =
    m.kind === "reconciliation_difference"
      ? `Unexplained difference in the reconciliation of ${m.sourceId.slice(0, 10)}, to suspense`
      : rule.words;
  const description = `${m.late ? `Late, from ${day}: ` : ""}${against ? "Correction: " : ""}${words}`;
  const refs = {
    orderId: ORDER_KINDS.has(m.kind) ? m.sourceId : "",
    clientReference: ORDER_KINDS.has(m.kind) ? (m.reference ?? "") : "",
    depositId: m.kind === "credit" ? m.sourceId : "",
    withdrawalId: WITHDRAWAL_KINDS.has(m.kind) ? m.sourceId : "",
  };
  return rule
    .post(m.deltaMinor, signedFee)
    .filter(([, amount]) => amount !== 0n)
    .map(([account, amount]) => ({
      date: bookingDay,
      currency: m.currency,
      account,
      debitMinor: amount > 0n ? amount : 0n,
      creditMinor: amount < 0n ? -amount : 0n,
      description: account === "fees" ? `${m.late ? `Late, from ${day}: ` : ""}Withdrawal fee` : description,
      ...refs,
      late: m.late,
    }));
}
