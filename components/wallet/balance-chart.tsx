import { formatMoney } from "@/lib/money";
import type { BalanceHistory } from "@/lib/wallet/get-balance-history";
import { utcTime } from "@/components/ui/utc-time";
import { ChartFrame } from "@/components/charts/chart-frame";
import { GridLine, LimitLine } from "@/components/charts/chart-lines";

/** Two drawings of one chart, wide from 640 px and narrow below, so that labels stay readable on a phone. */
const WIDE = 720;
const NARROW = 380;
const H = 220;
const PAD = { left: 84, right: 16, top: 16, bottom: 28 };
const DAY = 86_400_000;

type Point = { t: number; v: bigint };

/**
 * The available balance over time as a step line, drawn on the server as plain SVG: no
 * script, no chart library. Screen readers get a summary (title and description) and the
 * same data as a table of daily closing balances.
 */
export function BalanceChart({ history, thresholdMinor }: { history: BalanceHistory; thresholdMinor: string | null }) {
  const { currency } = history;
  const points: Point[] = history.points.map((p) => ({ t: Date.parse(p.at), v: BigInt(p.availableMinor) }));
  const from = Date.parse(history.from);
  const to = Date.parse(history.to);
  const values = points.map((p) => p.v);
  const threshold = thresholdMinor === null ? null : BigInt(thresholdMinor);
  let lo = values.reduce((a, b) => (b < a ? b : a), values[0] ?? 0n);
  let hi = values.reduce((a, b) => (b > a ? b : a), values[0] ?? 0n);
  const min = { v: lo, t: points.find((p) => p.v === lo)?.t ?? from };
  const max = { v: hi, t: points.find((p) => p.v === hi)?.t ?? from };
  if (threshold !== null && threshold <= hi * 2n) {
    if (threshold < lo) lo = threshold;
    if (threshold > hi) hi = threshold;
  }
  // The axis starts at zero unless that would flatten the line (the lowest balance above
  // half the highest); then it starts near the lowest balance and the break is drawn.
  if (lo > 0n && lo <= hi / 2n) lo = 0n;
  if (lo === hi) hi = lo + 100n;
  // A little room above and below, so that a line at the lowest or highest value stays visible.
  const pad = (hi - lo) / 12n;
  hi += pad;
  if (lo !== 0n) lo -= pad;
  const broken = lo > 0n;

  const y = (v: bigint) => PAD.top + (1 - Number(v - lo) / Number(hi - lo)) * (H - PAD.top - PAD.bottom);
  const first = points[0]?.v ?? 0n;
  const last = points[points.length - 1]?.v ?? 0n;
  const money = (v: bigint) => formatMoney(v, currency);
  const day = (t: number) => new Date(t).toISOString().slice(0, 10);
  const id = `chart-${currency}`;
  const summary =
    `From ${day(from)} to ${day(to)} the available ${currency} balance went from ${money(first)} to ${money(last)}; ` +
    `lowest ${money(min.v)} on ${day(min.t)}, highest ${money(max.v)} on ${day(max.t)}; ${history.movements} recorded movements.` +
    (threshold !== null ? ` The low-balance threshold is ${money(threshold)}.` : "");
  // Grid lines at the highest and lowest balance (and at zero when the axis starts there, far enough from the lowest).
  const ticks = max.v === min.v ? [max.v] : [max.v, min.v];
  if (lo === 0n && min.v * 8n > hi) ticks.push(0n);
  const base = H - PAD.bottom;
  const labelled = ticks.filter((v, i) => ticks.slice(0, i).every((u) => Math.abs(y(u) - y(v)) >= 16));

  /** The chart drawn `W` units wide (text stays 11 units high, so a narrower drawing reads larger). */
  const plot = (W: number) => {
    const x = (t: number) => PAD.left + ((t - from) / Math.max(1, to - from)) * (W - PAD.left - PAD.right);
    let d = "";
    points.forEach((p, i) => {
      d += i === 0 ? `M${x(p.t).toFixed(1)} ${y(p.v).toFixed(1)}` : `H${x(p.t).toFixed(1)}V${y(p.v).toFixed(1)}`;
    });
    const area = `${d}H${x(to).toFixed(1)}V${(H - PAD.bottom).toFixed(1)}H${x(from).toFixed(1)}Z`;
    return (
      <>
        {labelled.map((v, i) => (
          <GridLine key={i} x1={PAD.left} x2={W - PAD.right} y={y(v)} label={money(v)} />
        ))}
        {[from, (from + to) / 2, to].map((t, i) => (
          <text
            key={i}
            x={x(t)}
            y={H - 8}
            textAnchor={i === 0 ? "start" : i === 2 ? "end" : "middle"}
            className="fill-slate-500 text-[11px]"
          >
            {day(t)}
          </text>
        ))}
        <line x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={base} className="stroke-slate-300" strokeWidth={1} />
        {broken ? (
          // Two slanted strokes across the axis: it does not start at zero.
          <g data-testid="chart-axis-break" className="stroke-slate-500" strokeWidth={1.5}>
            <line x1={PAD.left - 7} x2={PAD.left + 7} y1={base - 4} y2={base - 10} />
            <line x1={PAD.left - 7} x2={PAD.left + 7} y1={base + 2} y2={base - 4} />
          </g>
        ) : null}
        <path d={area} className="fill-brand-500/10" />
        {threshold !== null && threshold >= lo && threshold <= hi ? (
          <LimitLine testId="chart-threshold" x1={PAD.left} x2={W - PAD.right} y={y(threshold)} label="Low-balance threshold" />
        ) : null}
        <path d={d} className="fill-none stroke-brand-600" strokeWidth={2} strokeLinejoin="round" />
        {points.length ? <circle cx={x(to)} cy={y(last)} r={3.5} className="fill-brand-600" /> : null}
      </>
    );
  };

  return (
    <ChartFrame
      id={id}
      testId={`balance-chart-${currency}`}
      title={`Available ${currency} balance, ${day(from)} to ${day(to)}`}
      summary={summary}
      height={H}
      wide={WIDE}
      narrow={NARROW}
      draw={plot}
      caption={
        <>
          From this app&apos;s own records, on its own clock: {history.reads} balance {history.reads === 1 ? "read" : "reads"} and
          the movements recorded between them (orders, credits, withdrawals), up to the read at {utcTime(history.to)}. A movement
          made outside this app shows as a step at the next read.
          {broken ? <> The axis starts at {money(lo)}, not at zero (marked on the axis).</> : null}
        </>
      }
      table={<DailyTable points={points} from={from} to={to} currency={currency} />}
    />
  );
}

function DailyTable({ points, from, to, currency }: { points: Point[]; from: number; to: number; currency: string }) {
  const rows: { day: string; close: bigint }[] = [];
  for (let end = Math.min(to, Math.floor(from / DAY) * DAY + DAY); ; end = Math.min(to, end + DAY)) {
    const upTo = points.filter((p) => p.t <= end);
    const close = upTo[upTo.length - 1]?.v ?? points[0]?.v ?? 0n;
    rows.push({ day: new Date(end === to ? to : end - 1).toISOString().slice(0, 10), close });
    if (end >= to) break;
  }
  return (
    <table className="mt-2 min-w-[16rem] text-sm" data-testid="balance-chart-table">
      <caption className="sr-only">Available {currency} balance at the end of each day (UTC)</caption>
      <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
        <tr>
          <th scope="col" className="py-1 pr-6">
            Day (UTC)
          </th>
          <th scope="col" className="py-1 text-right">
            Available at day end
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.reverse().map((r) => (
          <tr key={r.day} className="border-t border-slate-100">
            <td className="py-1 pr-6 font-mono text-xs">{r.day}</td>
            <td className="py-1 text-right tabular-nums">{formatMoney(r.close, currency)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
