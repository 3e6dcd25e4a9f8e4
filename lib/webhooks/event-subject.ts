/**
 * What an event is about, in a line a person scans: the order (reference and id), or the
 * amount credited or withdrawn. Read from the stored payload's `data`; unknown shapes give
 * null rather than a guess.
 */
export type EventSubject = { text: string; orderId: string | null };

export function eventSubject(payload: unknown): EventSubject | null {
  const data = isRecord(payload) && isRecord(payload.data) ? payload.data : null;
  if (!data) return null;
  const str = (key: string) => (typeof data[key] === "string" ? (data[key] as string) : null);
  const orderId = str("orderId");
  if (orderId) {
    const reference = str("clientReference");
    return { text: reference ? `${reference} (${orderId})` : orderId, orderId };
  }
  const amount = typeof data.amount === "number" || typeof data.amount === "string" ? String(data.amount) : null;
  const currency = str("currency");
  const withdrawal = str("withdrawalId") ?? str("id");
  if (amount && currency) return { text: `${amount} ${currency}${withdrawal ? ` · ${withdrawal}` : ""}`, orderId: null };
  return withdrawal ? { text: withdrawal, orderId: null } : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
