import { Suspense } from "react";
import { requirePageSession } from "@/lib/auth/current";
import { can } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/auth/actor";
import { getLowBalanceWarning } from "@/lib/wallet/get-low-balance-warning";
import { Sidebar } from "@/components/shell/sidebar";
import { Providers } from "@/components/providers";
import { LowBalanceBanner } from "@/components/wallet/low-balance-banner";

export default async function AppLayout({ children }: { children: React.ReactNode }) {
  const { actor } = await requirePageSession();
  return (
    <div className="flex min-h-screen">
      <Sidebar actor={actor} />
      <main className="min-w-0 flex-1 px-8 py-8">
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
