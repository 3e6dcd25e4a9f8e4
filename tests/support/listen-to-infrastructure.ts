import { listenToUpstreamReports } from "@/lib/settings/listen-to-upstream";

// As each process of the app does at start-up (instrumentation.ts, scripts/worker.ts).
listenToUpstreamReports();
