import "server-only";
import type { NextRequest } from "next/server";
import { clientAddress, clientUserAgent } from "@/lib/auth/client-address";
import { problemFromError } from "./problem";
import { assertJsonBody } from "./parse";
import { checkSameOrigin } from "./same-origin";

export type Visitor = { ip: string | null; userAgent: string | null };

/**
 * The door of the few routes a person without a session may call (a one-time link's use): the
 * same-origin check, JSON bodies only, every thrown error a problem document, never kept by a
 * cache; what they act on is proved by the request itself (the link's token), not a session.
 * The request gate lets them through (its PUBLIC_API list).
 */
export function withVisitor(handler: (args: { req: NextRequest; visitor: Visitor }) => Promise<Response>) {
  return async (req: NextRequest): Promise<Response> => {
    try {
      checkSameOrigin(req.headers);
      assertJsonBody(req);
      const visitor = { ip: clientAddress(req.headers), userAgent: clientUserAgent(req.headers) };
      const res = await handler({ req, visitor });
      if (!res.headers.has("cache-control")) res.headers.set("cache-control", "no-store");
      return res;
    } catch (error) {
      return problemFromError(error);
    }
  };
}
