import type { LiveSession } from "@/lib/auth/staff-session";

/** The admin's blocks on the home page (issue 16). Not built yet. */
export async function AdminHome({ session }: { session: LiveSession }) {
  void session;
  return null;
}
