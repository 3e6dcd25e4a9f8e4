import type { Metadata } from "next";
import { BackToCatalog } from "@/components/catalog/back-to-catalog";
import { requirePageSession } from "@/lib/auth/current";
import { can } from "@/lib/auth/permissions";
import { listWatches } from "@/lib/catalog-watch/manage-watches";
import { Card, PageHeader } from "@/components/ui/page-header";
import { WatchGroupForm, WatchList } from "@/components/catalog/watch-list";

export const metadata: Metadata = { title: "What I watch" };

/** What one watches in the catalog, and a way to watch a brand or a country. */
export default async function WatchesPage() {
  const { actor } = await requirePageSession("catalog.watch");
  const watches = await listWatches(actor);
  return (
    <>
      <BackToCatalog />
      <PageHeader
        title="What I watch"
        description="You hear when a price moves or a product becomes unavailable or available again, in the bell and by email or chat as your notification settings say; several changes come as one message."
      />
      <div className="space-y-6">
        <Card>
          <WatchList watches={watches} />
        </Card>
        <Card>
          <h2 className="mb-1 text-base font-semibold">Watch a brand or a country</h2>
          <p className="mb-3 text-sm text-slate-600">Every product of it, and any new one that appears under it.</p>
          <WatchGroupForm canWatchWorkspace={can(actor.roles, "catalog.watch-workspace")} />
        </Card>
      </div>
    </>
  );
}
