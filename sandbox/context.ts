import type { IncomingMessage, ServerResponse } from "node:http";
import type { Catalog } from "./catalog";
import type { Clock } from "./clock";
import type { Faults } from "./faults";
import type { State } from "./state";
import type { Timers } from "./timers";

// Runtime knobs. They come from options/environment at start and from the control plane; they are not persisted.
export type Settings = {
  rateLimitPerMinute: number;
  quoteTtlSeconds: number;
  webhookRetryScale: number;
  webhookTimeoutMs: number;
  maxBodyBytes: number;
  fulfilment: { mode: "auto" | "manual"; delayMs: number | null; failRate: number };
  faults: Faults;
};

// One plane of the server (the public API, the control plane): the request, once its URL is parsed.
export type PlaneHandler = (
  sb: Sandbox,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  correlationId: string,
) => Promise<void>;

// What every domain function receives: the state plus the few services around it.
export type Sandbox = {
  state: State;
  catalog: Catalog;
  settings: Settings;
  clock: Clock;
  timers: Timers;
  shutdown: AbortSignal; // aborted by close(): cancels in-flight webhook requests and held responses
  changed(): void; // state was mutated: schedule a persist
  emit(workspaceId: string, type: string, data: Record<string, unknown>): void; // webhooks.ts wires this
  onOrderCreated(workspaceId: string, orderId: string): void; // order-lifecycle.ts wires this
  log(message: string): void;
  // 429s answered since start, and per workspace and rate window (keyed "<workspace> <window start ms>")
  // the requests let through and refused, the last hour of windows kept (GET /_sandbox/rate-limit reports both).
  counters: { rateLimited: number; windows: Map<string, { accepted: number; rateLimited: number }> };
  // Which key made each call of the public API (the last 10,000, not persisted): GET /_sandbox/calls.
  calls: KeyCall[];
};

export type KeyCall = { atMs: number; keyId: string; method: string; path: string; scope: string; allowed: boolean };
