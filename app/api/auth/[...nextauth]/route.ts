import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptions } from "@/lib/auth/options";
import { checkSameOrigin } from "@/lib/http/same-origin";
import { problemFromError } from "@/lib/http/problem";

type Context = { params: Promise<{ nextauth: string[] }> };

// Built per request so that configuration is read at run time, not at build time.
function handle(req: NextRequest, context: Context) {
  return NextAuth(authOptions())(req, context);
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
