import { parseCidr } from "../cidr";
import { iso, parseIso } from "../clock";
import { route } from "../http/router";
import { isScope, issueKey, keyView } from "../keys";
import { notFound } from "../problem";
import { createReader, readString, readStringArray, rejectUnknown } from "../validate";
import { controlBody, controlParam, readWorkspaceId, type ControlHandler, type ControlRoute } from "./context";

// Keys are issued and revoked only here (the dashboard's stand-in), never over the public API.

export const keyRoutes: ControlRoute[] = [
  route<ControlHandler>("POST", "/_sandbox/keys", (ctx) => {
    const body = controlBody(ctx);
    const r = createReader();
    rejectUnknown(r, body, ["scopes", "allowCidrs", "expiresAtUtc", "workspace", "label"]);
    const scopes = readStringArray(r, body, "scopes", "scopes");
    if (scopes === undefined) r.add("scopes", "Is required.");
    for (const scope of scopes ?? []) if (!isScope(scope)) r.add("scopes", `Unknown scope ${scope}.`);
    const allowCidrs = readStringArray(r, body, "allowCidrs", "allowCidrs") ?? [];
    for (const cidr of allowCidrs) if (!parseCidr(cidr)) r.add("allowCidrs", `${cidr} is not an IPv4 or IPv6 CIDR.`);
    const expiresText = readString(r, body, "expiresAtUtc", "expiresAtUtc");
    const expiresAtMs = expiresText === undefined ? null : parseIso(expiresText);
    if (expiresText !== undefined && expiresAtMs === null) r.add("expiresAtUtc", "Must be an ISO 8601 timestamp.");
    const workspaceId = readWorkspaceId(r, body);
    const label = readString(r, body, "label", "label", { max: 200 }) ?? null;
    r.fail();
    const { key, plaintext } = issueKey(
      ctx.sb.state,
      { workspaceId, scopes: (scopes ?? []).filter(isScope), allowCidrs, expiresAtMs, label },
      ctx.sb.clock.now(),
    );
    ctx.sb.changed();
    return { status: 201, json: { ...keyView(key), key: plaintext } };
  }),
  route<ControlHandler>("GET", "/_sandbox/keys", (ctx) => ({
    status: 200,
    json: { items: [...ctx.sb.state.keys.values()].map(keyView) },
  })),
  // Which key made each public API call (the contract says every mutating call is attributed to its
  // key; the sandbox keeps reads too, so tests can see that each call used the narrowest key).
  route<ControlHandler>("GET", "/_sandbox/calls", (ctx) => ({
    status: 200,
    json: {
      items: ctx.sb.calls.map((c) => ({ ...c, at: iso(c.atMs), atMs: undefined })),
    },
  })),
  route<ControlHandler>("DELETE", "/_sandbox/calls", (ctx) => {
    ctx.sb.calls.length = 0;
    return { status: 204 };
  }),
  route<ControlHandler>("DELETE", "/_sandbox/keys/:keyId", (ctx) => {
    const key = ctx.sb.state.keys.get(controlParam(ctx, "keyId"));
    if (!key) throw notFound(`Key ${controlParam(ctx, "keyId")} does not exist.`);
    key.revokedAtMs ??= ctx.sb.clock.now();
    ctx.sb.changed();
    return { status: 200, json: { ...keyView(key), revokedAtUtc: iso(key.revokedAtMs) } };
  }),
];
