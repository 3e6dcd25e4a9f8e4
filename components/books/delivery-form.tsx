"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { Select, FIELD_ERROR } from "@/components/ui/field";
import { FormOutcome } from "@/components/ui/notice";
import type { Delivery } from "@/lib/books/delivery-settings";

type Person = { id: string; name: string; email: string };
type Formats = { value: Delivery["format"]; label: string }[];

/** Finance chooses who gets the monthly journal's link by email, and in which format. */
export function DeliveryForm({ initial, people, formats }: { initial: Delivery; people: Person[]; formats: Formats }) {
  const router = useRouter();
  const [delivery, setDelivery] = useState(initial);
  const save = useApiMutation((body: Delivery) => ({ method: "PUT", url: "/api/books/delivery", body }), {
    confirming: () => "Change who receives the monthly journal",
    onSuccess: () => router.refresh(),
  });
  const toggle = (id: string, on: boolean) =>
    setDelivery((d) => ({ ...d, recipientIds: on ? [...d.recipientIds, id] : d.recipientIds.filter((r) => r !== id) }));
  const recipientsError = save.problem?.errors?.recipientIds;
  return (
    <form
      noValidate
      aria-label="Monthly journal by email"
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        save.send(delivery);
      }}
    >
      <FormOutcome problem={save.problem} saved={save.saved} />
      <div className="space-y-4">
        <div className="grid gap-3 sm:grid-cols-2">
          <Choice
            label="Send"
            value={delivery.schedule}
            options={[
              { value: "monthly", label: "Monthly, on the 1st, for the month before" },
              { value: "off", label: "Never" },
            ]}
            onChange={(schedule) => setDelivery({ ...delivery, schedule })}
          />
          <Choice
            label="Format"
            value={delivery.format}
            options={formats}
            onChange={(format) => setDelivery({ ...delivery, format })}
          />
        </div>
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">To</legend>
          <p className="text-xs text-slate-500">
            Each gets an email with a link that works for 7 days, after signing in. The file itself is never attached.
          </p>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {people.map((p) => (
              <label key={p.id} className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5"
                  name="recipient"
                  value={p.id}
                  checked={delivery.recipientIds.includes(p.id)}
                  onChange={(e) => toggle(p.id, e.target.checked)}
                />
                <span className="min-w-0">
                  <span className="font-medium">{p.name}</span>
                  <span className="block truncate text-xs text-slate-500">{p.email}</span>
                </span>
              </label>
            ))}
          </div>
          {recipientsError ? <p className={`mt-1 ${FIELD_ERROR}`}>{recipientsError.join(" ")}</p> : null}
        </fieldset>
      </div>
      <Button type="submit" disabled={save.pending}>
        {save.pending ? "Saving…" : "Save delivery"}
      </Button>
    </form>
  );
}

/** A labelled select of a few named values. */
function Choice<V extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: V;
  options: { value: V; label: string }[];
  onChange: (value: V) => void;
}) {
  return (
    <label className="block text-sm">
      <span className="font-medium text-slate-700">{label}</span>
      <Select className="mt-1" value={value} onChange={(e) => onChange(e.target.value as V)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
    </label>
  );
}
