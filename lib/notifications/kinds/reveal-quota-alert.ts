import { z } from "zod";
import { defineKind } from "./define-kind";

/** A person was refused a reveal over the hourly quota: admins hear once per person and clock hour. */
export const revealQuotaAlert = defineKind({
  label: "A person reached the reveal quota",
  roles: ["admin"],
  to: "roles",
  payload: z.object({
    staffId: z.string(),
    name: z.string(),
    email: z.string(),
    used: z.number(),
    quota: z.number(),
    at: z.date(),
  }),
  eventKey: ({ staffId, at }) => `reveal.quota_alert:${staffId}:${at.toISOString().slice(0, 13)}`,
  compose: ({ name, email, used, quota }) => ({
    title: `${name} reached the reveal quota: ${used} reveals in the last hour (the limit is ${quota})`,
    body: `${email} was refused a further reveal of codes.`,
    link: "/audit?action=order.reveal_quota_exceeded",
  }),
});
