"use client";

import { useRouter } from "next/navigation";
import { FormEvent } from "react";
import { Link } from "@/components/ui/link";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { Field, Select } from "@/components/ui/field";
import { ProblemNotice } from "@/components/ui/notice";
import type { WatchView } from "@/lib/catalog-watch/manage-watches";

/** What one watches, each with its way to stop. */
export function WatchList({ watches }: { watches: WatchView[] }) {
  const router = useRouter();
  const stop = useApiMutation((id: string) => ({ method: "DELETE", url: `/api/catalog/watches/${encodeURIComponent(id)}` }), {
    onSuccess: () => router.refresh(),
  });
  if (watches.length === 0)
    return (
      <p className="text-sm text-slate-600" data-testid="watches-empty">
        You watch nothing yet. Press ☆ Watch on a product in the{" "}
        <Link href="/catalog" className="font-medium text-brand-600 hover:underline">
          catalog
        </Link>
        , or name a brand or country below.
      </p>
    );
  return (
    <>
      {stop.problem ? <ProblemNotice problem={stop.problem} /> : null}
      <ul className="divide-y divide-slate-100" aria-label="What you watch" data-testid="watch-list">
        {watches.map((watch) => (
          <li key={watch.id} className="flex flex-wrap items-center justify-between gap-2 py-2.5">
            <span className="min-w-0 text-sm">
              {watch.productId ? (
                <Link
                  href={`/catalog/${encodeURIComponent(watch.productId)}`}
                  className="font-medium text-brand-700 hover:underline"
                >
                  {watch.label}
                </Link>
              ) : (
                <span className="font-medium text-slate-900">{watch.label}</span>
              )}
              <span className="block text-xs text-slate-500">
                {watch.productId ? "Product" : "Brand or country: every product of it, and new ones"}
                {watch.workspace ? " · for everyone in the workspace" : ""}
              </span>
            </span>
            <Button
              variant="secondary"
              className="!px-2.5 !py-1 text-xs"
              disabled={stop.pending && stop.variables === watch.id}
              onClick={() => stop.send(watch.id)}
              aria-label={`Stop watching ${watch.label}`}
            >
              Stop watching
            </Button>
          </li>
        ))}
      </ul>
    </>
  );
}

type GroupInput = { productType: string; brand?: string; countryCode?: string; workspace: boolean };

/** Watches a brand or a country with its product type ("Amazon gift cards, US"). */
export function WatchGroupForm({ canWatchWorkspace }: { canWatchWorkspace: boolean }) {
  const router = useRouter();
  const add = useApiMutation((body: GroupInput) => ({ method: "POST", url: "/api/catalog/watches", body }), {
    onSuccess: () => router.refresh(),
  });
  const err = (key: string) => add.problem?.errors?.[key];
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim() || undefined;
    add.send({
      productType: String(form.get("productType") ?? ""),
      brand: text("brand"),
      countryCode: text("countryCode")?.toUpperCase(),
      workspace: form.get("workspace") === "on",
    });
  }
  return (
    <form noValidate onSubmit={onSubmit} aria-label="Watch a brand or country" className="space-y-3">
      {add.problem && !add.problem.errors ? <ProblemNotice problem={add.problem} /> : null}
      <div className="grid gap-3 sm:grid-cols-3">
        <label className="block text-sm font-medium text-slate-700">
          Type
          <Select name="productType" defaultValue="gift-card" className="mt-1">
            <option value="gift-card">Gift cards</option>
            <option value="esim">eSIMs</option>
            <option value="phone-top-up">Phone top-ups</option>
          </Select>
        </label>
        <Field label="Brand (words of its name)" name="brand" placeholder="Amazon" maxLength={60} error={err("brand")} />
        <Field label="Country (two letters)" name="countryCode" placeholder="US" maxLength={2} error={err("countryCode")} />
      </div>
      {canWatchWorkspace ? (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="workspace" />
          For everyone who buys or watches the wallet (buyers, finance, admins)
        </label>
      ) : null}
      <Button type="submit" disabled={add.pending}>
        {add.pending ? "Adding…" : "Watch"}
      </Button>
    </form>
  );
}
