/**
 * Every metric the app exports, over OTLP and on /metrics alike: its name (Prometheus style),
 * kind and meaning. Counters are events counted in the database (./event-counts.ts); gauges
 * are read from the database when a collector or a scrape asks (./read-metrics.ts).
 */
export const COUNTERS = {
  dgis_upstream_calls_total: "Calls sent to the Issuing Service, by endpoint, budget class and status (429 included).",
  dgis_budget_refusals_total: "Calls the app's own budget refused (answered 429), by reason: share or window.",
  dgis_orders_placed_total: "Orders the Issuing Service accepted.",
  dgis_orders_failed_total: "Orders the Issuing Service refused, by reason.",
  dgis_reveals_total: "Reveals of an order's codes.",
  dgis_sign_in_failures_total: "Refused password sign-ins, by reason.",
  dgis_lockouts_total: "Sign-in lock-outs begun, by what was locked (account, address, second factor).",
} as const;

export const GAUGES = {
  dgis_upstream_budget_used: "Upstream calls taken from the budget in the current minute.",
  dgis_upstream_budget_limit: "The workspace's upstream calls allowed per minute.",
  dgis_notification_outbox_backlog: "Notification deliveries due and not yet sent.",
  dgis_notification_outbox_oldest_seconds: "Age of the oldest due notification delivery.",
  dgis_webhook_inbox_backlog: "Webhook events received and not yet processed.",
  dgis_webhook_inbox_lag_seconds: "Age of the oldest unprocessed webhook event.",
  dgis_job_queue_depth: "Jobs due and waiting, per queue.",
  dgis_job_queue_oldest_seconds: "Age of the oldest due job, per queue.",
  dgis_withdrawals: "Withdrawal requests, by state.",
  dgis_sign_in_locks_active: "Sign-in locks in force now, by what is locked.",
  dgis_workers_running: "Worker instances that beat within the last minute and are not recorded dead (alert on 0).",
  dgis_worker_deaths_last_hour: "Workers that died within the last hour, as the launchers that supervise them recorded.",
} as const;

export type CounterName = keyof typeof COUNTERS;
export type GaugeName = keyof typeof GAUGES;

export type Point = { labels: Record<string, string>; value: number };
export type MetricFamily = { name: CounterName | GaugeName; kind: "counter" | "gauge"; help: string; points: Point[] };
