import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import type { Permission } from "@/lib/auth/permissions";
import { withStaff } from "./with-staff";
import { parseInput } from "@/lib/validation";
import { searchParamsObject } from "./parse";

type PageRequest = { cursor?: string; limit?: number };

/**
 * GET of a newest-first list: the filter and `cursor`/`limit` from the query string (a bad
 * one is a 400 naming the field), the page as JSON.
 */
export function keysetListRoute<S extends z.ZodObject, R>(options: {
  filter: S;
  cursor: z.ZodType<string>;
  permission: Permission;
  list: (actor: Actor, filter: z.infer<S>, page: PageRequest) => Promise<R>;
}) {
  const querySchema = options.filter.safeExtend({
    cursor: options.cursor.optional(),
    limit: z.coerce.number().int().min(1).max(200).optional(),
  });
  return withStaff(
    async ({ req, actor }) => {
      const { cursor, limit, ...filter } = parseInput(querySchema, searchParamsObject(req.url)) as z.infer<S> & PageRequest;
      // The rest is the filter schema's output (the extension only added cursor and limit).
      return Response.json(await options.list(actor, filter as z.infer<S>, { cursor, limit }));
    },
    { permission: options.permission },
  );
}
