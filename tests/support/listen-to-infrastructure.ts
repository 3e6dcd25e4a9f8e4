import { beforeEach } from "vitest";
import { listenToUpstreamReports } from "@/lib/settings/listen-to-upstream";
import { readyDeliveries } from "@/lib/notifications/delivery-queue";

// As each process of the app does at start-up (instrumentation.ts, scripts/worker.ts).
listenToUpstreamReports();
// Notifications queue their deliveries inside their event's transaction, where the queue cannot
// start (instrumentation.ts starts it in the app). Before each test rather than once: after a
// file's own set-up has chosen its environment, and again after a test stopped every queue.
beforeEach(() => readyDeliveries());
