import { z } from "zod";
import { approvalSubject, subjectKey } from "./approval-subject";
import { defineKind, REQUESTERS } from "./define-kind";

/** What became of an approved request, when the decision's notice can already say. */
const then = z.discriminatedUnion("what", [
  z.object({ what: z.literal("withdrawal_sending") }),
  z.object({ what: z.literal("bulk_placing"), bulkOrderId: z.string() }),
  z.object({ what: z.literal("order_placed"), orderId: z.string(), fulfilled: z.boolean() }),
]);

/** The requester hears the decision (never the decider), and what became of it. */
export const approvalDecided = defineKind({
  label: "Your request was decided",
  roles: REQUESTERS,
  to: "named",
  payload: z.object({
    subject: approvalSubject,
    approved: z.boolean(),
    deciderId: z.string(),
    deciderName: z.string(),
    comment: z.string().optional(),
    then: then.optional(),
  }),
  eventKey: ({ subject }) => `approval.decided:${subjectKey(subject)}`,
  compose: ({ subject, approved, deciderName, comment, then }) => {
    const title = `${subject.what} was ${approved ? "approved" : "rejected"} by ${deciderName}`;
    switch (then?.what) {
      case "withdrawal_sending":
        return { title, body: "It is being sent now; the Withdrawals page shows when it is paid.", link: subject.link };
      case "bulk_placing":
        return {
          title: `${title} and its orders are being placed`,
          body: "The file's page shows each order as it is placed and fulfilled.",
          link: `/orders/bulk/${encodeURIComponent(then.bulkOrderId)}`,
        };
      case "order_placed":
        return {
          title: `${title} and placed`,
          body: then.fulfilled
            ? "It is fulfilled: the codes are on the order's page."
            : "The Issuing Service is fulfilling it; the order's page shows when it is done.",
          link: `/orders/${encodeURIComponent(then.orderId)}`,
        };
      default:
        return { title, ...(comment ? { body: `Their comment: ${comment}` } : {}), link: subject.link };
    }
  },
  audience: ({ subject, deciderId }) => ({ staffIds: [subject.requestedById], exceptStaffIds: [deciderId] }),
});
