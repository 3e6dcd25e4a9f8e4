import { Suspense } from "react";
import { requirePageSession } from "@/lib/auth/current";
import { can } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/auth/actor";
import { getLowBalanceWarning } from "@/lib/wallet/get-low-balance-warning";
import { Shell } from "@/components/shell/shell";
import { unreadCount } from "@/lib/notifications/unread-count";
import { Providers } from "@/components/providers";
import { LowBalanceBanner } from "@/components/wallet/low-balance-banner";

export default async function AppLayout({ children }: { children: React.ReactNode }) {
  const { actor } = await requirePageSession();
  return (
    <div className="min-h-screen md:flex">
      {/* A boundary of its own, though nothing in it waits: React then hydrates the shell apart
          from the rest, in slices that let the browser answer input between them, instead of in
          one long task with the page (the page is another, its route's loading.tsx). */}
      <Suspense>
        <Shell actor={actor} unread={unreadCount(actor.staffId)} />
      </Suspense>
      <main className="min-w-0 flex-1 px-4 py-6 sm:px-6 md:px-8 md:py-8">
        <div className="mx-auto max-w-6xl">
          {can(actor.roles, "orders.create") ? (
            // Streams in after the page: the warning never delays it.
            <Suspense fallback={null}>
              <LowBalance actor={actor} />
            </Suspense>
          ) : null}
          <Providers>{children}</Providers>
        </div>
      </main>
    </div>
  );
}

async function LowBalance({ actor }: { actor: Actor }) {
  const warning = await getLowBalanceWarning(actor);
  return warning ? <LowBalanceBanner warning={warning} canReadWallet={can(actor.roles, "wallet.read")} /> : null;
}
