import { createHash, timingSafeEqual } from "node:crypto";
import { isAllowed } from "./cidr";
import type { Sandbox } from "./context";
import { newId, randomToken } from "./ids";
import { forbidden, unauthorized } from "./problem";
import { SCOPES, workspaceFor, type ApiKey, type Scope, type State, type Workspace } from "./state";

// API keys: `svckey_<lookup>_<secret>`. Only the lookup segment and a SHA-256 of the secret are stored;
// the secret has 200 random bits, so a fast hash is enough (no password stretching needed).

const KEY_SHAPE = /^svckey_([a-z0-9]{4,64})_([A-Za-z0-9]{16,256})$/;

export type KeyGrant = {
  workspaceId: string;
  scopes: Scope[];
  allowCidrs: string[];
  expiresAtMs: number | null;
  label: string | null;
};
export type Authenticated = { key: ApiKey; workspace: Workspace };

function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function isKeyShape(text: string): boolean {
  return KEY_SHAPE.test(text);
}

export function isScope(text: string): text is Scope {
  return (SCOPES as readonly string[]).includes(text);
}

// Issues a new key and returns its plaintext once; `plaintext` lets SANDBOX_API_KEY fix the key.
export function issueKey(state: State, grant: KeyGrant, now: number, plaintext?: string): { key: ApiKey; plaintext: string } {
  const text = plaintext ?? `svckey_${randomToken(12)}_${randomToken(40)}`;
  const match = KEY_SHAPE.exec(text);
  if (!match) throw new Error("API keys must look like svckey_<lookup>_<secret>");
  const [, lookup = "", secret = ""] = match;
  const existingId = state.keyIdsByLookup.get(lookup);
  const existing = existingId ? state.keys.get(existingId) : undefined;
  const key: ApiKey = {
    id: existing?.id ?? newId("key"),
    workspaceId: grant.workspaceId,
    lookup,
    secretHash: hashSecret(secret),
    scopes: [...grant.scopes],
    allowCidrs: [...grant.allowCidrs],
    expiresAtMs: grant.expiresAtMs,
    revokedAtMs: null,
    createdAtMs: existing?.createdAtMs ?? now,
    label: grant.label,
  };
  state.keys.set(key.id, key);
  state.keyIdsByLookup.set(lookup, key.id);
  workspaceFor(state, grant.workspaceId);
  return { key, plaintext: text };
}

// 401 for anything that does not identify a live key, then 403 for a source address outside the allow-list.
export function authenticate(sb: Sandbox, header: string | string[] | undefined, sourceIp: string): Authenticated {
  const text = Array.isArray(header) ? header[0] : header;
  if (!text) throw unauthorized("The X-Api-Key header is missing.");
  const match = KEY_SHAPE.exec(text);
  const keyId = match ? sb.state.keyIdsByLookup.get(match[1] ?? "") : undefined;
  const key = keyId ? sb.state.keys.get(keyId) : undefined;
  if (!match || !key || !sameHash(key.secretHash, hashSecret(match[2] ?? ""))) throw unauthorized("The API key is not valid.");
  const now = sb.clock.now();
  if (key.revokedAtMs !== null) throw unauthorized("The API key has been revoked.");
  if (key.expiresAtMs !== null && key.expiresAtMs <= now) throw unauthorized("The API key has expired.");
  if (!isAllowed(sourceIp, key.allowCidrs)) throw forbidden("The request's source address is not in the key's allow-list.");
  return { key, workspace: workspaceFor(sb.state, key.workspaceId) };
}

export function requireScope(key: ApiKey, scope: Scope): void {
  if (!key.scopes.includes(scope)) throw forbidden(`The API key lacks the scope ${scope}.`);
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}

export function keyView(key: ApiKey): Record<string, unknown> {
  return {
    id: key.id,
    workspace: key.workspaceId,
    prefix: `svckey_${key.lookup}`,
    scopes: key.scopes,
    allowCidrs: key.allowCidrs,
    expiresAtUtc: key.expiresAtMs === null ? null : new Date(key.expiresAtMs).toISOString(),
    revokedAtUtc: key.revokedAtMs === null ? null : new Date(key.revokedAtMs).toISOString(),
    createdAtUtc: new Date(key.createdAtMs).toISOString(),
    label: key.label,
  };
}
