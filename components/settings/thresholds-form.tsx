"use client";

import type { FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormOutcome } from "@/components/ui/notice";
import type { SettingKey, Settings } from "@/lib/settings/schema";
import { SETTING_LABELS } from "@/lib/settings/labels";

/** The settings with one value each (not the per-currency low-balance table). */
type ScalarKey = Exclude<SettingKey, "lowBalance" | "payoutDetailsName" | "bookAccounts">;

/** Admin form for the thresholds; the server validates, stores and audits every change. */
export function ThresholdsForm({ settings, canEdit }: { settings: Settings; canEdit: boolean }) {
  const router = useRouter();
  const save = useApiMutation((body: Record<string, unknown>) => ({ method: "PUT", url: "/api/settings", body }), {
    onSuccess: () => router.refresh(),
  });
  const { pending, problem, saved } = save;
  const currencies = Object.keys(settings.lowBalance).sort();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const int = (name: string) => {
      const text = String(form.get(name) ?? "").trim();
      return /^-?\d+$/.test(text) ? Number(text) : text;
    };
    save.send({
      orderConfirmationAmount: String(form.get("orderConfirmationAmount") ?? ""),
      lowBalance: Object.fromEntries(currencies.map((c) => [c, String(form.get(`lowBalance.${c}`) ?? "")])),
      revealQuotaPerHour: int("revealQuotaPerHour"),
      revealViewSeconds: int("revealViewSeconds"),
      withdrawalApprovalHours: int("withdrawalApprovalHours"),
      payoutDetailsName: String(form.get("payoutDetailsName") ?? "").trim(),
      spendApprovalAmount: String(form.get("spendApprovalAmount") ?? "").trim(),
      spendApprovalHours: int("spendApprovalHours"),
      upstreamMoneyReservePercent: int("upstreamMoneyReservePercent"),
      upstreamPersonSharePercent: int("upstreamPersonSharePercent"),
      upstreamPersonLookupsPerMinute: int("upstreamPersonLookupsPerMinute"),
      catalogWatchThresholdPercent: int("catalogWatchThresholdPercent"),
    });
  }

  const err = (key: string) => problem?.errors?.[key];
  // One setting's field: its key names the input, its label, its value and its error.
  const field = (key: ScalarKey, inputMode: "numeric" | "decimal" | undefined, label: string = SETTING_LABELS[key]) => (
    <Field key={key} label={label} name={key} inputMode={inputMode} defaultValue={settings[key]} error={err(key)} />
  );
  const inOrderCurrency = (key: ScalarKey) => `${SETTING_LABELS[key]} (in the order's currency)`;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Thresholds">
      <FormOutcome problem={problem} saved={saved} />
      <fieldset disabled={!canEdit} className="space-y-4">
        {field("orderConfirmationAmount", "decimal", inOrderCurrency("orderConfirmationAmount"))}
        <div>
          <p className="text-sm font-medium text-slate-700">{SETTING_LABELS.lowBalance}</p>
          <div className="mt-1 grid gap-3 sm:grid-cols-3">
            {currencies.map((c) => (
              <Field
                key={c}
                label={c}
                name={`lowBalance.${c}`}
                inputMode="decimal"
                defaultValue={settings.lowBalance[c]}
                error={err(`lowBalance.${c}`)}
              />
            ))}
          </div>
        </div>
        <div className="grid gap-3 sm:grid-cols-3">
          {field("revealQuotaPerHour", "numeric")}
          {field("revealViewSeconds", "numeric")}
          {field("withdrawalApprovalHours", "numeric")}
        </div>
        <Field
          label={SETTING_LABELS.payoutDetailsName}
          name="payoutDetailsName"
          maxLength={120}
          defaultValue={settings.payoutDetailsName}
          error={err("payoutDetailsName")}
        />
        <div className="grid gap-3 sm:grid-cols-3">
          {field("spendApprovalAmount", "decimal", inOrderCurrency("spendApprovalAmount"))}
          {field("spendApprovalHours", "numeric")}
          {field("catalogWatchThresholdPercent", "numeric")}
        </div>
        <div>
          <p className="text-sm font-medium text-slate-700">Upstream budget</p>
          <p className="mt-1 text-xs text-slate-500">
            The Issuing Service allows a fixed number of calls a minute for the whole workspace. A person past their share is told
            to wait a few seconds; nobody else notices.
          </p>
          <div className="mt-2 grid gap-3 sm:grid-cols-3">
            {field("upstreamMoneyReservePercent", "numeric")}
            {field("upstreamPersonSharePercent", "numeric")}
            {field("upstreamPersonLookupsPerMinute", "numeric")}
          </div>
        </div>
      </fieldset>
      {canEdit ? (
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : "Save thresholds"}
        </Button>
      ) : null}
    </form>
  );
}
