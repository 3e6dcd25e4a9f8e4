import type { ProductView } from "@/lib/catalog/product-view";
import { faceCurrencyOf, formatFaceValue } from "@/lib/catalog/face-value";
import { FIELD_ERROR, Field } from "@/components/ui/field";
import { gridValues } from "./purchase-rules";
import type { FieldErrors } from "./use-order-fields";
import { Select } from "@/components/ui/field";

/**
 * What is bought: one of the product's variants (at its price), or a face value from its
 * range, as a list when the grid is short. A value range is chosen in the card's face
 * currency; what it costs in the sell currency comes with the quote.
 */
export function ItemChoice({
  product,
  variantId,
  value,
  errors,
  onChange,
  money,
}: {
  product: ProductView;
  variantId: string;
  value: string;
  errors: FieldErrors;
  onChange: (name: "variantId" | "value", value: string) => void;
  money: (amount: number) => string;
}) {
  if (product.variants.length > 0) {
    return (
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Variant</legend>
        <div className="mt-2 space-y-2">
          {product.variants.map((v) => (
            <label
              key={v.id}
              className="flex items-center justify-between gap-3 rounded-md px-3 py-2 text-sm ring-1 ring-slate-200 has-[:checked]:ring-2 has-[:checked]:ring-brand-500"
            >
              <span className="flex items-center gap-2">
                <input
                  type="radio"
                  name="variant"
                  value={v.id}
                  checked={variantId === v.id}
                  onChange={() => onChange("variantId", v.id)}
                />
                {v.displayValue}
              </span>
              <span className="font-medium">{money(v.price)}</span>
            </label>
          ))}
        </div>
        {errors.variantId ? <p className={`mt-1 ${FIELD_ERROR}`}>{errors.variantId}</p> : null}
      </fieldset>
    );
  }

  const faceCurrency = faceCurrencyOf(product);
  const face = (amount: number) => formatFaceValue(amount, faceCurrency);
  const label = `Face value${faceCurrency ? ` (${faceCurrency})` : ""}`;
  const grid = gridValues(product);
  if (grid) {
    return (
      <div className="space-y-1">
        <label htmlFor="field-value" className="block text-sm font-medium text-slate-700">
          {label}
        </label>
        <Select id="field-value" value={value} onChange={(e) => onChange("value", e.target.value)}>
          {grid.map((v) => (
            <option key={v} value={v}>
              {face(v)}
            </option>
          ))}
        </Select>
        <p className="text-xs text-slate-500">The price in {product.currency} comes with the quote.</p>
        {errors.value ? (
          <p className={FIELD_ERROR} data-testid="error-value">
            {errors.value}
          </p>
        ) : null}
      </div>
    );
  }

  return (
    <Field
      label={label}
      name="value"
      type="number"
      inputMode="decimal"
      min={product.minimumValue ?? undefined}
      max={product.maximumValue ?? undefined}
      step={product.valueStep ?? undefined}
      value={value}
      onChange={(e) => onChange("value", e.target.value)}
      error={errors.value ? [errors.value] : undefined}
      hint={`From ${face(product.minimumValue ?? 0)} to ${face(product.maximumValue ?? 0)}${product.valueStep ? ` in steps of ${face(product.valueStep)}` : ""}. The price in ${product.currency} comes with the quote.`}
    />
  );
}
