import type { InputHTMLAttributes, ReactNode } from "react";

/** A labelled input with its field error, wired for screen readers. */
export function Field({ label, name, error, hint, ...input }: InputHTMLAttributes<HTMLInputElement> & { label: ReactNode; name: string; error?: string[]; hint?: ReactNode }) {
  const id = input.id ?? `field-${name}`;
  const describedBy = [error?.length ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        name={name}
        aria-invalid={error?.length ? true : undefined}
        aria-describedby={describedBy}
        {...input}
        className={`block w-full rounded-md border-0 px-3 py-2 text-sm shadow-sm ring-1 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-brand-500 ${error?.length ? "ring-red-400" : "ring-slate-300"} ${input.className ?? ""}`}
      />
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error?.length ? (
        <p id={`${id}-error`} className="text-sm text-red-600" data-testid={`error-${name}`}>
          {error.join(" ")}
        </p>
      ) : null}
    </div>
  );
}
