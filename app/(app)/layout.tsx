import { requirePageSession } from "@/lib/auth/current";
import { can } from "@/lib/auth/permissions";
import type { Actor } from "@/lib/auth/actor";
import { getLowBalanceWarning } from "@/lib/wallet/get-low-balance-warning";
import { Shell } from "@/components/shell/shell";
import { unreadFigure } from "@/lib/notifications/unread-count";
import { Providers } from "@/components/providers";
import { LowBalanceBanner } from "@/components/wallet/low-balance-banner";
import { StreamIfSlow } from "@/components/ui/stream-if-slow";

/**
 * The frame of every signed-in page. The frame and the page are one shell, sent whole with the
 * first bytes: no boundary between them (no loading.tsx here, no Suspense around the frame),
 * since React reveals a boundary still waiting at the shell about 300 ms after the first paint
 * (docs/decisions/0008-pages-sent-whole-unless-slow.md). What waits on a slow upstream streams
 * inside the page (StreamIfSlow), and a click on a link shows LinkNavigator's bar at once.
 */
export default async function AppLayout({ children }: { children: React.ReactNode }) {
  const { actor } = await requirePageSession();
  const warning = can(actor.roles, "orders.create") ? getLowBalanceWarning(actor) : null;
  return (
    <div className="min-h-screen md:flex">
      <Shell actor={actor} unread={unreadFigure(actor.staffId)} />
      <main className="min-w-0 flex-1 px-4 py-6 sm:px-6 md:px-8 md:py-8">
        <div className="mx-auto max-w-6xl">
          {warning ? (
            // With the page when the balances are at hand; else it streams in after it, so a slow
            // balance read never delays the page.
            <StreamIfSlow ready={warning} fallback={null}>
              <LowBalance actor={actor} warning={warning} />
            </StreamIfSlow>
          ) : null}
          <Providers>{children}</Providers>
        </div>
      </main>
    </div>
  );
}

async function LowBalance({ actor, warning }: { actor: Actor; warning: ReturnType<typeof getLowBalanceWarning> }) {
  const shown = await warning;
  return shown ? <LowBalanceBanner warning={shown} canReadWallet={can(actor.roles, "wallet.read")} /> : null;
}
