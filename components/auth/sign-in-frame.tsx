import type { ReactNode } from "react";

/** The sign-in pages' frame: the product's name, the step's title and a card. */
export function SignInFrame({
  title,
  intro,
  wide = false,
  children,
}: {
  title: string;
  intro?: ReactNode;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-10">
      <div className={`w-full ${wide ? "max-w-xl" : "max-w-sm"}`}>
        <div className="mb-8 text-center">
          <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">Digital-Goods Issuing</p>
          <h1 className="mt-2 text-2xl font-semibold tracking-tight">{title}</h1>
          {intro ? <p className="mt-2 text-sm text-slate-600">{intro}</p> : null}
        </div>
        <div className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">{children}</div>
      </div>
    </main>
  );
}
