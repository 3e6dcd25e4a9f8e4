import { z } from "zod";
import { utcMinute } from "../compose";
import { approvalSubject, subjectKey } from "./approval-subject";
import { APPROVERS, defineKind } from "./define-kind";

/** A request was written: its approvers hear, never the requester. */
export const approvalWaiting = defineKind({
  label: "An approval is waiting",
  roles: APPROVERS,
  to: "roles",
  payload: z.object({ subject: approvalSubject, expiresAt: z.date() }),
  eventKey: ({ subject }) => `approval.waiting:${subjectKey(subject)}`,
  compose: ({ subject, expiresAt }) => ({
    title: `${subject.what} from ${subject.requesterName} waits for your approval`,
    body: [
      ...(subject.details ?? []),
      `Asked by ${subject.requesterName}; it expires undecided at ${utcMinute(expiresAt)}.`,
    ].join("\n"),
    link: subject.link,
  }),
  audience: ({ subject }) => ({ exceptStaffIds: [subject.requestedById] }),
});
