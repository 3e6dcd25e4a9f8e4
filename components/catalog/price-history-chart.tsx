import { formatMoney } from "@/lib/money";
import type { PriceHistory } from "@/lib/catalog-watch/price-history";

const WIDTH = 320;
const HEIGHT = 96;
const PAD = { left: 4, right: 4, top: 10, bottom: 10 };
const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const WHEN = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/**
 * A product's price over time, drawn on the server as a small SVG step line (a price holds until
 * the next one is seen), with the prices in words beside it for those who do not read charts.
 */
export function PriceHistoryChart({ history }: { history: PriceHistory }) {
  const { points, currency } = history;
  const prices = points.map((p) => Number(p.priceMinor));
  const times = points.map((p) => Date.parse(p.at));
  const now = Date.parse(history.asOf);
  const [minT, maxT] = [times[0] ?? now, Math.max(now, times.at(-1) ?? now)];
  const [minP, maxP] = [Math.min(...prices), Math.max(...prices)];
  const x = (t: number) => PAD.left + ((t - minT) / Math.max(1, maxT - minT)) * (WIDTH - PAD.left - PAD.right);
  const y = (p: number) =>
    maxP === minP ? HEIGHT / 2 : PAD.top + ((maxP - p) / (maxP - minP)) * (HEIGHT - PAD.top - PAD.bottom);
  const path = points
    .map((_, i) => {
      const here = `${x(times[i]!)},${y(prices[i]!)}`;
      const until = x(times[i + 1] ?? maxT);
      return `${i === 0 ? "M" : "L"}${here} L${until},${y(prices[i]!)}`;
    })
    .join(" ");
  const money = (minor: string) => formatMoney(BigInt(minor), currency);
  const recent = points.slice(-5).reverse();
  return (
    <figure data-testid="price-history">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-24 w-full max-w-md"
        preserveAspectRatio="xMinYMid meet"
        role="img"
        aria-label={`Price of the ${history.faceValue} card from ${money(points[0]!.priceMinor)} to ${money(points.at(-1)!.priceMinor)}`}
      >
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={HEIGHT - 1} y2={HEIGHT - 1} className="stroke-slate-200" />
        <path d={path} fill="none" className="stroke-brand-600" strokeWidth={2} />
        {points.map((p, i) => (
          <circle key={p.at} cx={x(times[i]!)} cy={y(prices[i]!)} r={3} className="fill-brand-600" />
        ))}
      </svg>
      <figcaption className="mt-2 text-sm text-slate-700">
        Price of the {history.faceValue} card, as this app saw it{points.length > 1 ? ` since ${DAY.format(minT)}` : ""}:
        <ul className="mt-1 space-y-0.5" data-testid="price-history-points">
          {recent.map((p) => (
            <li key={p.at} className="flex justify-between gap-4 tabular-nums">
              <span className="text-slate-500">{WHEN.format(Date.parse(p.at))} UTC</span>
              <span className="font-medium">{money(p.priceMinor)}</span>
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
