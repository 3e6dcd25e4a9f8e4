import { z } from "zod";
import { AppError } from "@/lib/errors";
import { findTextProblems, hasTextProblems, parseInput } from "@/lib/validation";

const MAX_BODY_BYTES = 64 * 1024;

/** `application/json` or any `application/*+json`, with or without parameters. */
export function isJsonContentType(value: string | null): boolean {
  const type = value?.split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/**
 * True when the request carries a body: a declared length above zero, or chunked. An HTTP/1.1
 * request has a body only when one of the two headers says so (RFC 9112, 6.3); the Request's
 * own `body` says nothing, as Next gives every DELETE one (an empty DELETE was a 415).
 */
export function hasBody(req: Request): boolean {
  const length = req.headers.get("content-length");
  if (length !== null) return length.trim() !== "0";
  return req.headers.has("transfer-encoding");
}

/** A body under any other Content-Type than JSON is a 415, before it is read. */
export function assertJsonBody(req: Request): void {
  if (hasBody(req) && !isJsonContentType(req.headers.get("content-type"))) {
    throw new AppError("unsupported_media_type", "Send the request body as JSON (Content-Type: application/json).");
  }
}

/**
 * Reads a JSON body (bounded size) for a domain function to parse with its own schema. A
 * body that is not JSON, too large or breaks the text rule is refused here (415, 413, 400);
 * an empty body reads as `{}`.
 */
export async function readJsonBody(req: Request, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  assertJsonBody(req);
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new AppError("payload_too_large", `The request body is larger than ${maxBytes} bytes.`);
  const text = await req.text();
  if (Buffer.byteLength(text) > maxBytes)
    throw new AppError("payload_too_large", `The request body is larger than ${maxBytes} bytes.`);
  let json: unknown;
  try {
    json = text.length ? JSON.parse(text) : {};
  } catch {
    throw new AppError("invalid_request", "The request body is not valid JSON.");
  }
  const textErrors = findTextProblems(json, { multiline: true });
  if (hasTextProblems(textErrors))
    throw new AppError("invalid_request", "Some fields are not valid.", { fieldErrors: textErrors });
  return json;
}

/** For a route whose action takes no input: no body, or `{}`; any field is refused like an unknown one. */
export async function readEmptyBody(req: Request): Promise<void> {
  parseInput(z.strictObject({}), await readJsonBody(req));
}

/**
 * Query-string parameters as a plain object (last value wins), for zod. A query string is
 * single-line text: a parameter that breaks the text rule is a 400 here, named by its key.
 */
export function searchParamsObject(url: string | URL): Record<string, string> {
  const params = new URL(url).searchParams;
  const all: Record<string, string[]> = {};
  for (const [key, value] of params) (all[key] ??= []).push(value);
  const textErrors = findTextProblems(all, { multiline: false });
  if (hasTextProblems(textErrors))
    throw new AppError("invalid_request", "Some query parameters are not valid.", { fieldErrors: collapseIndexes(textErrors) });
  return Object.fromEntries(params.entries());
}

/** "status.1" → "status": a repeated parameter is one field to the person reading the message. */
function collapseIndexes(errors: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(errors)) out[key.replace(/\.\d+$/, "")] ??= messages;
  return out;
}
