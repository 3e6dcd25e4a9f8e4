import { z } from "zod";
import { utcMinute } from "../compose";
import { approvalSubject, subjectKey } from "./approval-subject";
import { APPROVERS, defineKind } from "./define-kind";

/** A request is about to expire undecided: its approvers hear once (the caller marks the row). */
export const approvalExpiring = defineKind({
  label: "An approval is about to expire",
  roles: APPROVERS,
  to: "roles",
  payload: z.object({ subject: approvalSubject, expiresAt: z.date() }),
  eventKey: ({ subject }) => `approval.expiring:${subjectKey(subject)}`,
  compose: ({ subject, expiresAt }) => ({
    title: `${subject.what} from ${subject.requesterName} expires undecided at ${utcMinute(expiresAt)}`,
    link: subject.link,
  }),
  audience: ({ subject }) => ({ exceptStaffIds: [subject.requestedById] }),
});
