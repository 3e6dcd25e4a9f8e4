import type { LiveSession } from "@/lib/auth/staff-session";
import { getBudgetOverview, type BudgetOverview } from "@/lib/overview/budget-minutes";
import { getInboxOverview, type InboxOverview } from "@/lib/overview/admin-inbox";
import { getSignInOverview, type SignInOverview } from "@/lib/overview/admin-sign-ins";
import { getKeyHealth, keyWords, type KeyHealthView } from "@/lib/overview/key-health";
import { KeyOutage, keyProblemText } from "@/components/settings/key-health-panel";
import { BarChart } from "@/components/charts/bar-chart";
import { utcTime } from "@/components/ui/utc-time";
import { Link } from "@/components/ui/link";
import { HomeBlock, HomeSection } from "./home-block";
import { ChatWebhookTrouble } from "./chat-webhook-trouble";
import { readChatWebhookHealth } from "@/lib/notifications/chat-health";
import { settleAll } from "@/components/ui/settle";
import { BlockBody, Figures } from "./home-figures";

const count = new Intl.NumberFormat("en-US");
const percent = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 0 });

/** Its reads, started by the home page (a section whose reads are quick comes with the page). */
export function loadAdminHome(session: LiveSession) {
  return settleAll([
    getBudgetOverview(session.actor),
    getInboxOverview(session.actor),
    getSignInOverview(session.actor),
    getKeyHealth(session.actor),
    readChatWebhookHealth(session.actor),
  ] as const);
}

/**
 * The admin's blocks on the home page: the upstream budget over the last hour (from the
 * per-minute counts, lib/upstream/call-counts.ts), the webhook inbox, and sign-in trouble;
 * first, when one of the upstream keys needs attention (expiring, refused, mid-rotation), that.
 * All from this app's database: the page makes no upstream call.
 */
export async function AdminHome({ data }: { data: ReturnType<typeof loadAdminHome> }) {
  const [budget, inbox, signIns, keys, chat] = await data;
  const troubled = keys.ok ? keys.value.filter((key) => key.problems.length > 0) : [];
  const stopped = troubled.some((key) => key.state === "stopped");
  return (
    <HomeSection title="Admin">
      {troubled.length > 0 ? (
        <div className="lg:col-span-2">
          <HomeBlock
            title={stopped ? "Work has stopped: the Issuing Service refuses a key" : "Issuing Service keys need attention"}
            href="/settings"
            linkLabel="Key health"
            testId="home-admin-keys"
          >
            <KeyTrouble keys={troubled} />
          </HomeBlock>
        </div>
      ) : null}
      {chat.ok && chat.value?.failing ? <ChatWebhookTrouble failing={chat.value.failing} /> : null}
      <div className="lg:col-span-2">
        <HomeBlock title="Upstream budget, last hour" href="/settings" linkLabel="Upstream status" testId="home-admin-budget">
          <BlockBody result={budget} what="The budget" empty={null}>
            {(value) => <Budget budget={value} />}
          </BlockBody>
        </HomeBlock>
      </div>
      <HomeBlock title="Webhook inbox" href="/events" linkLabel="Events" testId="home-admin-inbox">
        <BlockBody result={inbox} what="The inbox" empty={null}>
          {(value) => <Inbox inbox={value} />}
        </BlockBody>
      </HomeBlock>
      <HomeBlock
        title="Sign-ins"
        href="/audit?action=auth.sign_in_failed"
        linkLabel="Failed sign-ins"
        testId="home-admin-sign-ins"
      >
        <BlockBody result={signIns} what="The sign-ins" empty={null}>
          {(value) => <SignIns signIns={value} />}
        </BlockBody>
      </HomeBlock>
    </HomeSection>
  );
}

/** A key whose work has stopped first, with its fix; then what only needs attention. */
function KeyTrouble({ keys }: { keys: KeyHealthView[] }) {
  const stopped = keys.filter((key) => key.state === "stopped");
  const others = keys.filter((key) => key.state !== "stopped");
  return (
    <div className="space-y-3">
      {stopped.map((key) => (
        <KeyOutage key={key.lookup} keyHealth={key} />
      ))}
      {others.length > 0 ? (
        <ul className="space-y-2 text-sm text-amber-900">
          {others.flatMap((key) =>
            key.problems.map((problem) => (
              <li key={`${key.lookup}:${problem.kind}`}>
                <span className="font-medium">The {keyWords(key)}</span>: {keyProblemText(problem)}
              </li>
            )),
          )}
        </ul>
      ) : null}
    </div>
  );
}

function Inbox({ inbox }: { inbox: InboxOverview }) {
  return (
    <>
      <Figures
        figures={[
          { label: "Received, 24 h", value: count.format(inbox.receivedLastDay), testId: "home-inbox-received" },
          {
            label: "Failed",
            value: count.format(inbox.failed),
            testId: "home-inbox-failed",
            tone: inbox.failed > 0 ? "warning" : undefined,
          },
          { label: "Unprocessed", value: count.format(inbox.unprocessed), testId: "home-inbox-unprocessed" },
        ]}
      />
      <p className="mt-3 text-xs text-slate-500" data-testid="home-inbox-oldest">
        {inbox.oldestUnprocessedAt
          ? `Oldest unprocessed event received ${utcTime(inbox.oldestUnprocessedAt, "second")}.`
          : "Every received event has been processed."}
      </p>
    </>
  );
}

function SignIns({ signIns }: { signIns: SignInOverview }) {
  return (
    <>
      <Figures
        figures={[
          {
            label: "Locked now",
            value: count.format(signIns.locked.length),
            testId: "home-sign-ins-locked",
            tone: signIns.locked.length > 0 ? "warning" : undefined,
          },
          { label: "Failed, 24 h", value: count.format(signIns.failuresLastDay), testId: "home-sign-ins-failed" },
        ]}
      />
      {signIns.locked.length > 0 ? (
        <ul className="mt-3 space-y-1 text-sm" data-testid="home-sign-ins-locked-list">
          {signIns.locked.map((l) => (
            <li key={l.email} className="flex flex-wrap justify-between gap-x-4">
              <span className="break-all font-medium text-slate-800">{l.email}</span>
              <span className="text-xs text-slate-500">until {utcTime(l.until, "second")}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

function Budget({ budget }: { budget: BudgetOverview }) {
  const first = budget.minutes[0]!.minute;
  const last = budget.minutes[budget.minutes.length - 1]!.minute;
  const busiest = Math.max(0, ...budget.minutes.map((m) => m.money + m.interactive + m.background));
  const hhmm = (iso: string) => iso.slice(11, 16);
  return (
    <>
      <Figures
        figures={[
          { label: "Calls sent", value: count.format(budget.sent), testId: "home-budget-sent" },
          {
            label: "Served from cache",
            value: budget.cacheShare === null ? "—" : percent.format(budget.cacheShare),
            testId: "home-budget-cache",
          },
          {
            label: "429s from upstream",
            value: count.format(budget.throttled),
            testId: "home-budget-throttled",
            tone: budget.throttled > 0 ? "warning" : undefined,
          },
          { label: "Had to wait", value: count.format(budget.waited), testId: "home-budget-waited" },
        ]}
      />
      <div className="mt-4">
        <BarChart
          id="budget-chart"
          testId="budget-chart"
          title={`Upstream requests per minute, ${utcTime(first)} to ${hhmm(last)}`}
          summary={
            `From ${utcTime(first)} to ${hhmm(last)} UTC this app sent ${budget.sent} requests to the Issuing Service, ` +
            `at most ${busiest} in one minute, against a limit of ${budget.limit} a minute; ${budget.throttled} were refused with 429 and ` +
            `${budget.waited} callers waited for the next minute.`
          }
          bars={budget.minutes.map((m) => ({ label: hhmm(m.minute), values: [m.money, m.interactive, m.background] }))}
          series={[
            { name: "Orders, reveals, withdrawals", className: "fill-emerald-600" },
            { name: "Reads", className: "fill-brand-500" },
            { name: "Background", className: "fill-slate-400" },
          ]}
          limits={[{ value: budget.limit, label: `Limit ${budget.limit}/min`, testId: "budget-chart-limit" }]}
          format={(v) => count.format(Math.round(v))}
          labelHeader="Minute (UTC)"
          tableCaption="Upstream requests sent in each minute of the last hour, by class"
        />
      </div>
      <ShareAlerts alerts={budget.shareAlerts} />
      <TopSpenders spenders={budget.topSpenders} />
      <p className="mt-2 text-xs text-slate-500">
        Every instance of this app counts what it sends. &ldquo;Served from cache&rdquo; is the share of catalog, balance and
        deposit-address reads answered without an upstream call; &ldquo;had to wait&rdquo; counts callers that found the
        minute&apos;s budget used up (background work stops at {budget.caps.background} a minute, reads at{" "}
        {budget.caps.interactive}; the rest, up to {budget.caps.money}, is kept for orders, reveals and withdrawals).
      </p>
    </>
  );
}

/** People whose share of the minute turned calls away: one audit row per person and minute. */
function ShareAlerts({ alerts }: { alerts: BudgetOverview["shareAlerts"] }) {
  if (alerts.length === 0) return null;
  return (
    <div
      className="mt-4 rounded-md bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-200"
      role="status"
      data-testid="home-budget-share-alerts"
    >
      <p className="font-medium">
        {alerts.length === 1 ? "One person" : `${alerts.length} people`} went past their share of the upstream budget in the last
        24 hours.
      </p>
      <ul className="mt-1 space-y-0.5">
        {alerts.map((a) => (
          <li key={a.who} className="flex flex-wrap justify-between gap-x-4">
            <span className="break-all">{a.who}</span>
            <span className="text-xs">
              in {a.minutes} {a.minutes === 1 ? "minute" : "minutes"}, last {utcTime(a.lastAt, "second")}
            </span>
          </li>
        ))}
      </ul>
      <Link href="/audit?action=upstream.share_exceeded" className="mt-1 inline-block text-xs font-medium underline">
        In the audit log
      </Link>
    </div>
  );
}

/**
 * Who spent the last hour's calls, by class: a flood is visible and attributable. A card per
 * person or job on a phone (`cards-on-phone`, app/globals.css), where four number columns left
 * the names a letter column.
 */
function TopSpenders({ spenders }: { spenders: BudgetOverview["topSpenders"] }) {
  if (spenders.length === 0) return null;
  return (
    <div className="mt-4 overflow-x-auto">
      <table className="cards-on-phone w-full text-left text-sm [--card-inset:0px]" data-testid="home-budget-spenders">
        <caption className="mb-1 text-left text-xs font-medium text-slate-600">Who spent the last hour&apos;s calls</caption>
        <thead className="text-xs text-slate-500">
          <tr>
            <th scope="col" className="py-1 pr-3 font-medium">
              Person or job
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              Orders, reveals, withdrawals
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              Reads
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              Background
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              Turned away
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {spenders.map((s) => (
            <tr key={`${s.kind}:${s.who}`}>
              <th scope="row" className="break-all py-1 pr-3 text-left font-normal">
                {s.kind === "job" ? <span className="text-slate-500">job: {s.who}</span> : s.who}
              </th>
              <td className="py-1 pr-3 text-right tabular-nums" data-label="Orders, reveals, withdrawals">
                {count.format(s.money)}
              </td>
              <td className="py-1 pr-3 text-right tabular-nums" data-label="Reads">
                {count.format(s.interactive)}
                {s.lookups > 0 ? <span className="text-xs text-slate-500"> ({count.format(s.lookups)} lookups)</span> : null}
              </td>
              <td className="py-1 pr-3 text-right tabular-nums" data-label="Background">
                {count.format(s.background)}
              </td>
              <td
                className={`py-1 text-right tabular-nums ${s.refused > 0 ? "font-medium text-amber-700" : ""}`}
                data-label="Turned away"
              >
                {count.format(s.refused)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
