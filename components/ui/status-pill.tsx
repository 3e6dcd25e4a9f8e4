import { Link } from "@/components/ui/link";

/** The tones a status can take; each list maps its statuses onto these. */
export type PillTone = "info" | "working" | "success" | "danger" | "attention" | "neutral" | "refused";

export const PILL_TONES: Record<PillTone, string> = {
  info: "bg-sky-50 text-sky-800 ring-sky-200",
  working: "bg-indigo-50 text-indigo-800 ring-indigo-200",
  success: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  danger: "bg-red-50 text-red-800 ring-red-200",
  attention: "bg-amber-50 text-amber-900 ring-amber-200",
  neutral: "bg-slate-100 text-slate-700 ring-slate-200",
  refused: "bg-rose-100 text-rose-900 ring-rose-200",
};

type PillProps = {
  status: string;
  label: string;
  tone: PillTone | undefined;
  testId?: string;
  title?: string;
  /** Carries the raw status for tests and scripts (orders say `data-status`, the rest `data-state`). */
  dataAttribute?: "data-state" | "data-status";
};

/** A status as words in a coloured pill (never colour alone), usable from server and client components. */
export function StatusPill({ status, label, tone, testId, title, dataAttribute }: PillProps) {
  const data = dataAttribute ? { [dataAttribute]: status } : {};
  return (
    <span
      data-testid={testId}
      {...data}
      title={title}
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${PILL_TONES[tone ?? "neutral"]}`}
    >
      {label}
    </span>
  );
}

/**
 * A list's count of one status, as a link to that status ("Failed: 2"). Coloured only when
 * there is something there: "Failed: 0" in red reads as trouble where there is none.
 */
export function CountPill({ href, label, count, tone }: { href: string; label: string; count: number; tone: PillTone }) {
  return (
    <Link
      href={href}
      className={`inline-flex min-h-11 items-center rounded-full px-3 font-medium ring-1 ring-inset ${PILL_TONES[count > 0 ? tone : "neutral"]}`}
    >
      {label}: {count}
    </Link>
  );
}
