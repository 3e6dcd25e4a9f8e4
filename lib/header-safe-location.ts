/**
 * A URL or path made fit for a `Location` header: every character outside printable ASCII
 * (spaces, controls, anything non-ASCII) percent-encoded as UTF-8; what is already encoded,
 * and every printable ASCII character, is kept as it is.
 *
 * Why: a header is bytes. Node refuses to write a character above U+00FF in one (the request
 * then ends in a 500: "Invalid character in header content"), and writes U+0080..U+00FF as
 * single Latin-1 bytes, which a browser does not read back as the same path. Every Location
 * the app builds from a visitor's input (the sign-in callback through lib/auth/safe-callback.ts,
 * the request gate's redirect to sign-in) goes through here. Pure: no server-only imports.
 */
const NOT_PRINTABLE_ASCII = /[^\x21-\x7e]+/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function headerSafeLocation(target: string): string {
  // A lone surrogate cannot be UTF-8 (encodeURIComponent throws): it becomes U+FFFD, as a URL parser makes it.
  return target.replace(LONE_SURROGATE, "\uFFFD").replace(NOT_PRINTABLE_ASCII, (run) => encodeURIComponent(run));
}
