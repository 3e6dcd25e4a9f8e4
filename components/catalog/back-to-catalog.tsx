import { Link } from "@/components/ui/link";

/** The way back to the catalog, above a page under it (a product, what one watches). */
export function BackToCatalog() {
  return (
    <p className="mb-2 text-sm">
      <Link href="/catalog" className="text-brand-600 hover:underline">
        ← Catalog
      </Link>
    </p>
  );
}
