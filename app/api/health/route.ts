/** Liveness only: says the process answers, reveals nothing about data or configuration. */
export function GET() {
  return Response.json({ status: "ok" }, { headers: { "cache-control": "no-store" } });
}
