import type { ReactNode } from "react";

/**
 * A form that a client component sends itself (through `useApiMutation`), named for assistive
 * technology: the browser's own validation is off (the server's field messages are shown
 * instead) and submitting never navigates.
 */
export function ActionForm({
  label,
  onSubmit,
  className = "space-y-4",
  children,
}: {
  label: string;
  onSubmit: () => void;
  className?: string;
  children: ReactNode;
}) {
  return (
    <form
      noValidate
      aria-label={label}
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}
