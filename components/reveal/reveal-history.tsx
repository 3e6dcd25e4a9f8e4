import type { RevealRecord } from "@/lib/reveal/reveal-history";
import { REVEAL_STATE_LABELS } from "@/lib/reveal/reveal-states";
import { utcTime } from "@/components/ui/utc-time";

/** Who saw this order's codes, when and why. Never the codes themselves. */
export function RevealHistory({ records }: { records: RevealRecord[] }) {
  if (records.length === 0)
    return (
      <p className="text-sm text-slate-600" data-testid="reveal-history-empty">
        Nobody has revealed this order&apos;s codes.
      </p>
    );
  return (
    <table className="w-full text-sm" data-testid="reveal-history">
      <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
        <tr>
          <th scope="col" className="py-1">
            When (UTC)
          </th>
          <th scope="col">Who</th>
          <th scope="col">Ticket</th>
          <th scope="col">Reason</th>
          <th scope="col">Outcome</th>
          <th scope="col">Count</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {records.map((r, i) => (
          <tr key={i}>
            <td className="py-1.5 font-mono text-xs">{utcTime(r.at, "second", true)}</td>
            <td>{r.actorEmail}</td>
            <td>{r.ticket}</td>
            <td className="max-w-xs truncate" title={r.reason}>
              {r.reason}
            </td>
            <td data-testid="reveal-outcome" title={r.errorCode ?? undefined}>
              {REVEAL_STATE_LABELS[r.state]}
              {r.errorCode ? ` (${r.errorCode})` : ""}
            </td>
            <td>{r.revealCount ?? "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
