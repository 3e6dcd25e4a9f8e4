import "server-only";
import type { NextAuthOptions } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { getEnv, usesSecureCookies } from "@/lib/env";
import { db } from "@/lib/db/client";
import { recordAudit } from "@/lib/audit/record";
import { clientAddress, clientUserAgent } from "@/lib/http/client-address";
import { signInWithPassword } from "./sign-in";
import { safeCallbackPath } from "./safe-callback";

declare module "next-auth" {
  interface User {
    sid?: string;
  }
  interface Session {
    sid?: string;
  }
}
declare module "next-auth/jwt" {
  interface JWT {
    sid?: string;
  }
}

/**
 * next-auth with the Credentials provider (JWT sessions only). The JWT carries nothing
 * but the id of a StaffSession row; that row decides on every request whether the
 * session is alive (lib/auth/staff-session.ts), so sign-out, deactivation and password
 * resets end it on the server at once.
 */
export function authOptions(): NextAuthOptions {
  const env = getEnv();
  return {
    secret: env.AUTH_SECRET,
    useSecureCookies: usesSecureCookies(env),
    session: { strategy: "jwt", maxAge: env.SESSION_MAX_HOURS * 3600 },
    pages: { signIn: "/signin", error: "/signin" },
    providers: [
      Credentials({
        name: "Email and password",
        credentials: { email: { type: "email" }, password: { type: "password" } },
        async authorize(credentials, req) {
          const headers = (req?.headers ?? {}) as Record<string, string | undefined>;
          const result = await signInWithPassword(credentials, { ip: clientAddress(headers), userAgent: clientUserAgent(headers) });
          if (!result.ok) return null;
          return { id: result.staffId, name: result.name, email: result.email, sid: result.sessionId };
        },
      }),
    ],
    callbacks: {
      // next-auth's own default accepts any same-origin URL, tab-smuggled `//` included.
      redirect({ url }) {
        return new URL(safeCallbackPath(url, env.APP_URL), env.APP_URL).toString();
      },
      jwt({ token, user }) {
        if (user?.sid) token.sid = user.sid;
        return token;
      },
      session({ session, token }) {
        session.sid = token.sid;
        return session;
      },
    },
    events: {
      async signOut({ token }) {
        const sid = token?.sid;
        if (!sid) return;
        await db().$transaction(async (tx) => {
          const ended = await tx.staffSession.updateMany({ where: { id: sid, endedAt: null }, data: { endedAt: new Date(), endReason: "signed_out" } });
          if (ended.count === 0) return;
          const session = await tx.staffSession.findUnique({ where: { id: sid }, include: { staff: true } });
          await recordAudit(tx, {
            action: "auth.sign_out",
            actor: { staffId: session?.staffId, email: session?.staff.email },
            targetType: "session",
            targetId: sid,
          });
        });
      },
    },
  };
}
