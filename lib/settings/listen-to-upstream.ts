import "server-only";
import { listenToUpstream } from "@/lib/upstream/reports";
import { auditKeyRefusal } from "./key-refused";
import { recordShareRefusal } from "./share-refused";

/** What the upstream layer reports, and what follows: called once at each process's start-up (instrumentation.ts, scripts/worker.ts). */
export function listenToUpstreamReports(): void {
  listenToUpstream({ keyRefused: auditKeyRefusal, shareRefused: recordShareRefusal });
}
