import type { IncomingMessage, ServerResponse } from "node:http";

export const THRESHOLD_BYTES: number;
export function acceptsGzip(header: string | undefined): boolean;
export function compressResponse(req: IncomingMessage, res: ServerResponse): void;
