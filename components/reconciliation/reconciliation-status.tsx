import { StatusPill, type PillTone } from "@/components/ui/status-pill";

const STATUS: Record<string, { label: string; tone: PillTone; title: string }> = {
  reconciled: { label: "Reconciled", tone: "success", title: "The app's records explain the day-end balance to the cent." },
  difference: { label: "Difference", tone: "danger", title: "The day-end balance differs from what the app's records explain." },
  baseline: { label: "Baseline", tone: "neutral", title: "No earlier day to open from: this day only opens the next one." },
};

/** A kept day's status as words in a pill. */
export function ReconciliationStatus({ status }: { status: string }) {
  const s = STATUS[status] ?? { label: status, tone: "neutral" as const, title: "" };
  return (
    <StatusPill
      status={status}
      label={s.label}
      tone={s.tone}
      title={s.title}
      dataAttribute="data-state"
      testId="reconciliation-status"
    />
  );
}
