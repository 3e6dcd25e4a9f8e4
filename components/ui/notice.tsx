import type { ReactNode } from "react";
import type { ApiProblem } from "@/components/api-client";

type Tone = "info" | "success" | "warning" | "error";
const TONES: Record<Tone, string> = {
  info: "bg-sky-50 text-sky-900 ring-sky-200",
  success: "bg-emerald-50 text-emerald-900 ring-emerald-200",
  warning: "bg-amber-50 text-amber-900 ring-amber-200",
  error: "bg-red-50 text-red-900 ring-red-200",
};

/** A message box; errors carry the correlation id a person can quote to support. */
export function Notice({
  tone = "info",
  title,
  children,
  correlationId,
  testId,
  className = "",
}: {
  tone?: Tone;
  title?: string;
  children?: ReactNode;
  correlationId?: string;
  testId?: string;
  /** Its place in the page (a margin), never its look. */
  className?: string;
}) {
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      data-testid={testId}
      className={`rounded-md p-3 text-sm ring-1 ring-inset ${TONES[tone]} ${className}`}
    >
      {title ? <p className="font-medium">{title}</p> : null}
      {children ? <div className={title ? "mt-1" : ""}>{children}</div> : null}
      {correlationId ? <p className="mt-1 font-mono text-xs opacity-80">Reference for support: {correlationId}</p> : null}
    </div>
  );
}

/** A refused request's problem: its title, its detail (or the caller's words for it) and its correlation id. */
export function RefusalNotice({
  problem,
  testId,
  children = problem.detail,
}: {
  problem: Pick<ApiProblem, "title" | "detail" | "correlationId">;
  testId?: string;
  children?: ReactNode;
}) {
  return (
    <Notice tone="error" title={problem.title} correlationId={problem.correlationId} testId={testId}>
      {children}
    </Notice>
  );
}

/** A refused request's problem in words: its field messages if it has any, else its detail. */
export function ProblemNotice({
  problem,
  title,
}: {
  problem: { detail?: string; correlationId?: string; errors?: Record<string, string[]> };
  title?: string;
}) {
  return (
    <Notice tone="error" title={title} correlationId={problem.correlationId}>
      {problem.errors ? Object.values(problem.errors).flat().join(" ") : problem.detail}
    </Notice>
  );
}

/**
 * A form's outcome above its fields: a refusal that names no field (field messages show at their
 * fields), or the saved message.
 */
export function FormOutcome({
  problem,
  saved,
  savedText = "Saved. The change is in the audit log.",
}: {
  problem: ApiProblem | null;
  saved: boolean;
  savedText?: string;
}) {
  if (problem && !problem.errors) return <RefusalNotice problem={problem} />;
  return saved ? <Notice tone="success">{savedText}</Notice> : null;
}
