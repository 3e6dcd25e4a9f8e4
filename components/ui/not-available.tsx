import { PageHeader, Card } from "./page-header";

/** For sections that are planned but not built yet: says so plainly, shows no fake data. */
export function NotAvailable({ title, what }: { title: string; what: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Card>
        <p className="text-sm font-medium text-slate-900" data-testid="not-available">
          {title} is not available yet.
        </p>
        <p className="mt-1 text-sm text-slate-600">{what}</p>
      </Card>
    </>
  );
}
