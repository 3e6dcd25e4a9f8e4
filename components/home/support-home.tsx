import type { LiveSession } from "@/lib/auth/staff-session";

/** The support's blocks on the home page (issue 16). Not built yet. */
export async function SupportHome({ session }: { session: LiveSession }) {
  void session;
  return null;
}
