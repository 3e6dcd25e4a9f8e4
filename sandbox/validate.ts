import { invalidRequest, type FieldErrors } from "./problem";
import { isCurrencyCode, parseAmount } from "./money";

// Field readers that collect every problem into one `errors` map (keys are dotted field paths),
// so a caller sees all mistakes of a body at once.

export type JsonObject = Record<string, unknown>;

export type Reader = {
  errors: FieldErrors;
  add(path: string, message: string): void;
  fail(detail?: string): void; // throws when anything was added
};

export function createReader(): Reader {
  // No prototype: a field named "constructor" or "__proto__" in a hostile body must be just a key.
  const errors: FieldErrors = Object.create(null) as FieldErrors;
  const add = (path: string, message: string) => {
    (errors[path] ??= []).push(message);
  };
  return {
    errors,
    add,
    fail: (detail = "The request is invalid; see errors.") => {
      if (Object.keys(errors).length > 0) throw invalidRequest(detail, errors);
    },
  };
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function requireObjectBody(body: unknown): JsonObject {
  if (!isObject(body)) throw invalidRequest("The body must be a JSON object.", { body: ["Must be a JSON object."] });
  return body;
}

export function rejectUnknown(r: Reader, obj: JsonObject, allowed: readonly string[], prefix = ""): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) r.add(prefix + key, "Unknown field.");
  }
}

type StringRule = { required?: boolean; max?: number; pattern?: RegExp; patternMessage?: string };

export function readString(r: Reader, obj: JsonObject, key: string, path: string, rule: StringRule = {}): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null) {
    if (rule.required) r.add(path, "Is required.");
    return undefined;
  }
  if (typeof value !== "string") return void r.add(path, "Must be a string.");
  if (rule.required && value.trim() === "") return void r.add(path, "Must not be empty.");
  if (rule.max !== undefined && value.length > rule.max) return void r.add(path, `Must be at most ${rule.max} characters.`);
  if (rule.pattern && !rule.pattern.test(value)) return void r.add(path, rule.patternMessage ?? "Has an invalid format.");
  return value;
}

export function readInteger(
  r: Reader,
  obj: JsonObject,
  key: string,
  path: string,
  rule: { required?: boolean; min: number; max: number },
): number | undefined {
  const value = obj[key];
  if (value === undefined || value === null) {
    if (rule.required) r.add(path, "Is required.");
    return undefined;
  }
  if (typeof value !== "number" || !Number.isInteger(value)) return void r.add(path, "Must be an integer.");
  if (value < rule.min || value > rule.max) return void r.add(path, `Must be between ${rule.min} and ${rule.max}.`);
  return value;
}

// Returns cents.
export function readAmount(
  r: Reader,
  obj: JsonObject,
  key: string,
  path: string,
  rule: { required?: boolean; min?: number } = {},
): number | undefined {
  const value = obj[key];
  if (value === undefined || value === null) {
    if (rule.required) r.add(path, "Is required.");
    return undefined;
  }
  const cents = parseAmount(value);
  if (typeof cents === "string") return void r.add(path, cents);
  if (cents < (rule.min ?? 0)) return void r.add(path, rule.min ? "Must be greater than zero." : "Must not be negative.");
  return cents;
}

export function readCurrency(r: Reader, obj: JsonObject, key: string, path: string, required = true): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null) {
    if (required) r.add(path, "Is required.");
    return undefined;
  }
  if (!isCurrencyCode(value)) return void r.add(path, "Must be a three-letter upper-case ISO 4217 code.");
  return value;
}

export function readBoolean(r: Reader, obj: JsonObject, key: string, path: string): boolean | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") return void r.add(path, "Must be true or false.");
  return value;
}

export function readRate(r: Reader, obj: JsonObject, key: string, path: string): number | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 1)
    return void r.add(path, "Must be a number from 0 to 1.");
  return value;
}

export function readNumber(
  r: Reader,
  obj: JsonObject,
  key: string,
  path: string,
  rule: { min: number; max: number },
): number | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < rule.min || value > rule.max) {
    return void r.add(path, `Must be a number from ${rule.min} to ${rule.max}.`);
  }
  return value;
}

export function readStringArray(r: Reader, obj: JsonObject, key: string, path: string): string[] | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string"))
    return void r.add(path, "Must be an array of strings.");
  return value as string[];
}

// The contract's rule for Idempotency-Key: 1 to 128 printable (ASCII 0x20–0x7E) characters.
export function readIdempotencyKey(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value === "") {
    throw invalidRequest("The Idempotency-Key header is required.", { "Idempotency-Key": ["Is required."] });
  }
  if (value.length > 128 || !/^[\x20-\x7e]+$/.test(value)) {
    throw invalidRequest("The Idempotency-Key header must be 1 to 128 printable characters.", {
      "Idempotency-Key": ["Must be 1 to 128 printable ASCII characters."],
    });
  }
  return value;
}

// Key order must not matter when comparing two bodies sent under one Idempotency-Key.
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isObject(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
