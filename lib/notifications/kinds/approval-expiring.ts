import { utcMinute } from "../compose";
import { subjectKey, toApprovers } from "./approval-subject";
import { defineKind } from "./define-kind";

/** A request is about to expire undecided: its approvers hear once (the caller marks the row). */
export const approvalExpiring = defineKind({
  label: "An approval is about to expire",
  ...toApprovers,
  eventKey: ({ subject }) => `approval.expiring:${subjectKey(subject)}`,
  compose: ({ subject, expiresAt }) => ({
    title: `${subject.what} from ${subject.requesterName} expires undecided at ${utcMinute(expiresAt)}`,
    link: subject.link,
  }),
});
