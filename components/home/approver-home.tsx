import type { LiveSession } from "@/lib/auth/staff-session";

/** The approver's blocks on the home page (issue 16). Not built yet. */
export async function ApproverHome({ session }: { session: LiveSession }) {
  void session;
  return null;
}
