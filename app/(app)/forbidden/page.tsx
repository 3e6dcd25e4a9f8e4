import { Link } from "@/components/ui/link";
import { PageHeader, Card } from "@/components/ui/page-header";

export default function ForbiddenPage() {
  return (
    <>
      <PageHeader title="Not permitted" />
      <Card>
        <p className="text-sm text-slate-700" data-testid="forbidden">
          Your roles do not give you access to that page. Ask an admin if you need it.
        </p>
        <Link href="/" className="mt-3 inline-block text-sm font-medium text-brand-600 hover:underline">
          Back to the start page
        </Link>
      </Card>
    </>
  );
}
