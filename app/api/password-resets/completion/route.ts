import { withVisitor } from "@/lib/http/with-visitor";
import { readJsonBody } from "@/lib/http/parse";
import { cookies } from "next/headers";
import { writeSessionCookie } from "@/lib/auth/session-token";
import { PENDING_STEP_PAGES } from "@/lib/auth/current";
import { completePasswordReset } from "@/lib/staff/access-links/complete-password-reset";

/** The one use of an admin's reset link: `{ token, password }`; signed in, with the step the session owes next. */
export const POST = withVisitor(async ({ req, visitor }) => {
  const opened = await completePasswordReset(await readJsonBody(req), visitor);
  await writeSessionCookie(await cookies(), opened);
  return Response.json({ next: opened.pendingStep ? PENDING_STEP_PAGES[opened.pendingStep] : "/" });
});
