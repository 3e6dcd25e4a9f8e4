/**
 * A page section's data loaded without failing the page: the section shows its own error
 * (with the reference for support) while the others render. Used by the wallet page and the
 * home page's blocks.
 */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

export const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

/** Each promise settled on its own: one section failing leaves the others shown. */
export function settleAll<T extends readonly unknown[]>(promises: {
  [K in keyof T]: Promise<T[K]>;
}): Promise<{ [K in keyof T]: Settled<T[K]> }> {
  return Promise.all(promises.map((p) => settle(p))) as Promise<{ [K in keyof T]: Settled<T[K]> }>;
}
