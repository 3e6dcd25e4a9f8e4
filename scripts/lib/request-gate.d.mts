import type { IncomingMessage, ServerResponse } from "node:http";
import type { gateRequest } from "../../lib/http/gate";

/** The compiled route's `gateRequest`, which the server calls (its own type, not a copy). */
export type GateRequestFn = typeof gateRequest;

export declare const GATED_HEADER: string;
export declare function loadGate(dir: string): Promise<GateRequestFn>;
export declare function passGate(
  gate: GateRequestFn | null,
  req: IncomingMessage,
  res: ServerResponse,
  csp: string,
): Promise<boolean>;
export declare function originFormTarget(target: string): string | null;
