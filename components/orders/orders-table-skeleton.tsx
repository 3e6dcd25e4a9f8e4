/** What the orders list shows while its rows load: the table's shape, announced as busy. */
export function OrdersTableSkeleton() {
  return (
    <div className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200" aria-busy="true" data-testid="orders-loading">
      <p className="sr-only" role="status">
        Loading orders…
      </p>
      <div className="space-y-3 motion-safe:animate-pulse" aria-hidden="true">
        <div className="h-4 w-1/3 rounded bg-slate-200" />
        {Array.from({ length: 6 }, (_, i) => (
          <div key={i} className="grid grid-cols-6 gap-4">
            {Array.from({ length: 6 }, (_, j) => (
              <div key={j} className="h-3 rounded bg-slate-100" />
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}
