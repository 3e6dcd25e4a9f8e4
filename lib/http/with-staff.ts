import "server-only";
import type { NextRequest } from "next/server";
import { AppError } from "@/lib/errors";
import { can, type Permission } from "@/lib/auth/permissions";
import { currentSession, PENDING_STEP_PAGES, rememberedCurrentSession } from "@/lib/auth/current";
import type { LiveSession } from "@/lib/auth/staff-session";
import type { Actor } from "@/lib/auth/actor";
import type { PendingStep } from "@/lib/auth/open-session";
import { assertFreshProof } from "@/lib/auth/step-up";
import { findTextProblems, hasTextProblems } from "@/lib/validation";
import { confirmingSession, type SessionConfirmation } from "@/lib/upstream/session-slot";
import { problem, problemFromError } from "./problem";
import { assertJsonBody } from "./parse";
import { checkSameOrigin } from "./same-origin";

type RouteContext<P> = { params: Promise<P> };

export type StaffHandler<P> = (args: { req: NextRequest; actor: Actor; session: LiveSession; params: P }) => Promise<Response>;

/** A route handler made by withStaff; it carries its step-up choice so that a test can list every route's. */
export type StaffRoute<P> = ((req: NextRequest, context: RouteContext<P>) => Promise<Response>) & { readonly stepUp: boolean };

/**
 * The door of every staff route handler: same-origin check on state-changing methods (Next
 * gives route handlers no CSRF protection), a live session, one permission (the domain checks
 * it again), JSON bodies only (415), path parameters single-line, every thrown error a problem
 * document, and `Cache-Control: no-store` on an answer that says nothing of caching.
 * A session that still owes a sign-in step is refused (403 `second_factor_required` /
 * `second_factor_enrolment_required`) except by that step's routes (`during`); `stepUp` routes
 * also need a recent proof (lib/auth/step-up.ts), else 403 `step_up_required`;
 * tests/unit/step-up-routes.test.ts holds every state-changing route's choice.
 *
 * `sessionCheck: "upstream-slot"` is for a read whose work is one upstream call for the person
 * (GET, no step-up): when this process found the session alive within the last few seconds,
 * the handler starts from that, and the call's budget slot confirms the session in the same
 * statement (lib/upstream/session-slot.ts), so the request costs one database round trip, not
 * two. A session the slot finds ended, idle, disabled or with other roles is judged again as
 * usual (401, or the handler run anew); a handler that took no slot (a cached answer) has its
 * session checked before its answer leaves.
 */
export function withStaff<P = Record<string, string | string[]>>(
  handler: StaffHandler<P>,
  options: {
    permission?: Permission;
    during?: readonly PendingStep[];
    stepUp?: boolean;
    sessionCheck?: "upstream-slot";
  } = {},
): StaffRoute<P> {
  const serve = async (req: NextRequest, context: RouteContext<P>, session: LiveSession): Promise<Response> => {
    if (session.pendingStep && !options.during?.includes(session.pendingStep)) return pendingStepProblem(session.pendingStep);
    if (options.permission && !can(session.actor.roles, options.permission)) {
      throw new AppError("forbidden", "You do not have permission to do this.");
    }
    const params = (await context?.params) ?? ({} as P);
    const textErrors = findTextProblems(params, { multiline: false });
    if (hasTextProblems(textErrors))
      throw new AppError("invalid_request", "The address is not valid.", { fieldErrors: textErrors });
    if (!["GET", "HEAD", "OPTIONS"].includes(req.method)) assertJsonBody(req);
    if (options.stepUp) await assertFreshProof(session);
    return noStoreUnlessSet(await handler({ req, actor: session.actor, session, params }));
  };

  /** The answer of a request started from a remembered session, or null where the usual check must decide. */
  const serveRemembered = async (req: NextRequest, context: RouteContext<P>): Promise<Response | null> => {
    const remembered = await rememberedCurrentSession();
    if (!remembered) return null;
    const confirmation: SessionConfirmation = { guard: remembered.guard, state: "pending" };
    const answer = await confirmingSession(confirmation, () => serve(req, context, remembered.live)).catch(problemFromError);
    if (confirmation.state === "confirmed") return answer;
    if (confirmation.state === "refused") return null;
    const session = await currentSession();
    if (!session) return problem("unauthenticated", "Sign in to continue.");
    return sameStanding(session, remembered.live) ? answer : null;
  };

  const route = async (req: NextRequest, context: RouteContext<P>): Promise<Response> => {
    try {
      if (!["GET", "HEAD", "OPTIONS"].includes(req.method)) checkSameOrigin(req.headers);
      if (options.sessionCheck === "upstream-slot" && req.method === "GET" && !options.stepUp) {
        const answer = await serveRemembered(req, context);
        if (answer) return answer;
      }
      const session = await currentSession();
      if (!session) return problem("unauthenticated", "Sign in to continue.");
      return await serve(req, context, session);
    } catch (error) {
      return problemFromError(error);
    }
  };
  return Object.assign(route, { stepUp: options.stepUp === true });
}

/** Whether a session found alive now allows what the remembered one did (a handler's answer for it stands). */
function sameStanding(now: LiveSession, remembered: LiveSession): boolean {
  return now.pendingStep === remembered.pendingStep && now.actor.roles.join(",") === remembered.actor.roles.join(",");
}

function pendingStepProblem(step: PendingStep): Response {
  return step === "second_factor"
    ? problem("second_factor_required", "Confirm the sign-in with your second factor first.", {
        status: 403,
        members: { next: PENDING_STEP_PAGES.second_factor },
      })
    : problem("second_factor_enrolment_required", "Your role must have a second factor: set one up first.", {
        status: 403,
        members: { next: PENDING_STEP_PAGES.enrolment },
      });
}

/** Handlers build their own Response (Response.json, new Response), whose headers can be changed. */
function noStoreUnlessSet(res: Response): Response {
  if (!res.headers.has("cache-control")) res.headers.set("cache-control", "no-store");
  return res;
}
