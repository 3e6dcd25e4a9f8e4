/**
 * An id people quote (an order's, a reference for support), shortened to its first characters
 * on the page. The whole id stays in the text, hidden from sight only: screen readers read it,
 * copying the short form copies all of it, and a pointer shows it as a tooltip.
 */
export function ShortId({ id, keep = 12 }: { id: string; keep?: number }) {
  if (id.length <= keep + 4) return <span className="font-mono">{id}</span>;
  return (
    <span className="font-mono" title={id}>
      {id.slice(0, keep)}
      <span className="sr-only">{id.slice(keep)}</span>
      <span aria-hidden="true">…</span>
    </span>
  );
}
