import type { ServerResponse } from "node:http";
import type { PlainAnswer } from "@/lib/http/problem";
import { SECURITY_HEADERS } from "@/scripts/security-headers.mjs";

const SECURITY = Object.fromEntries(SECURITY_HEADERS.map(({ key, value }) => [key.toLowerCase(), value]));

/**
 * Writes an answer the edge gives itself (the gate's refusals, the webhook door's answers) with
 * the headers Next gives its own (next.config.mjs's security headers) and `policy` as the
 * Content-Security-Policy; the answer's own headers come last. Nothing, if the client is gone.
 */
export function sendPlainAnswer(res: ServerResponse, answer: PlainAnswer, policy: string): void {
  if (res.destroyed) return;
  const body = Buffer.from(answer.body);
  res.writeHead(answer.status, {
    ...SECURITY,
    "content-security-policy": policy,
    ...answer.headers,
    "content-length": body.length,
  });
  res.end(body);
}
