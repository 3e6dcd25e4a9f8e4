import type { IncomingMessage, ServerResponse } from "node:http";

export const THRESHOLD_BYTES: number;
export function chooseEncoding(header: unknown): "zstd" | "gzip" | null;
export function compressResponse(req: IncomingMessage, res: ServerResponse): void;
