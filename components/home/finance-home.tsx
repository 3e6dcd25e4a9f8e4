import type { LiveSession } from "@/lib/auth/staff-session";

/** The finance's blocks on the home page (issue 16). Not built yet. */
export async function FinanceHome({ session }: { session: LiveSession }) {
  void session;
  return null;
}
