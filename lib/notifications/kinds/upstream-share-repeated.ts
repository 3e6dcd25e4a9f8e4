import { z } from "zod";
import { defineKind } from "./define-kind";

/** A person's share of the upstream budget refused them in several minutes of an hour: admins hear once per person and clock hour. */
export const upstreamShareRepeated = defineKind({
  label: "A person keeps hitting their upstream share",
  roles: ["admin"],
  to: "roles",
  payload: z.object({ staffId: z.string(), email: z.string().nullable(), minutes: z.number().int(), at: z.date() }),
  eventKey: ({ staffId, at }) => `upstream.share_repeated:${staffId}:${at.toISOString().slice(0, 13)}`,
  compose: ({ email, minutes }) => ({
    title: `${email ?? "A person"} went past their share of the upstream budget in ${minutes} minutes of the last hour`,
    body: "Their calls past the share were refused (429) so that others could still work; a script or a stuck page may be the cause.",
    link: "/audit?action=upstream.share_exceeded",
  }),
});
