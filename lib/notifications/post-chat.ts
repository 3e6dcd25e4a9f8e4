import "server-only";
import { lookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import { Agent, request } from "undici";
import { getEnv } from "@/lib/env";
import { bareHostname, hostAndPort, isPublicAddress, webhookUrlProblem } from "@/lib/http/outgoing-address";
import { retryAfterMs } from "@/lib/upstream/client/retry-policy";
import { chatOutcome, type Outcome } from "./delivery-policy";

const TIMEOUT_MS = 10_000;

export type ResolvedAddress = { address: string; family: number };
/** A host name's addresses: the system resolver by default; tests give their own. */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolve: Resolve = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * One POST of Slack-compatible JSON to the workspace's incoming webhook, the one send path of
 * every chat message. The URL is checked again as saved (lib/http/outgoing-address.ts), then its
 * host resolved: when any answer is not a public address nothing is sent, and the connection
 * goes to the address vetted here (a pinned lookup), so a second DNS answer cannot swap it.
 * Redirects are not followed. A failure says only that the server could not be reached or the
 * status it answered: no transport error, which would map the network for whoever reads it. The
 * URL is a credential: no reason says it.
 */
export async function postChat(url: string, payload: object, resolve: Resolve = systemResolve): Promise<Outcome> {
  const allowHosts = getEnv().OUTGOING_WEBHOOK_ALLOW_HOSTS;
  if (webhookUrlProblem(url, allowHosts)) return NOT_ALLOWED;
  const target = new URL(url);
  const allowed = allowHosts.includes(hostAndPort(target));
  const address = await vettedAddress(bareHostname(target), resolve, allowed);
  if (address === "not public") return NOT_ALLOWED;
  if (address === "unresolved") return chatOutcome({ unreachable: true });

  const dispatcher = new Agent({ connect: { lookup: pinnedLookup(address) } });
  try {
    const response = await request(target, {
      dispatcher,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await response.body.dump();
    const retryAfter = response.headers["retry-after"];
    return chatOutcome({
      status: response.statusCode,
      retryAfterMs: typeof retryAfter === "string" ? retryAfterMs(retryAfter) : undefined,
    });
  } catch {
    return chatOutcome({ unreachable: true });
  } finally {
    void dispatcher.close();
  }
}

const NOT_ALLOWED: Outcome = { kind: "refused", reason: "chat webhook: its address is not a public https one" };

async function vettedAddress(
  hostname: string,
  resolve: Resolve,
  allowed: boolean,
): Promise<ResolvedAddress | "not public" | "unresolved"> {
  const literal = isIP(hostname);
  if (literal) return allowed || isPublicAddress(hostname) ? { address: hostname, family: literal } : "not public";
  let answers: ResolvedAddress[];
  try {
    answers = await resolve(hostname);
  } catch {
    return "unresolved";
  }
  if (answers.length === 0) return "unresolved";
  if (!allowed && answers.some((answer) => !isPublicAddress(answer.address))) return "not public";
  return answers[0]!;
}

/** A lookup that answers the vetted address whatever it is asked (Node asks for one or for all). */
function pinnedLookup(vetted: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [vetted]);
    else callback(null, vetted.address, vetted.family);
  };
}
