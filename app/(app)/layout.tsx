import { requirePageSession } from "@/lib/auth/current";
import { Sidebar } from "@/components/shell/sidebar";
import { Providers } from "@/components/providers";

export default async function AppLayout({ children }: { children: React.ReactNode }) {
  const { actor } = await requirePageSession();
  return (
    <div className="flex min-h-screen">
      <Sidebar actor={actor} />
      <main className="min-w-0 flex-1 px-8 py-8">
        <div className="mx-auto max-w-6xl">
          <Providers>{children}</Providers>
        </div>
      </main>
    </div>
  );
}
