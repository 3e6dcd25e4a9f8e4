import { keyWords, type KeyHealthView, type KeyProblem } from "@/lib/overview/key-health";
import { Card } from "@/components/ui/page-header";
import { utcTime } from "@/components/ui/utc-time";

const KEY_TITLES: Record<KeyHealthView["name"], string> = {
  read: "Read key",
  ordering: "Ordering key",
  payout: "Payout key",
  general: "General key (every scope)",
};

const HOLDERS: Record<string, string> = { web: "the web app", worker: "the worker" };

/** What stops for everyone when a key is refused: the work each key serves. */
const WORK: Record<KeyHealthView["name"], string> = {
  read: "Reading the catalog, orders and wallet",
  ordering: "Ordering",
  payout: "Withdrawals and deposit addresses",
  general: "Every call that needs the general key",
};

const STATES: Record<KeyHealthView["state"], { label: string; className: string }> = {
  stopped: { label: "Stopped", className: "bg-red-50 text-red-800 ring-red-200" },
  attention: { label: "Needs attention", className: "bg-amber-50 text-amber-900 ring-amber-200" },
  unused: { label: "Not used yet", className: "bg-slate-100 text-slate-700 ring-slate-200" },
  healthy: { label: "Healthy", className: "bg-emerald-50 text-emerald-800 ring-emerald-200" },
};

/** "Ordering stopped for everyone since 2026-11-28 11:32 UTC". */
export function outageHeadline(key: Pick<KeyHealthView, "name" | "stoppedSince">): string {
  return `${WORK[key.name]} stopped for everyone since ${utcTime(key.stoppedSince)}`;
}

/** A key whose work has stopped: since when, what the Issuing Service said, and the steps that bring it back. */
export function KeyOutage({ keyHealth: key }: { keyHealth: KeyHealthView }) {
  const scopes = key.scopes.join(", ");
  return (
    <div className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-900 ring-1 ring-red-200" data-testid="key-outage">
      <p className="font-semibold">{outageHeadline(key)}</p>
      <ul className="mt-1 space-y-1" role="list">
        {key.problems.map((problem) => (
          <li key={problem.kind}>
            The {keyWords(key)}: {keyProblemText(problem)}
          </li>
        ))}
      </ul>
      <p className="mt-2 font-medium">How to fix it</p>
      {key.fix.localMode ? (
        <ol className="mt-1 list-decimal space-y-1 pl-5">
          <li>
            Stop <code className="font-mono">npm start</code> and start it again: in local mode each start replaces a revoked or
            expired key with a new one from the sandbox.
          </li>
          <li>{WORK[key.name]} resumes with the new key; this notice clears at its first accepted call.</li>
        </ol>
      ) : (
        <ol className="mt-1 list-decimal space-y-1 pl-5">
          <li>
            In the Issuing Service&apos;s dashboard, issue a new key with the scopes <code className="font-mono">{scopes}</code>{" "}
            (and the same IP allow-list).
          </li>
          <li>
            Deploy it as <code className="font-mono">{key.fix.variable}</code> and restart the app (the web processes and the
            worker).
          </li>
          <li>{WORK[key.name]} resumes with the new key; this notice clears at its first accepted call.</li>
        </ol>
      )}
    </div>
  );
}

/** One problem of a key, as a sentence an admin can act on. */
export function keyProblemText(problem: KeyProblem): string {
  switch (problem.kind) {
    case "expired":
      return `Expired on ${utcTime(new Date(problem.at))}: it authenticates nothing. Issue a new key and deploy it.`;
    case "expires_soon":
      return `Expires on ${utcTime(new Date(problem.at))} (${problem.days === 0 ? "within a day" : `in ${problem.days} day${problem.days === 1 ? "" : "s"}`}). Issue the next key and deploy it as ${problem.nextVariable}.`;
    case "refused":
      return `Refused with ${problem.status} on ${utcTime(new Date(problem.at), "second")}${problem.scope ? ` (needed ${problem.scope})` : ""}: “${problem.message ?? "no message"}”`;
    case "rotation":
      return `Rotation in progress: the next key has been in use since ${utcTime(new Date(problem.since), "second")}, after the active one was refused. Revoke the old key and move this one into place.`;
  }
}

/** Settings' key health: each upstream key by its public part, what it serves, who holds it, and what is wrong. */
export function KeyHealthPanel({ keys }: { keys: KeyHealthView[] }) {
  return (
    <Card>
      <h2 className="text-base font-semibold">Issuing Service keys</h2>
      <p className="mt-1 text-sm text-slate-600">
        Each process holds only the keys it needs; the payout key is held by the worker alone. Only a key’s public part is ever
        shown.
      </p>
      {keys.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">No process has reported its keys yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100" data-testid="key-health">
          {keys.map((key) => (
            <li key={key.lookup} className="py-3 text-sm" data-key={key.name} data-slot={key.slot}>
              <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                <span className="font-medium text-slate-900">
                  {KEY_TITLES[key.name]}
                  {key.slot === "next" ? " · next (rotation)" : ""}
                </span>
                <span className="break-all font-mono text-xs text-slate-600">svckey_{key.lookup}_••••</span>
                <span
                  className={`rounded-full px-2 py-0.5 text-xs font-medium ring-1 ${STATES[key.state].className}`}
                  data-testid="key-state"
                >
                  {STATES[key.state].label}
                </span>
              </div>
              <dl className="mt-1 grid grid-cols-1 gap-x-4 gap-y-0.5 text-slate-600 sm:grid-cols-[10rem_1fr]">
                <dt className="text-slate-500">Scopes</dt>
                <dd className="font-mono text-xs">{key.scopes.join(", ")}</dd>
                <dt className="text-slate-500">Held by</dt>
                <dd>{key.heldBy.map((h) => HOLDERS[h] ?? h).join(" and ")}</dd>
                <dt className="text-slate-500">Last accepted</dt>
                <dd>
                  {key.lastSuccessAt
                    ? utcTime(new Date(key.lastSuccessAt), "second")
                    : key.state === "unused"
                      ? "not yet: its first call will tell whether it works"
                      : "never"}
                </dd>
                <dt className="text-slate-500">Expires</dt>
                <dd>{key.expiresAt ? utcTime(new Date(key.expiresAt)) : "no expiry configured"}</dd>
              </dl>
              {key.state === "stopped" ? (
                <div className="mt-2">
                  <KeyOutage keyHealth={key} />
                </div>
              ) : key.problems.length > 0 ? (
                <ul className="mt-2 space-y-1 rounded-md bg-amber-50 px-3 py-2 text-amber-900" role="list">
                  {key.problems.map((problem) => (
                    <li key={problem.kind}>{keyProblemText(problem)}</li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
