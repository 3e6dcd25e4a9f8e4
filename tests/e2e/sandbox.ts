import { E2E_API_KEY, E2E_SANDBOX_PORT } from "../../playwright.config";

/** The e2e run's sandbox (started by `npm start`), for arranging and counting upstream state. */
const base = `http://127.0.0.1:${E2E_SANDBOX_PORT}`;

export type SandboxProduct = {
  id: string;
  name: string;
  type: string;
  currency: string;
  isAvailable: boolean;
  countryCode: string;
  variants: { id: string; displayValue: string; price: number }[];
  minimumValue: number | null;
  maximumValue: number | null;
  valueStep: number | null;
  description: string;
};

export async function sandboxControl(method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}/_sandbox${path}`, {
    method,
    headers: body ? { "content-type": "application/json" } : undefined,
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`sandbox ${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json().catch(() => undefined);
}

export async function sandboxApi<T>(path: string): Promise<T> {
  const res = await fetch(`${base}/api/v1${path}`, { headers: { "X-Api-Key": E2E_API_KEY } });
  if (!res.ok) throw new Error(`sandbox GET ${path}: ${res.status}`);
  return (await res.json()) as T;
}

/** An available gift card whose first variant costs under 50: cheap to order, bought by variant. */
export const cheapVariant = (p: SandboxProduct) =>
  p.isAvailable && p.variants.length > 0 && p.type === "gift-card" && p.variants[0]!.price < 50;

export async function findProduct(match: (p: SandboxProduct) => boolean): Promise<SandboxProduct> {
  for (let offset = 0; offset < 500; offset += 100) {
    const page = await sandboxApi<{ items: SandboxProduct[]; hasMore: boolean }>(`/products?limit=100&offset=${offset}`);
    const found = page.items.find(match);
    if (found) return found;
    if (!page.hasMore) break;
  }
  throw new Error("no matching product in the sandbox catalog");
}

export async function upstreamOrdersWithReference(clientReference: string): Promise<{ id: string; status: string }[]> {
  return (
    await sandboxApi<{ items: { id: string; status: string }[] }>(
      `/orders?clientReference=${encodeURIComponent(clientReference)}`,
    )
  ).items;
}
