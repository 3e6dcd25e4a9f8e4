"use client";

import { useEffect, useRef, useState } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { regionName } from "@/lib/catalog/region-name";
import { FilterField } from "@/components/ui/filter-form";

const ALIASES = [
  { value: "gift-card", label: "All gift cards" },
  { value: "esim", label: "All eSIMs" },
  { value: "top-up", label: "All phone top-ups" },
];

/** Search and filters live in the URL, so a view can be shared and the back button works. */
export function CatalogFilters({ countries, categories }: { countries: string[]; categories: string[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const [q, setQ] = useState(params.get("q") ?? "");
  const first = useRef(true);

  function navigate(changes: Record<string, string | null>, replace = false) {
    const next = new URLSearchParams(params.toString());
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    next.delete("page"); // any change of filter starts from the first page
    const url = next.size ? `${pathname}?${next}` : pathname;
    if (replace) router.replace(url);
    else router.push(url);
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
      className="mb-6 grid gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 md:grid-cols-[2fr_1fr_1fr_auto_auto]"
      onSubmit={(e) => e.preventDefault()}
    >
      <FilterField label="Search">
        <input
          type="search"
          value={q}
          onChange={(e) => setQ(e.target.value)}
          placeholder="Product name"
          maxLength={100}
          className="mt-1 w-full rounded-md px-3 py-2 ring-1 ring-slate-300"
        />
      </FilterField>
      <FilterField label="Country">
        <select
          value={params.get("country") ?? ""}
          onChange={(e) => navigate({ country: e.target.value || null })}
          className="mt-1 w-full rounded-md bg-white px-2 py-2 ring-1 ring-slate-300"
        >
          <option value="">All countries</option>
          {countries.map((code) => (
            <option key={code} value={code}>
              {regionName(code)}
            </option>
          ))}
        </select>
      </FilterField>
      <FilterField label="Category">
        <select
          value={params.get("category") ?? ""}
          onChange={(e) => navigate({ category: e.target.value || null })}
          className="mt-1 w-full rounded-md bg-white px-2 py-2 ring-1 ring-slate-300"
        >
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
        </select>
      </FilterField>
      <FilterField label="Per page">
        <select
          value={params.get("size") ?? "24"}
          onChange={(e) => navigate({ size: e.target.value === "24" ? null : e.target.value })}
          className="mt-1 rounded-md bg-white px-2 py-2 ring-1 ring-slate-300"
        >
          <option value="24">24</option>
          <option value="50">50</option>
          <option value="100">100</option>
        </select>
      </FilterField>
      <div className="flex items-end">
        {hasFilters ? (
          <button
            type="button"
            onClick={() => {
              setQ("");
              router.push(pathname);
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
