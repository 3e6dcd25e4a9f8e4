/**
 * "Sign in with <IdP>": a plain link to the start of the SSO round trip (a full page load to the
 * IdP and back, not the client router), styled as the form's button.
 */
export function SsoSignIn({ name, callbackUrl, onlyWay }: { name: string; callbackUrl: string; onlyWay: boolean }) {
  return (
    <div className="space-y-4">
      <SsoButton name={name} callbackUrl={callbackUrl} />
      {onlyWay ? (
        <p className="text-sm text-slate-600">
          This workspace signs in with {name} only. The password form below is for the emergency account.
        </p>
      ) : null}
      <div className="flex items-center gap-3 text-xs uppercase tracking-wider text-slate-500" aria-hidden="true">
        <span className="h-px flex-1 bg-slate-200" />
        or
        <span className="h-px flex-1 bg-slate-200" />
      </div>
    </div>
  );
}

/** The button alone (a one-time link's page while passwords are off). */
export function SsoButton({ name, callbackUrl }: { name: string; callbackUrl: string }) {
  const href = `/api/auth/sso${callbackUrl === "/" ? "" : `?${new URLSearchParams({ callbackUrl })}`}`;
  return (
    <a
      href={href}
      data-testid="sso-sign-in"
      className="inline-flex w-full items-center justify-center rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm transition-colors hover:bg-brand-700"
    >
      Sign in with {name}
    </a>
  );
}
