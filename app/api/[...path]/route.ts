import { withStaff } from "@/lib/http/with-staff";
import { problem } from "@/lib/http/problem";

// An /api path that matches nothing: 401 without a session (the gate answers first),
// 404 with one. Never an HTML page.
const notFound = withStaff<{ path: string[] }>(async () => problem("not_found", "There is no such API endpoint."));
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };

/**
 * The request gate (lib/http/gate.ts), for the app server to run ahead of Next
 * (scripts/lib/request-gate.mjs). The server can load only what `next build` compiled, and a
 * route module is what it loads (as the webhook route's `answerDelivery`); this one is here
 * because it is the route every unmatched /api path reaches, and it is always built.
 */
export { gateRequest } from "@/lib/http/gate";
