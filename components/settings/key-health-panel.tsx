import type { KeyHealthView, KeyProblem } from "@/lib/overview/key-health";
import { Card } from "@/components/ui/page-header";
import { utcTime } from "@/components/ui/utc-time";

const KEY_TITLES: Record<KeyHealthView["name"], string> = {
  read: "Read key",
  ordering: "Ordering key",
  payout: "Payout key",
  general: "General key (every scope)",
};

const HOLDERS: Record<string, string> = { web: "the web app", worker: "the worker" };

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
                <span className={key.problems.length ? "text-amber-800" : "text-emerald-700"}>
                  {key.problems.length ? "Needs attention" : "Healthy"}
                </span>
              </div>
              <dl className="mt-1 grid grid-cols-1 gap-x-4 gap-y-0.5 text-slate-600 sm:grid-cols-[10rem_1fr]">
                <dt className="text-slate-500">Scopes</dt>
                <dd className="font-mono text-xs">{key.scopes.join(", ")}</dd>
                <dt className="text-slate-500">Held by</dt>
                <dd>{key.heldBy.map((h) => HOLDERS[h] ?? h).join(" and ")}</dd>
                <dt className="text-slate-500">Last accepted</dt>
                <dd>{key.lastSuccessAt ? utcTime(new Date(key.lastSuccessAt), "second") : "not yet"}</dd>
                <dt className="text-slate-500">Expires</dt>
                <dd>{key.expiresAt ? utcTime(new Date(key.expiresAt)) : "no expiry configured"}</dd>
              </dl>
              {key.problems.length > 0 ? (
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
