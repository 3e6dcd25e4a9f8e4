/**
 * Whether the database refused a statement because of the data itself — SQLSTATE class 22
 * (data exception: bad encoding, `\u0000` in jsonb, invalid JSON) or 54 (program limit:
 * nesting or size) — which the same data will meet again on every retry, as opposed to a
 * connection or lock problem that may pass. Reads Prisma's driver-adapter error
 * (meta.driverAdapterError.cause.originalCode) or a pg error's own `code`.
 */
export function sqlStateOf(error: unknown): string | undefined {
  const e = error as {
    code?: unknown;
    meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; code?: unknown } } };
  } | null;
  const cause = e?.meta?.driverAdapterError?.cause;
  // A Prisma error's own `code` is Prisma's (P2010), not the database's.
  const code = e?.meta ? (cause?.originalCode ?? cause?.code) : e?.code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

export function isDataRefusal(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state !== undefined && (state.startsWith("22") || state.startsWith("54"));
}
