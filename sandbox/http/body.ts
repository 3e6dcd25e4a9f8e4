import type { IncomingMessage } from "node:http";
import { invalidRequest, SandboxError } from "../problem";

// Beyond this many bytes an oversized body is no longer drained politely: the connection is dropped.
const DISCARD_CAP_BYTES = 4 * 1024 * 1024;

function tooLarge(limit: number): SandboxError {
  return new SandboxError({
    status: 400,
    code: "invalid_request",
    detail: `The request body exceeds ${limit} bytes.`,
    errors: { body: [`Must be at most ${limit} bytes.`] },
    headers: { Connection: "close" },
  });
}

export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (Number.isFinite(declared) && declared > DISCARD_CAP_BYTES) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req) {
      const buffer = chunk as Buffer; // a request stream without setEncoding yields Buffers
      size += buffer.length;
      if (size > DISCARD_CAP_BYTES) {
        req.socket.destroy();
        throw tooLarge(limit);
      }
      if (size <= limit) chunks.push(buffer);
    }
  } catch (error) {
    if (error instanceof SandboxError) throw error;
    throw invalidRequest("The request body was not received completely."); // the client went away mid-body
  }
  if (size > limit) throw tooLarge(limit);
  return Buffer.concat(chunks);
}

function isJsonType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

// An empty body reads as undefined; whether that is acceptable is the handler's decision.
export function parseJsonBody(body: Buffer, contentType: string | undefined): unknown {
  if (body.length === 0) return undefined;
  if (!isJsonType(contentType)) {
    throw invalidRequest("JSON bodies must be sent with Content-Type: application/json.", {
      "Content-Type": ["Must be application/json."],
    });
  }
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw invalidRequest("The request body is not valid JSON.", { body: ["Is not valid JSON."] });
  }
}
