import { getEnv } from "@/lib/env";
import { problem } from "@/lib/http/problem";
import { readiness, type NotReadyReason } from "@/lib/health/readiness";

/** Read on every probe, never prerendered at build time. */
export const dynamic = "force-dynamic";

/** What a stranger reads (probes are anonymous): the reason in words, no name, address or version. */
const WORDS: Record<NotReadyReason, string> = {
  database_unreachable: "The database is not answering.",
  migrations_pending: "The database has not been migrated to this release yet.",
  worker_stale: "No background worker has reported in the last minute.",
};

/**
 * Readiness, for a load balancer or orchestrator (README, "Health and readiness"): 200 when the
 * database answers, its migrations are current and a worker beats; else 503 with the reason's code.
 */
export async function GET() {
  const verdict = await readiness(getEnv().DATABASE_URL);
  if (verdict.ready) return Response.json({ status: "ready" }, { headers: { "cache-control": "no-store" } });
  return problem(verdict.reason, WORDS[verdict.reason], { status: 503 });
}
