import { utcMinute } from "../compose";
import { subjectKey, toApprovers } from "./approval-subject";
import { defineKind } from "./define-kind";

/** A request was written: its approvers hear, never the requester. */
export const approvalWaiting = defineKind({
  label: "An approval is waiting",
  ...toApprovers,
  eventKey: ({ subject }) => `approval.waiting:${subjectKey(subject)}`,
  compose: ({ subject, expiresAt }) => ({
    title: `${subject.what} from ${subject.requesterName} waits for your approval`,
    body: [
      ...(subject.details ?? []),
      `Asked by ${subject.requesterName}; it expires undecided at ${utcMinute(expiresAt)}.`,
    ].join("\n"),
    link: subject.link,
  }),
});
