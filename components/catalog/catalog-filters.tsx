"use client";

import { Suspense, use, useEffect, useRef, useState, useTransition } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import type { CatalogFacets } from "@/lib/catalog/catalog-facets";
import { FilterField } from "@/components/ui/filter-form";
import { Select } from "@/components/ui/field";

const ALIASES = [
  { value: "gift-card", label: "All gift cards" },
  { value: "esim", label: "All eSIMs" },
  { value: "top-up", label: "All phone top-ups" },
];

type Facets = CatalogFacets;

/**
 * Search and filters live in the URL, so a view can be shared and the back button works. The
 * search box shows at once; the countries and categories to choose from (gathered by walking
 * the catalog, which a slow upstream can make take long) stream in as `facets`.
 */
export function CatalogFilters({ facets }: { facets: Promise<Facets> }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const [q, setQ] = useState(params.get("q") ?? "");
  const first = useRef(true);
  const [navigating, startTransition] = useTransition();
  // Busy from the first keystroke: during the pause before the URL follows, and until the page
  // for the new URL has come back (the results' skeleton then says the rest).
  const busy = navigating || q.trim() !== (params.get("q") ?? "");

  function navigate(changes: Record<string, string | null>, replace = false) {
    const next = new URLSearchParams(params.toString());
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    next.delete("page"); // any change of filter starts from the first page
    const url = next.size ? `${pathname}?${next}` : pathname;
    startTransition(() => (replace ? router.replace(url) : router.push(url)));
  }

  // Debounced free-text search: the URL follows the typing after a short pause.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const timer = setTimeout(() => {
      if ((params.get("q") ?? "") !== q.trim()) navigate({ q: q.trim() || null }, true);
    }, 300);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the typed text should restart the pause
  }, [q]);

  const hasFilters = ["q", "country", "category"].some((k) => params.get(k));
  return (
    <form
      role="search"
      aria-label="Search the catalog"
      aria-busy={busy}
      className="mb-6 grid gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 md:grid-cols-[2fr_1fr_1fr_auto_auto]"
      onSubmit={(e) => e.preventDefault()}
    >
      <div className="relative">
        <FilterField label="Search">
          <input
            type="search"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            placeholder="Product name"
            maxLength={100}
            className="mt-1 w-full rounded-md px-3 py-2 pr-24 ring-1 ring-slate-300"
          />
        </FilterField>
        {/* Always in the page (outside the label, which names the box), so that a screen reader announces "Searching…". */}
        <span
          role="status"
          className="pointer-events-none absolute bottom-0 right-3 flex h-10 items-center text-xs font-medium text-brand-700"
          data-testid="catalog-searching"
        >
          {busy ? "Searching…" : ""}
        </span>
      </div>
      <Suspense fallback={<FacetSelectsLoading />}>
        <FacetSelects
          facets={facets}
          country={params.get("country") ?? ""}
          category={params.get("category") ?? ""}
          onChange={(changes) => navigate(changes)}
        />
      </Suspense>
      <FilterField label="Per page">
        <Select
          value={params.get("size") ?? "24"}
          onChange={(e) => navigate({ size: e.target.value === "24" ? null : e.target.value })}
          className="mt-1"
        >
          <option value="24">24</option>
          <option value="50">50</option>
          <option value="100">100</option>
        </Select>
      </FilterField>
      <div className="flex items-end">
        {hasFilters ? (
          <button
            type="button"
            onClick={() => {
              setQ("");
              startTransition(() => router.push(pathname));
            }}
            className="px-2 py-2 text-sm font-medium text-brand-600 hover:underline"
          >
            Clear filters
          </button>
        ) : null}
      </div>
    </form>
  );
}

function FacetSelects({
  facets,
  country,
  category,
  onChange,
}: {
  facets: Promise<Facets>;
  country: string;
  category: string;
  onChange: (changes: Record<string, string | null>) => void;
}) {
  // Each page of results brings its own promise of the choices. Once they are known, the last
  // ones are shown until the new ones arrive: suspending on a new promise would hold the search
  // back until it settles (on a cold start, a walk of the whole catalog), and a fallback would
  // take the selects, and a keyboard user's focus, away on every search.
  const [latest, setLatest] = useState<Facets | null>(null);
  useEffect(() => {
    let live = true;
    facets.then(
      (value) => live && setLatest(value),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [facets]);
  const { countries, categories } = latest ?? use(facets);
  return (
    <>
      <FilterField label="Country">
        <Select value={country} onChange={(e) => onChange({ country: e.target.value || null })} className="mt-1">
          <option value="">All countries</option>
          {countries.map(({ code, name }) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </Select>
      </FilterField>
      <FilterField label="Category">
        <Select value={category} onChange={(e) => onChange({ category: e.target.value || null })} className="mt-1">
          <option value="">All categories</option>
          <optgroup label="Product types">
            {ALIASES.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </optgroup>
          <optgroup label="Catalog categories">
            {categories.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </optgroup>
        </Select>
      </FilterField>
    </>
  );
}

/** The two selects, of the same size, while their choices are gathered. */
function FacetSelectsLoading() {
  return (
    <>
      {["Country", "Category"].map((label) => (
        <FilterField key={label} label={label}>
          <Select disabled className="mt-1">
            <option>Loading…</option>
          </Select>
        </FilterField>
      ))}
    </>
  );
}
