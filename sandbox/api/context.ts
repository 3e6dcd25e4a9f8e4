import type { IncomingHttpHeaders } from "node:http";
import type { Sandbox } from "../context";
import type { Reply } from "../http/reply";
import type { Route } from "../http/router";
import type { Authenticated } from "../keys";
import type { Scope } from "../state";

// What a public-API door receives once the pipeline has authenticated, scoped, rate-limited and parsed.
export type ApiContext = {
  sb: Sandbox;
  auth: Authenticated;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
  correlationId: string;
};

export type ApiEndpoint = { scope: Scope; readsBody: boolean; handle: (ctx: ApiContext) => Reply };
export type ApiRoute = Route<ApiEndpoint>;

export function param(ctx: ApiContext, name: string): string {
  return ctx.params[name] ?? "";
}
