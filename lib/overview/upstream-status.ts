import "server-only";
import { assertCan, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db/client";
import { serviceConfig } from "@/lib/env";
import { upstream, upstreamBudget } from "@/lib/upstream/service";

/** What the admin's upstream status panel shows. Never the key's secret segment. */
export type UpstreamStatus = {
  baseUrl: string;
  budget: { used: number; limit: number; moneyCap: number; interactiveCap: number; backgroundCap: number };
  cache: { hits: number; misses: number; coalesced: number; hitRate: number };
  webhookSecrets: number;
  lastError: { at: string; status: number | null; code: string | null; path: string | null; correlationId: string | null } | null;
};

export async function getUpstreamStatus(actor: Actor): Promise<UpstreamStatus> {
  assertCan(actor, "settings.read");
  const config = serviceConfig();
  const client = upstream();
  const budget = upstreamBudget();
  const [used, caps, status] = await Promise.all([
    budget.usedThisMinute(),
    budget.caps(),
    db().serviceStatus.findUnique({ where: { id: 1 } }),
  ]);
  return {
    baseUrl: client.transport.baseUrl,
    budget: {
      used,
      limit: config.rateLimit,
      moneyCap: caps.money,
      interactiveCap: caps.interactive,
      backgroundCap: caps.background,
    },
    cache: client.cache.stats(),
    webhookSecrets: config.webhookSecrets.length,
    lastError: status?.lastErrorAt
      ? {
          at: status.lastErrorAt.toISOString(),
          status: status.lastErrorStatus,
          code: status.lastErrorCode,
          path: status.lastErrorPath,
          correlationId: status.lastCorrelationId,
        }
      : null,
  };
}
