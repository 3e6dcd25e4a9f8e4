import type { Metadata } from "next";
import { Link } from "@/components/ui/link";

export const metadata: Metadata = { title: "Page not found" };

/**
 * An address that is no page of the app (a mistyped or outdated link). Outside the signed-in
 * frame, as Next renders it, so it has its own landmark and heading, and one way back.
 */
export default function NotFound() {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h1 className="text-lg font-semibold text-slate-900">Page not found</h1>
        <p className="mt-2 text-sm text-slate-700" data-testid="page-not-found">
          There is no page at this address. The link may be mistyped or out of date.
        </p>
        <Link href="/" className="mt-3 inline-flex min-h-11 items-center text-sm font-medium text-brand-600 hover:underline">
          Go to the start page
        </Link>
      </div>
    </main>
  );
}
