import { withVisitor } from "@/lib/http/with-visitor";
import { readJsonBody } from "@/lib/http/parse";
import { cookies } from "next/headers";
import { writeSessionCookie } from "@/lib/auth/session-token";
import { PENDING_STEP_PAGES } from "@/lib/auth/current";
import { acceptInvitation } from "@/lib/staff/access-links/accept-invitation";

/** The invitee's one use of the link: `{ token, password }`; signed in, with the step the session owes next. */
export const POST = withVisitor(async ({ req, visitor }) => {
  const opened = await acceptInvitation(await readJsonBody(req), visitor);
  await writeSessionCookie(await cookies(), opened);
  return Response.json({ next: opened.pendingStep ? PENDING_STEP_PAGES[opened.pendingStep] : "/" });
});
