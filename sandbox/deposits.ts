import { iso } from "./clock";
import type { Sandbox } from "./context";
import { newId, randomHex } from "./ids";
import { toAmount } from "./money";
import { notFound } from "./problem";
import type { Deposit, DepositAddress, Workspace } from "./state";
import { credit } from "./wallet";

// The permanent BSC-USD deposit address and the deposit history. A confirmed deposit (simulated by the
// control plane) credits the wallet and fires wallet.credited.

export const BSC_USD = "bsc-usd";
export const REQUIRED_CONFIRMATIONS = 15;
const SECONDS_PER_BLOCK = 3;

// PUT creates the address once; every later call returns the same one (created = false).
export function ensureDepositAddress(sb: Sandbox, ws: Workspace): { address: DepositAddress; created: boolean } {
  const existing = ws.depositAddresses.get(BSC_USD);
  if (existing) return { address: existing, created: false };
  const address: DepositAddress = {
    network: "BSC",
    asset: "BSC-USD",
    currency: "USD",
    address: `0x${randomHex(20)}`,
    createdAtMs: sb.clock.now(),
  };
  ws.depositAddresses.set(BSC_USD, address);
  sb.changed();
  return { address, created: true };
}

export function readDepositAddress(ws: Workspace, network: string): DepositAddress {
  const address = ws.depositAddresses.get(network);
  if (!address) throw notFound(`No ${network} deposit address has been requested for this workspace yet; PUT it first.`);
  return address;
}

export function depositAddressView(address: DepositAddress): Record<string, unknown> {
  return {
    network: address.network,
    asset: address.asset,
    currency: address.currency,
    address: address.address,
    requiredConfirmations: REQUIRED_CONFIRMATIONS,
    createdAtUtc: iso(address.createdAtMs),
  };
}

// USD arrives on chain (BSC-USD) unless told otherwise; any other currency, or USD with
// onChain false, is recorded as a payment on another agreed rail (no deposit address needed).
export function recordDeposit(sb: Sandbox, ws: Workspace, amountCents: number, currency: string, chain?: boolean): Deposit {
  const now = sb.clock.now();
  const onChain = currency === "USD" && chain !== false;
  const toAddress = onChain ? ensureDepositAddress(sb, ws).address.address : null;
  const deposit: Deposit = {
    id: newId("dep"),
    seq: ws.deposits.length + 1,
    rail: onChain ? "bsc-usd" : "bank-transfer",
    transactionHash: onChain ? `0x${randomHex(32)}` : null,
    reference: onChain ? null : `BT-${randomHex(6).toUpperCase()}`,
    fromAddress: onChain ? `0x${randomHex(20)}` : null,
    toAddress,
    amountCents,
    currency,
    occurredAtMs: now,
  };
  ws.deposits.push(deposit);
  const balance = credit(ws, currency, amountCents, now);
  sb.emit(ws.id, "wallet.credited", {
    amount: toAmount(amountCents),
    currency,
    availableBalance: toAmount(balance.availableCents),
    occurredAtUtc: iso(now),
  });
  sb.changed();
  return deposit;
}

export function depositView(deposit: Deposit, now: number): Record<string, unknown> {
  const onChain = deposit.rail === "bsc-usd";
  const blocksSince = Math.max(0, Math.floor((now - deposit.occurredAtMs) / 1000 / SECONDS_PER_BLOCK));
  return {
    id: deposit.id,
    rail: deposit.rail,
    network: onChain ? "BSC" : null,
    asset: onChain ? "BSC-USD" : null,
    transactionHash: deposit.transactionHash,
    reference: deposit.reference,
    fromAddress: deposit.fromAddress,
    toAddress: deposit.toAddress,
    amount: toAmount(deposit.amountCents),
    currency: deposit.currency,
    confirmations: onChain ? REQUIRED_CONFIRMATIONS + blocksSince : null,
    status: "credited",
    occurredAtUtc: iso(deposit.occurredAtMs),
  };
}
