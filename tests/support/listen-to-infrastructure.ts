import { listenToKeyRefusals } from "@/lib/settings/key-refused";

// As each process of the app does at start-up (instrumentation.ts, scripts/worker.ts).
listenToKeyRefusals();
