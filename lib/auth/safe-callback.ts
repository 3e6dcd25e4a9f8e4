/**
 * Where to send a person after sign-in: only a path of this app, anything else is "/".
 * Browsers strip tab and line breaks from URLs and read a backslash as a slash, so
 * `/<TAB>/evil.example` and `/\evil.example` both become `//evil.example`, another site. So the
 * checks run on the value percent-decoded (repeatedly: a double-encoded `%252F` cannot hide a
 * slash) and refuse rather than repair: controls, backslashes, `//` anywhere, another origin.
 * What comes back is fit for a `Location` header: anything outside printable ASCII is
 * percent-encoded (lib/header-safe-location.ts). Shared by the sign-in page, next-auth's
 * `redirect` callback and the request gate (lib/http/gate.ts). Pure: no server-only imports.
 */
import { headerSafeLocation } from "@/lib/header-safe-location";

const HOME = "/";
const MAX_LENGTH = 2048;
const MAX_DECODE_ROUNDS = 4;
/** C0 controls, DEL and C1 controls, plus the Unicode line and paragraph separators. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export function safeCallbackPath(value: unknown, appOrigin: string): string {
  const raw = Array.isArray(value) ? value[0] : value;
  if (typeof raw !== "string" || raw === "" || raw.length > MAX_LENGTH) return HOME;
  const path = sameOriginPath(raw, appOrigin);
  if (path === null || !isPlainPath(path)) return HOME;
  const location = headerSafeLocation(path);
  // Belt and braces: whatever a URL parser makes of what is sent must stay on this origin.
  const origin = new URL(appOrigin).origin;
  try {
    const resolved = new URL(location, origin);
    if (resolved.origin !== origin) return HOME;
  } catch {
    return HOME;
  }
  return location;
}

/** A relative path as given, or an absolute URL of this very origin reduced to its path. */
function sameOriginPath(raw: string, appOrigin: string): string | null {
  if (raw.startsWith("/")) return raw;
  if (!/^[a-z][a-z0-9+.-]*:/i.test(raw)) return null;
  try {
    const url = new URL(raw);
    // The parser forgives tabs and line breaks; the raw text must not contain them either.
    if (url.origin !== new URL(appOrigin).origin || CONTROL.test(raw) || raw.includes("\\")) return null;
    return url.pathname + url.search + url.hash;
  } catch {
    return null;
  }
}

/** One leading slash, and no control character, backslash or `//` at any decoding depth. */
function isPlainPath(path: string): boolean {
  let current = path;
  for (let round = 0; round <= MAX_DECODE_ROUNDS; round++) {
    if (!current.startsWith("/") || current.includes("//") || current.includes("\\") || CONTROL.test(current)) return false;
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return false;
    }
    if (decoded === current) return true;
    current = decoded;
  }
  return false;
}
