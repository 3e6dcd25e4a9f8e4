import type { z } from "zod";
import { AppError } from "@/lib/errors";
import { fieldErrorsFrom } from "./problem";

const MAX_BODY_BYTES = 64 * 1024;

/** Reads a JSON body (bounded size) and validates it; any failure is a 400 with field errors. */
export async function parseJsonBody<S extends z.ZodType>(req: Request, schema: S, maxBytes = MAX_BODY_BYTES): Promise<z.infer<S>> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new AppError("payload_too_large", `The request body is larger than ${maxBytes} bytes.`);
  const text = await req.text();
  if (Buffer.byteLength(text) > maxBytes) throw new AppError("payload_too_large", `The request body is larger than ${maxBytes} bytes.`);
  let json: unknown;
  try {
    json = text.length ? JSON.parse(text) : {};
  } catch {
    throw new AppError("invalid_request", "The request body is not valid JSON.");
  }
  return parseInput(schema, json);
}

export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new AppError("invalid_request", "Some fields are not valid.", { fieldErrors: fieldErrorsFrom(result.error) });
  return result.data;
}

/** Query-string parameters as a plain object (last value wins), for zod. */
export function searchParamsObject(url: string | URL): Record<string, string> {
  return Object.fromEntries(new URL(url).searchParams.entries());
}
