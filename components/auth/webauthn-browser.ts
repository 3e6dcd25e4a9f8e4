/**
 * @simplewebauthn/browser, loaded when someone starts a passkey ceremony (in parallel with the
 * server's options) instead of with every page: the shell holds the step-up dialog
 * (docs/decisions/0012-first-load-only-what-is-needed.md).
 */
export function loadWebAuthn() {
  const loading = import("@simplewebauthn/browser");
  loading.catch(() => {}); // a failed load is reported where it is awaited, not as an unhandled rejection
  return loading;
}
