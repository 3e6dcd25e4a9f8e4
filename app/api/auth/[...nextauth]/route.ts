import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptions } from "@/lib/auth/options";
import { checkSameOrigin } from "@/lib/http/same-origin";
import { problem, problemFromError } from "@/lib/http/problem";

type Context = { params: Promise<{ nextauth: string[] }> };

// Built per request so that configuration is read at run time, not at build time.
async function handle(req: NextRequest, context: Context): Promise<Response> {
  const res: Response = await NextAuth(authOptions())(req, context);
  // next-auth answers an unknown action (/api/auth/anything) with a bare text 400; every
  // error of this app's API is a problem document. Its JSON answers and redirects pass as they are.
  if (res.status >= 400 && !res.headers.get("content-type")?.includes("json")) {
    return problem(res.status === 404 ? "not_found" : "invalid_request", "There is no such sign-in endpoint.", {
      status: res.status,
    });
  }
  return res;
}

export const GET = handle;

export async function POST(req: NextRequest, context: Context) {
  // next-auth has its own CSRF token; the Origin check is the app-wide rule on top.
  try {
    checkSameOrigin(req.headers);
  } catch (error) {
    return problemFromError(error);
  }
  return handle(req, context);
}
