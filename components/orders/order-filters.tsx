import { FILTER_INPUT as input, FilterActions, FilterField, FilterForm } from "@/components/ui/filter-form";
import { ORDER_STATUSES, ORDER_STATUS_LABELS } from "@/lib/orders/states";

export type OrderFilterValues = {
  status?: readonly string[];
  from?: string;
  to?: string;
  product?: string;
  placedBy?: string;
  reference?: string;
  origin?: string;
};

export type StaffOption = { id: string; name: string; email: string };

/**
 * A plain GET form: the URL holds the filters, so a filtered list can be shared, reloaded
 * and exported, and works before any script loads. "Placed by" is a staff picker for people
 * who may read the staff list, otherwise a "placed by me" toggle.
 */
export function OrderFilters({
  values,
  staff,
  selfId,
}: {
  values: OrderFilterValues;
  staff: StaffOption[] | null;
  selfId: string;
}) {
  const statuses = new Set(values.status ?? []);
  return (
    <FilterForm label="Filter orders" path="/orders" layout="space-y-3">
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <FilterField label="Client reference" className="lg:col-span-2">
          <input
            type="search"
            name="reference"
            defaultValue={values.reference ?? ""}
            maxLength={100}
            placeholder="Part of a reference"
            className={input}
          />
        </FilterField>
        <FilterField label="Product">
          <input
            type="search"
            name="product"
            defaultValue={values.product ?? ""}
            maxLength={200}
            placeholder="Product name or id"
            className={input}
          />
        </FilterField>
        <FilterField label="Origin">
          <select name="origin" defaultValue={values.origin ?? ""} className={input} data-testid="orders-origin-filter">
            <option value="">Anywhere</option>
            <option value="here">Placed here</option>
            <option value="elsewhere">Through the API elsewhere</option>
          </select>
        </FilterField>
        {staff ? (
          <FilterField label="Placed by">
            <select name="placedBy" defaultValue={values.placedBy === selfId ? "me" : (values.placedBy ?? "")} className={input}>
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
      </div>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <FilterField label="From (UTC)">
          <input type="date" name="from" defaultValue={values.from ?? ""} className={input} />
        </FilterField>
        <FilterField label="To (UTC, inclusive)">
          <input type="date" name="to" defaultValue={values.to ?? ""} className={input} />
        </FilterField>
        <fieldset className="text-sm lg:col-span-2">
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
    </FilterForm>
  );
}
