import type { Sandbox } from "../context";
import type { Reply } from "../http/reply";
import type { Route } from "../http/router";
import { DEFAULT_WORKSPACE } from "../state";
import { isObject, readString, type JsonObject, type Reader } from "../validate";
import { invalidRequest } from "../problem";

export type ControlContext = {
  sb: Sandbox;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  correlationId: string;
};
export type ControlHandler = (ctx: ControlContext) => Reply;
export type ControlRoute = Route<ControlHandler>;

export function controlParam(ctx: ControlContext, name: string): string {
  return ctx.params[name] ?? "";
}

// Control-plane bodies are optional objects: an empty body reads as {}.
export function controlBody(ctx: ControlContext): JsonObject {
  if (ctx.body === undefined) return {};
  if (!isObject(ctx.body)) throw invalidRequest("The body must be a JSON object.", { body: ["Must be a JSON object."] });
  return ctx.body;
}

export function readWorkspaceId(r: Reader, obj: JsonObject): string {
  return (
    readString(r, obj, "workspace", "workspace", {
      max: 64,
      pattern: /^[A-Za-z0-9_-]+$/,
      patternMessage: "Must be letters, digits, - or _.",
    }) ?? DEFAULT_WORKSPACE
  );
}
