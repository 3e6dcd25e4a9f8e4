import { Field } from "@/components/ui/field";
import type { FieldErrors, OrderFields } from "./use-order-fields";

type DetailName = "quantity" | "clientReference" | "phoneNumber";

/** How many, the buyer's own reference, and the number to top up for a phone top-up. */
export function OrderDetails({
  phoneTopUp,
  fields,
  errors,
  onChange,
}: {
  phoneTopUp: boolean;
  fields: Pick<OrderFields, DetailName>;
  errors: FieldErrors;
  onChange: (name: DetailName, value: string) => void;
}) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Quantity"
          name="quantity"
          type="number"
          inputMode="numeric"
          min={1}
          max={100}
          value={fields.quantity}
          onChange={(e) => onChange("quantity", e.target.value)}
          error={errors.quantity ? [errors.quantity] : undefined}
        />
        <Field
          label="Client reference"
          name="clientReference"
          value={fields.clientReference}
          maxLength={100}
          onChange={(e) => onChange("clientReference", e.target.value)}
          error={errors.clientReference ? [errors.clientReference] : undefined}
        />
      </div>
      {phoneTopUp ? (
        <Field
          label="Phone number to top up"
          name="phoneNumber"
          type="tel"
          autoComplete="off"
          placeholder="+447700900123"
          value={fields.phoneNumber}
          onChange={(e) => onChange("phoneNumber", e.target.value)}
          error={errors.phoneNumber ? [errors.phoneNumber] : undefined}
        />
      ) : null}
    </>
  );
}
