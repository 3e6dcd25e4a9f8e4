import { z } from "zod";
import { AppError, type FieldErrors } from "@/lib/errors";
import { amountProblem, currencyDecimalsProblem, numberAmountProblem, type AmountRule } from "@/lib/money";

/**
 * The one text rule for every string from outside (bodies, query strings, path segments, CSV
 * cells, form fields): no C0 control character but TAB, no lone UTF-16 surrogate (PostgreSQL
 * refuses both in text and jsonb, and they break logs, CSV files and rendering), and line
 * breaks only in fields declared multi-line. Applied twice, so that a new field cannot forget
 * it: at every door, by a deep walk of the raw input (`parseInput` below, lib/http's
 * `readJsonBody` and `searchParamsObject`, withStaff's path params, lib/http/gate.ts), which
 * cannot know which body fields are multi-line, so lets line breaks through in bodies and
 * refuses them in paths and query strings; and in the schemas, whose text fields are
 * `singleLineText()` or `multiLineText()`. A refusal is a 400 problem document on the field.
 */

// C0 controls except TAB (09), LF (0A) and CR (0D); line breaks are judged separately.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;
const LINE_BREAK = /[\r\n]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export type TextOptions = { multiline: boolean };

/** The message for a string that breaks the rule, or null when it is fine. */
export function textProblem(value: string, { multiline }: TextOptions): string | null {
  const control = CONTROL.exec(value);
  if (control)
    return `Contains a control character (U+${codePoint(control[0])})${onLine(value, control.index)} that is not allowed.`;
  const surrogate = LONE_SURROGATE.exec(value);
  if (surrogate) return `Contains broken Unicode text (an unpaired surrogate)${onLine(value, surrogate.index)}.`;
  if (!multiline && LINE_BREAK.test(value)) return "Must be a single line (no line breaks).";
  return null;
}

/** " on line N" for multi-line text (an uploaded file, a long reason), so the person can find it. */
function onLine(value: string, index: number): string {
  if (!LINE_BREAK.test(value)) return "";
  return ` on line ${value.slice(0, index).split(/\r\n|\r|\n/).length}`;
}

function codePoint(char: string): string {
  return char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
}

const MAX_REPORTED = 20;

/**
 * Walks any parsed input (object keys included) and returns a message per offending path,
 * keyed like zod field errors ("lines.0.name"; "_" for the input itself). Iterative, so a
 * deeply nested body cannot exhaust the stack.
 */
export function findTextProblems(input: unknown, options: TextOptions): FieldErrors {
  type Node = { value: unknown; key: string; parent: Node | null };
  // Paths are built only for a reported problem: a deep body must not cost depth² copies.
  const pathOf = (node: Node): string => {
    const keys: string[] = [];
    for (let at: Node | null = node; at?.parent; at = at.parent) keys.push(at.key);
    return keys.length ? keys.reverse().join(".") : "_";
  };
  const errors: FieldErrors = {};
  let reported = 0;
  const report = (at: string, message: string) => {
    if (errors[at]) return;
    errors[at] = [message];
    reported++;
  };
  const stack: Node[] = [{ value: input, key: "", parent: null }];
  while (stack.length && reported < MAX_REPORTED) {
    const node = stack.pop()!;
    const { value } = node;
    if (typeof value === "string") {
      const message = textProblem(value, options);
      if (message) report(pathOf(node), message);
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: String(i), parent: node });
    } else if (value && typeof value === "object") {
      for (const [name, child] of Object.entries(value)) {
        // A field name is single-line text as well; report it under a printable path.
        const nameProblem = textProblem(name, { multiline: false });
        if (nameProblem) report(pathOf({ value: null, key: "(field name)", parent: node }), nameProblem);
        else stack.push({ value: child, key: name, parent: node });
      }
    }
  }
  return errors;
}

export function hasTextProblems(errors: FieldErrors): boolean {
  return Object.keys(errors).length > 0;
}

/**
 * Validates input from outside, once, in the domain function that takes it: first the text
 * rule over every string in it (so that no field can forget it; line breaks are left to
 * each field's schema), then the schema. Either failure is an `invalid_request` AppError
 * with field errors, which the door answers as a 400.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const textErrors = findTextProblems(input, { multiline: true });
  if (hasTextProblems(textErrors))
    throw new AppError("invalid_request", "Some fields are not valid.", { fieldErrors: textErrors });
  const result = schema.safeParse(input);
  if (!result.success)
    throw new AppError("invalid_request", "Some fields are not valid.", { fieldErrors: fieldErrorsFrom(result.error) });
  return result.data;
}

/**
 * Field errors keyed by dotted path ("lines.0.quantity"), as forms expect them. Only the
 * first problem of each field is kept: "Enter an email" makes "not a valid email" noise.
 */
export function fieldErrorsFrom(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_";
    errors[key] ??= [issue.message];
  }
  return errors;
}

type StringParams = Parameters<typeof z.string>[0];

/** A one-line text field (names, references, ids, filters). Chain `.trim().min().max()` as usual. */
export function singleLineText(params?: StringParams) {
  return z.string(params).check(
    z.refine((v: string) => textProblem(v, { multiline: false }) === null, {
      error: (i) => textProblem(String(i.input), { multiline: false }) ?? "Not valid text.",
    }),
  );
}

/** A text field where line breaks belong (reasons, comments, an uploaded file). */
export function multiLineText(params?: StringParams) {
  return z.string(params).check(
    z.refine((v: string) => textProblem(v, { multiline: true }) === null, {
      error: (i) => textProblem(String(i.input), { multiline: true }) ?? "Not valid text.",
    }),
  );
}

/**
 * Calendar days a person can mean, for every date filter (orders, audit; pages, APIs and
 * exports). Outside this range a date is a typo or a probe, and year 0 or 10000 cannot
 * even be stored by PostgreSQL's timestamp.
 */
/** An email address typed into a form: trimmed, lower-cased, at most 254 characters (RFC 5321), one line. */
export function emailAddress(messages: { missing: string }) {
  return singleLineText({ error: messages.missing })
    .trim()
    .toLowerCase()
    .min(1, messages.missing)
    .max(254, "That email address is too long.")
    .email("Enter a valid email address.");
}

/** How many items a page of a list asks for: a whole number from 1 to `max`, `fallback` when absent. */
export function pageSizeSchema(max: number, fallback: number) {
  return z.coerce
    .number({ error: "Enter a whole number." })
    .int("Enter a whole number.")
    .min(1, "At least 1.")
    .max(max, `At most ${max}.`)
    .default(fallback);
}

export const MIN_DAY = "2000-01-01";
export const MAX_DAY = "2100-12-31";
export const isoDaySchema = z.iso
  .date("Use a date as YYYY-MM-DD.")
  .refine((day) => day >= MIN_DAY && day <= MAX_DAY, `Use a date between ${MIN_DAY} and ${MAX_DAY}.`);
/** An optional day filter: absent or empty means no bound. */
export const optionalIsoDaySchema = isoDaySchema.optional().or(z.literal("").transform(() => undefined));

/** PostgreSQL's BIGINT, the largest id a cursor over a BIGSERIAL column may name. */
const MAX_BIGINT = 9_223_372_036_854_775_807n;
export const bigintCursorSchema = z
  .string()
  .regex(/^\d{1,19}$/, "Invalid cursor.")
  // zod runs every check even after the pattern failed: BigInt() must only see digits.
  .refine((v) => !/^\d+$/.test(v) || BigInt(v) <= MAX_BIGINT, "Invalid cursor.");

/**
 * Every money amount a client gives, as a typed decimal string ("250.50"): the rule of
 * `amountProblem` in lib/money.ts (plain, bounded, at most `maxDecimals`, above zero unless
 * `allowZero`). Where the amount's currency is in the same input, the schema adds
 * `refineCurrencyDecimals` so that it has no more decimals than that currency.
 */
export function moneyAmount(rule: AmountRule = {}) {
  // The text rule first, on the text as sent: trim() would take a vertical tab or a form feed
  // off either end, and "1\v" passed as 1 wherever the schema ran without the door's walk.
  return singleLineText({ error: "Enter an amount." })
    .trim()
    .check(
      z.refine((v: string) => amountProblem(v, rule) === null, {
        error: (i) => amountProblem(String(i.input), rule) ?? "Not an amount.",
      }),
    );
}

/** The same rule for an amount sent as a JSON number (an order's maximumTotal, a face value). */
export function moneyNumber(rule: AmountRule = {}) {
  return z.number({ error: "Enter an amount as a number." }).check(
    z.refine((v: number) => numberAmountProblem(v, rule) === null, {
      error: (i) => numberAmountProblem(Number(i.input), rule) ?? "Not an amount.",
    }),
  );
}

/**
 * A refinement for an object holding amounts and their currency: each amount present has at
 * most the currency's decimals (250.5 JPY is a field error on the amount's path).
 */
export function refineCurrencyDecimals<T>(
  currencyOf: (value: T) => string | null | undefined,
  amounts: Record<string, (value: T) => string | number | null | undefined>,
) {
  return (value: T, ctx: z.RefinementCtx) => {
    const currency = currencyOf(value);
    if (!currency) return;
    for (const [path, amountOf] of Object.entries(amounts)) {
      const amount = amountOf(value);
      if (amount === null || amount === undefined || amount === "") continue;
      const message = currencyDecimalsProblem(amount, currency);
      if (message) ctx.addIssue({ code: "custom", message, path: path.split(".") });
    }
  };
}
