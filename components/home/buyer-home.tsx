import type { LiveSession } from "@/lib/auth/staff-session";

/** The buyer's blocks on the home page (issue 16). Not built yet. */
export async function BuyerHome({ session }: { session: LiveSession }) {
  void session;
  return null;
}
