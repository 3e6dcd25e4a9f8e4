"use client";

import type { FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormOutcome } from "@/components/ui/notice";
import { Select } from "@/components/ui/field";

/** Sets one person's limits (or the workspace default) in one currency; empty amounts mean no limit. */
export function SpendLimitForm({ people, currencies }: { people: { id: string; name: string }[]; currencies: string[] }) {
  const router = useRouter();
  const save = useApiMutation((body: Record<string, string>) => ({ method: "PUT", url: "/api/spend-limits", body }), {
    onSuccess: () => router.refresh(),
  });
  const { pending, problem, saved } = save;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    save.send({
      scope: text("scope"),
      currency: text("currency"),
      perOrder: text("perOrder"),
      perDay: text("perDay"),
      perMonth: text("perMonth"),
    });
  }

  const err = (key: string) => problem?.errors?.[key];
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Spend limits">
      <FormOutcome problem={problem} saved={saved} />
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="block text-sm font-medium text-slate-700">
          Applies to
          <Select name="scope" className="mt-1 font-normal" defaultValue="workspace">
            <option value="workspace">Workspace default (buyers without their own)</option>
            {people.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </Select>
        </label>
        <label className="block text-sm font-medium text-slate-700">
          Currency
          <Select name="currency" className="mt-1 font-normal">
            {currencies.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </Select>
        </label>
      </div>
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label="Per order" name="perOrder" inputMode="decimal" error={err("perOrder")} hint="Empty: no limit" />
        <Field label="Per day (UTC)" name="perDay" inputMode="decimal" error={err("perDay")} hint="Empty: no limit" />
        <Field label="Per month (UTC)" name="perMonth" inputMode="decimal" error={err("perMonth")} hint="Empty: no limit" />
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Save limits"}
      </Button>
    </form>
  );
}
