import type { Attributes } from "@opentelemetry/api";

/**
 * What leaves the process in a span: no secret, code or email. The instrumentations record
 * URLs (with their query strings, which may carry a one-time link's token or a callback URL)
 * and, if asked, headers; the app's own attributes are a role and a correlation id. So, at
 * export: attributes named like credentials are dropped, query strings are cut from anything
 * that looks like a URL or a path, and anything shaped like an email address is replaced.
 */
const CREDENTIAL_NAME = /authorization|cookie|token|password|passwd|secret|api[._-]?key|session/i;
const QUERY_NAME = /^(url\.query|http\.query)$/;
const MESSAGE_NAME = /^exception\.(message|stacktrace)$/;
const EMAIL = /[^\s@"'<>(),;:/]+@[^\s@"'<>(),;:/]+\.[a-z]{2,}/gi;
const URL_WITH_QUERY = /((?:https?:\/\/[^\s?#]*)|(?:^|\s)\/[^\s?#]*)\?[^\s#]*/gi;

export function scrubText(text: string): string {
  return text.replace(URL_WITH_QUERY, "$1").replace(EMAIL, "[email]");
}

export function scrubAttributes(attributes: Attributes, options: { messages?: boolean } = {}): Attributes {
  const out: Attributes = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (CREDENTIAL_NAME.test(name) || QUERY_NAME.test(name)) continue;
    if (options.messages === false && MESSAGE_NAME.test(name)) continue;
    if (typeof value === "string") out[name] = scrubText(value);
    else if (Array.isArray(value))
      out[name] = value.map((item) => (typeof item === "string" ? scrubText(item) : item)) as typeof value;
    else out[name] = value;
  }
  return out;
}
