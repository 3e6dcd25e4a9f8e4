import next from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/**
 * The layers' import rules (ARCHITECTURE.md, "Layers": the rules marked ✓), enforced here so that
 * a change that crosses a layer fails `npm run lint` instead of waiting for a reviewer; each
 * rule's message says why. Also: links go through components/ui/link.tsx, and nothing imports
 * Next's internals (next/dist), so a Next upgrade cannot reach the app's code.
 * ESLint applies one `no-restricted-imports` per file (a later block replaces an earlier one), so
 * each block below lists every rule that applies to its files.
 */
const sandbox = {
  group: ["**/sandbox", "**/sandbox/**", "@/sandbox", "@/sandbox/**"],
  message: "The sandbox is the other side of the wire: reach it over HTTP.",
};
const database = {
  group: ["@/lib/db", "@/lib/db/**", "**/lib/db/**", "@prisma/*", "pg"],
  message: "Only domain modules under lib/ use the database.",
};
const upstreamClient = {
  group: ["@/lib/upstream", "@/lib/upstream/**", "**/lib/upstream/**"],
  message: "Only domain modules under lib/ call the upstream; components take app-owned views (e.g. ProductView).",
};
// The infrastructure every layer below the domains may import.
const infrastructure = ["!@/lib/db", "!@/lib/db/**", "!@/lib/env", "!@/lib/log", "!@/lib/telemetry", "!@/lib/telemetry/**"];
const domains = {
  group: ["@/lib/*", ...infrastructure, "!@/lib/jobs", "!@/lib/jobs/**", "../*"],
  message: "lib/jobs runs the jobs it is handed and imports no domain (each domain declares its jobs in lib/<domain>/jobs.ts).",
};
const appFromClient = {
  group: ["@/*", "@/**", "../*", "../**"],
  message:
    "lib/upstream/client is the wire alone: zod, node and its own modules (the wiring in lib/upstream/service.ts gives it the rest).",
};
const domainsFromUpstream = {
  group: [
    "@/lib/*",
    ...infrastructure,
    "!@/lib/errors",
    "!@/lib/jobs",
    "!@/lib/jobs/**",
    "!@/lib/upstream",
    "!@/lib/upstream/**",
    "!@/lib/settings",
    "@/lib/settings/*",
    "!@/lib/settings/get-settings",
    "!@/lib/settings/schema",
    "!@/lib/notifications",
    "@/lib/notifications/*",
    "!@/lib/notifications/notify",
    "@/components/**",
  ],
  message:
    "The upstream layer knows no domain: its wiring uses the database, settings (the budget's shares) and notify() only; what a domain must act on (a key refused, a share refusal) it reports through lib/upstream/reports.ts; domain reads live in lib/<domain> or lib/overview.",
};
const nextLink = {
  group: ["next/link"],
  message:
    "Use Link from @/components/ui/link: a plain <a> that LinkNavigator navigates client-side (next/link is a client component per link, and prefetches every link in view).",
};
const nextInternals = {
  group: ["next/dist", "next/dist/**"],
  message: "Next's build internals may move in any release: use its documented exports (next, next/server, next/navigation, …).",
};
// Every block's list ends with the rule that holds everywhere: nothing of Next's internals.
const restrict = (...patterns) => ["error", { patterns: [...patterns, nextInternals] }];

const config = [
  ...next,
  ...nextTs,
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".data/**",
      "lib/db/generated/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
  {
    files: ["app/**", "lib/**", "components/**", "scripts/**"],
    rules: { "no-restricted-imports": restrict(sandbox, nextLink) },
  },
  { files: ["components/**"], rules: { "no-restricted-imports": restrict(sandbox, database, upstreamClient, nextLink) } },
  { files: ["app/**/route.ts"], rules: { "no-restricted-imports": restrict(sandbox, database) } },
  { files: ["lib/jobs/**"], rules: { "no-restricted-imports": restrict(sandbox, domains) } },
  { files: ["lib/upstream/**"], rules: { "no-restricted-imports": restrict(sandbox, nextLink, domainsFromUpstream) } },
  { files: ["lib/upstream/client/**"], rules: { "no-restricted-imports": restrict(sandbox, nextLink, appFromClient) } },
];
export default config;
