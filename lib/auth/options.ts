import "server-only";
import type { NextAuthOptions } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { getEnv, usesSecureCookies } from "@/lib/env";
import { db } from "@/lib/db/client";
import { recordAudit } from "@/lib/audit/record";
import { clientAddress, clientUserAgent } from "./client-address";
import { logger } from "@/lib/log";
import { signInWithPassword } from "./sign-in";
import { sessionIsAlive } from "./staff-session";
import { safeCallbackPath } from "./safe-callback";
import { sessionTokenOptions } from "./session-token";
import { PASSWORDS_OFF_ERROR } from "./credentials-schema";

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
    // The cookie made and read as every other way in makes and reads it (lib/auth/session-token.ts).
    ...sessionTokenOptions(env),
    pages: { signIn: "/signin", error: "/signin" },
    providers: [
      Credentials({
        name: "Email and password",
        credentials: { email: { type: "email" }, password: { type: "password" } },
        async authorize(credentials, req) {
          const headers = (req?.headers ?? {}) as Record<string, string | undefined>;
          const result = await signInWithPassword(credentials, {
            ip: clientAddress(headers),
            userAgent: clientUserAgent(headers),
          });
          // next-auth hands a thrown error's message to the sign-in form as `error`.
          if (!result.ok && result.reason === "sso_only") throw new Error(PASSWORDS_OFF_ERROR);
          if (!result.ok) return null;
          return { ...result.staff, sid: result.sessionId };
        },
      }),
    ],
    callbacks: {
      // next-auth's own default accepts any same-origin URL, tab-smuggled `//` included.
      redirect({ url }) {
        return new URL(safeCallbackPath(url, env.APP_URL), env.APP_URL).toString();
      },
      // Runs for every read of the cookie through next-auth (/api/auth/session among them).
      // A session that has ended on the server (sign-out, deactivation, reset, idle,
      // lifetime) throws: next-auth then answers `{}` and clears the cookie instead of
      // re-issuing it, exactly as every other route refuses it.
      async jwt({ token, user }) {
        if (user?.sid) {
          token.sid = user.sid;
          return token;
        }
        if (!token.sid || !(await sessionIsAlive(token.sid))) throw new SessionEnded();
        return token;
      },
      session({ session, token }) {
        session.sid = token.sid;
        return session;
      },
    },
    logger: {
      error(code, metadata) {
        if (metadata instanceof SessionEnded) return;
        const message = metadata instanceof Error ? metadata.message : (metadata as { message?: unknown } | undefined)?.message;
        logger.error("next-auth error", { code, message: typeof message === "string" ? message : undefined });
      },
      warn(code) {
        logger.warn("next-auth warning", { code });
      },
      debug() {},
    },
    events: {
      async signOut({ token }) {
        const sid = token?.sid;
        if (!sid) return;
        await db().$transaction(async (tx) => {
          const ended = await tx.staffSession.updateMany({
            where: { id: sid, endedAt: null },
            data: { endedAt: new Date(), endReason: "signed_out" },
          });
          if (ended.count === 0) return;
          const session = await tx.staffSession.findUnique({ where: { id: sid }, include: { staff: true } });
          await recordAudit(tx, {
            action: "auth.sign_out",
            actor: { staffId: session?.staffId, email: session?.staff.email },
            targetId: sid,
          });
        });
      },
    },
  };
}

/** Thrown by the jwt callback for a cookie whose session row is no longer alive; not an error worth logging. */
class SessionEnded extends Error {
  constructor() {
    super("The session has ended.");
    this.name = "SessionEnded";
  }
}
