import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";

type FieldProps = { label: ReactNode; name: string; error?: string[]; hint?: ReactNode };

/**
 * A field's error message. Red 700, not 600: red 600 falls under 4.5:1 on the tinted boxes
 * forms sit in (a decision panel's grey, a notice's amber); red 700 passes on all of them.
 */
export const FIELD_ERROR = "text-sm text-red-700";

const CONTROL =
  "block w-full rounded-md border-0 px-3 py-2 text-sm shadow-sm ring-1 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-brand-500";

/** A select with the look of the kit's inputs; its label is the caller's (a <label> around it or beside it). */
export function Select({ className = "", ...select }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select
      {...select}
      className={`${CONTROL} bg-white ${select["aria-invalid"] ? "ring-red-400" : "ring-slate-300"} disabled:bg-slate-50 disabled:text-slate-500 ${className}`}
    />
  );
}

/** A labelled input with its field error, wired for screen readers. */
export function Field({ label, name, error, hint, ...input }: InputHTMLAttributes<HTMLInputElement> & FieldProps) {
  const id = input.id ?? `field-${name}`;
  return (
    <FieldFrame id={id} label={label} name={name} error={error} hint={hint}>
      <input
        id={id}
        name={name}
        {...controlAria(id, error, hint)}
        {...input}
        className={`${CONTROL} ${error?.length ? "ring-red-400" : "ring-slate-300"} ${input.className ?? ""}`}
      />
    </FieldFrame>
  );
}

/** The same, for several lines of text (reasons, comments). */
export function TextAreaField({
  label,
  name,
  error,
  hint,
  ...textarea
}: TextareaHTMLAttributes<HTMLTextAreaElement> & FieldProps) {
  const id = textarea.id ?? `field-${name}`;
  return (
    <FieldFrame id={id} label={label} name={name} error={error} hint={hint}>
      <textarea
        id={id}
        name={name}
        {...controlAria(id, error, hint)}
        {...textarea}
        className={`${CONTROL} ${error?.length ? "ring-red-400" : "ring-slate-300"} ${textarea.className ?? ""}`}
      />
    </FieldFrame>
  );
}

function controlAria(id: string, error: string[] | undefined, hint: ReactNode) {
  const describedBy = [error?.length ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return { "aria-invalid": error?.length ? true : undefined, "aria-describedby": describedBy };
}

function FieldFrame({ id, label, name, error, hint, children }: FieldProps & { id: string; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error?.length ? (
        <p id={`${id}-error`} className={FIELD_ERROR} data-testid={`error-${name}`}>
          {error.join(" ")}
        </p>
      ) : null}
    </div>
  );
}
