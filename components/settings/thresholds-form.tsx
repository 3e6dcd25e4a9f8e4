"use client";

import type { FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormOutcome } from "@/components/ui/notice";
import type { Settings } from "@/lib/settings/schema";
import { SETTING_LABELS } from "@/lib/settings/labels";

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
    });
  }

  const err = (key: string) => problem?.errors?.[key];
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Thresholds">
      <FormOutcome problem={problem} saved={saved} />
      <fieldset disabled={!canEdit} className="space-y-4">
        <Field
          label={`${SETTING_LABELS.orderConfirmationAmount} (in the order's currency)`}
          name="orderConfirmationAmount"
          inputMode="decimal"
          defaultValue={settings.orderConfirmationAmount}
          error={err("orderConfirmationAmount")}
        />
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
          <Field
            label={SETTING_LABELS.revealQuotaPerHour}
            name="revealQuotaPerHour"
            inputMode="numeric"
            defaultValue={settings.revealQuotaPerHour}
            error={err("revealQuotaPerHour")}
          />
          <Field
            label={SETTING_LABELS.revealViewSeconds}
            name="revealViewSeconds"
            inputMode="numeric"
            defaultValue={settings.revealViewSeconds}
            error={err("revealViewSeconds")}
          />
          <Field
            label={SETTING_LABELS.withdrawalApprovalHours}
            name="withdrawalApprovalHours"
            inputMode="numeric"
            defaultValue={settings.withdrawalApprovalHours}
            error={err("withdrawalApprovalHours")}
          />
        </div>
        <Field
          label={SETTING_LABELS.payoutDetailsName}
          name="payoutDetailsName"
          maxLength={120}
          defaultValue={settings.payoutDetailsName}
          error={err("payoutDetailsName")}
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label={`${SETTING_LABELS.spendApprovalAmount} (in the order's currency)`}
            name="spendApprovalAmount"
            inputMode="decimal"
            defaultValue={settings.spendApprovalAmount}
            error={err("spendApprovalAmount")}
          />
          <Field
            label={SETTING_LABELS.spendApprovalHours}
            name="spendApprovalHours"
            inputMode="numeric"
            defaultValue={settings.spendApprovalHours}
            error={err("spendApprovalHours")}
          />
        </div>
        <div>
          <p className="text-sm font-medium text-slate-700">Upstream budget</p>
          <p className="mt-1 text-xs text-slate-500">
            The Issuing Service allows a fixed number of calls a minute for the whole workspace. A person past their share is told
            to wait a few seconds; nobody else notices.
          </p>
          <div className="mt-2 grid gap-3 sm:grid-cols-3">
            {(["upstreamMoneyReservePercent", "upstreamPersonSharePercent", "upstreamPersonLookupsPerMinute"] as const).map(
              (key) => (
                <Field
                  key={key}
                  label={SETTING_LABELS[key]}
                  name={key}
                  inputMode="numeric"
                  defaultValue={settings[key]}
                  error={err(key)}
                />
              ),
            )}
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
