import { Link } from "@/components/ui/link";
import { Button } from "@/components/ui/button";
import { DateRangeFields, FILTER_INPUT as input, FilterActions, FilterField, FilterForm } from "@/components/ui/filter-form";
import { FilterFold } from "@/components/ui/filter-fold";
import { ORDER_STATUSES, ORDER_STATUS_LABELS } from "@/lib/orders/states";

export type OrderFilterValues = {
  q?: string;
  status?: readonly string[];
  from?: string;
  to?: string;
  product?: string;
  placedBy?: string;
  reference?: string;
  origin?: string;
};

export type StaffOption = { id: string; name: string; email: string };

/** A narrowing that older links carry (`?reference=`, `?product=`) but the form no longer asks for, with a link that drops it. */
export type KeptFilter = { name: "reference" | "product"; label: string; value: string; removeHref: string };

/** How many of the folded filters are set: the fold starts open and says so when any is. */
export function activeFoldedFilters(values: OrderFilterValues): number {
  return [values.status?.length, values.from, values.to, values.placedBy, values.origin].filter(Boolean).length;
}

/**
 * A plain GET form: the URL holds the filters, so a filtered list can be shared, reloaded
 * and exported, and works before any script loads. One search box takes an order id, a
 * client reference or a product; the other filters fold away on a phone. "Placed by" is a
 * staff picker for people who may read the staff list, otherwise a "placed by me" toggle.
 */
export function OrderFilters({
  values,
  staff,
  selfId,
  kept = [],
}: {
  values: OrderFilterValues;
  staff: StaffOption[] | null;
  selfId: string;
  kept?: KeptFilter[];
}) {
  const statuses = new Set(values.status ?? []);
  return (
    <FilterForm label="Filter orders" path="/orders" layout="space-y-3">
      <div className="flex items-end gap-2">
        <FilterField label="Order id, client reference or product" className="min-w-0 flex-1">
          <input
            type="search"
            name="q"
            defaultValue={values.q ?? ""}
            maxLength={200}
            placeholder="ord_… or a few letters"
            className={input}
            data-testid="orders-search"
          />
        </FilterField>
        <Button type="submit">Search</Button>
      </div>
      {kept.map((filter) => (
        <p key={filter.name} className="text-sm text-slate-600" data-testid={`orders-kept-${filter.name}`}>
          <input type="hidden" name={filter.name} value={filter.value} />
          Also narrowed to {filter.label} containing “<span className="font-medium text-slate-900">{filter.value}</span>”.{" "}
          <Link href={filter.removeHref} className="font-medium text-brand-600 hover:underline">
            Remove
          </Link>
        </p>
      ))}
      <FilterFold active={activeFoldedFilters(values)}>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <FilterField label="Origin">
            <select name="origin" defaultValue={values.origin ?? ""} className={input} data-testid="orders-origin-filter">
              <option value="">Anywhere</option>
              <option value="here">Placed here</option>
              <option value="elsewhere">Through the API elsewhere</option>
            </select>
          </FilterField>
          {staff ? (
            <FilterField label="Placed by">
              <select
                name="placedBy"
                defaultValue={values.placedBy === selfId ? "me" : (values.placedBy ?? "")}
                className={input}
              >
                <option value="">Anyone</option>
                <option value="me">Me</option>
                {staff
                  .filter((s) => s.id !== selfId)
                  .map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.name} ({s.email})
                    </option>
                  ))}
              </select>
            </FilterField>
          ) : (
            <label className="flex items-end gap-2 pb-2 text-sm">
              <input
                type="checkbox"
                name="placedBy"
                value={values.placedBy && values.placedBy !== "me" ? values.placedBy : "me"}
                defaultChecked={!!values.placedBy}
                className="h-4 w-4 rounded border-slate-300"
              />
              <span className="font-medium text-slate-700">
                {values.placedBy && values.placedBy !== "me" && values.placedBy !== selfId
                  ? "Placed by the selected person"
                  : "Only orders I placed"}
              </span>
            </label>
          )}
          <DateRangeFields from={values.from} to={values.to} />
        </div>
        <div className="flex flex-wrap items-end justify-between gap-3">
          <fieldset className="text-sm">
            <legend className="font-medium text-slate-700">Status</legend>
            <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
              {ORDER_STATUSES.map((status) => (
                <label key={status} className="inline-flex items-center gap-1.5">
                  <input
                    type="checkbox"
                    name="status"
                    value={status}
                    defaultChecked={statuses.has(status)}
                    className="h-4 w-4 rounded border-slate-300"
                  />
                  {ORDER_STATUS_LABELS[status]}
                </label>
              ))}
            </div>
          </fieldset>
          <FilterActions path="/orders" />
        </div>
      </FilterFold>
    </FilterForm>
  );
}
