import { withStaff } from "@/lib/http/with-staff";
import { problem } from "@/lib/http/problem";

// An /api path that matches nothing: 401 without a session (the gate answers first),
// 404 with one. Never an HTML page.
const notFound = withStaff<{ path: string[] }>(async () => problem("not_found", "There is no such API endpoint."));
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
