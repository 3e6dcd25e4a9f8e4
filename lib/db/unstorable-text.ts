/**
 * What PostgreSQL can never store in text or jsonb: NUL (U+0000) and UTF-16 surrogates
 * without their pair. A webhook payload holding either can be retried forever and still
 * never fit the inbox, so the receiver refuses it for good instead (receive-webhook.ts).
 * Pure functions, unit-tested in tests/unit/unstorable-text.test.ts.
 */

const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export type UnstorableText = { path: string; problem: string };

/** The first string (key or value) of a parsed JSON value that cannot be stored, with its path. */
export function findUnstorableText(value: unknown, path = "$"): UnstorableText | null {
  if (typeof value === "string") return describe(value, path);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      const name = `${path}.${escapeUnstorable(key)}`;
      const found = describe(key, `${name} (its name)`) ?? findUnstorableText(inner, name);
      if (found) return found;
    }
  }
  return null;
}

function describe(text: string, path: string): UnstorableText | null {
  const match = UNSTORABLE.exec(text);
  if (!match) return null;
  return {
    path,
    problem:
      match[0] === "\u0000"
        ? "a NUL character (U+0000)"
        : `an unpaired surrogate (U+${match[0].charCodeAt(0).toString(16).toUpperCase()})`,
  };
}

/**
 * The text with NUL, unpaired surrogates and the other C0 controls (but tab and line breaks)
 * written as JSON's `\uXXXX` escapes, so that it can be stored and shown to an admin. In a
 * JSON body (the webhook's raw text) that is what those characters already look like.
 */
export function escapeUnstorable(text: string): string {
  return text.replace(
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * A parsed JSON value with every string (keys too) made storable by escapeUnstorable: for
 * what the upstream sends that we mirror (an order's reference or lines), where refusing the
 * data would leave the order out of the mirror and stall the import behind it for good.
 */
export function storableJson<T>(value: T): T {
  if (typeof value === "string") return escapeUnstorable(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => storableJson(item)) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [escapeUnstorable(key), storableJson(inner)])) as T;
  }
  return value;
}
