import { ESLint } from "eslint";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The layer rules in eslint.config.mjs, tried on small files placed (virtually) where a
 * crossing would happen: each must be refused by `npm run lint`, and the allowed shapes must pass.
 */
const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, "../..") });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const results = await eslint.lintText(code, { filePath });
  return results
    .flatMap((r) => r.messages)
    .filter((m) => m.ruleId === "no-restricted-imports")
    .map((m) => m.message);
}

describe("import rules", () => {
  // The first lint loads the whole configuration (Next, TypeScript, React plugins): seconds, once.
  beforeAll(() => eslint.lintText("", { filePath: "lib/warm-up.ts" }), 60_000);

  it.each([
    [
      "a component reaching the database",
      "components/probe.tsx",
      'import { db } from "@/lib/db/client";\nexport const x = db;\n',
    ],
    [
      "a component calling the upstream",
      "components/probe.tsx",
      'import { upstream } from "@/lib/upstream/service";\nexport const x = upstream;\n',
    ],
    [
      "a component using the upstream's wire types",
      "components/probe.tsx",
      'import type { Product } from "@/lib/upstream/client";\nexport type X = Product;\n',
    ],
    [
      "a route handler querying the database",
      "app/api/probe/route.ts",
      'import { db } from "@/lib/db/client";\nexport const GET = () => db;\n',
    ],
    [
      "lib/jobs importing a domain",
      "lib/jobs/probe.ts",
      'import { syncOrders } from "@/lib/orders/sync-orders";\nexport const x = syncOrders;\n',
    ],
    [
      "a component importing anything of the upstream layer",
      "components/probe.tsx",
      'import type { UpstreamStatus } from "@/lib/upstream/status";\nexport type X = UpstreamStatus;\n',
    ],
    [
      "the upstream layer reading a domain",
      "lib/upstream/probe.ts",
      'import { assertCan } from "@/lib/auth/actor";\nexport const x = assertCan;\n',
    ],
    [
      "the upstream layer auditing (it reports through lib/upstream/reports.ts; a domain audits)",
      "lib/upstream/probe.ts",
      'import { recordAudit } from "@/lib/audit/record";\nexport const x = recordAudit;\n',
    ],
    [
      "the upstream layer calling a domain's listener itself",
      "lib/upstream/probe.ts",
      'import { auditKeyRefusal } from "@/lib/settings/key-refused";\nexport const x = auditKeyRefusal;\n',
    ],
    [
      "the upstream layer reading notifications beyond notify()",
      "lib/upstream/probe.ts",
      'import { KIND_DEFINITIONS } from "@/lib/notifications/kinds";\nexport const x = KIND_DEFINITIONS;\n',
    ],
    [
      "the upstream client importing the app",
      "lib/upstream/client/probe.ts",
      'import { db } from "@/lib/db/client";\nexport const x = db;\n',
    ],
    [
      "the edge importing Next's internals",
      "lib/http/probe.ts",
      'import { RequestCookies } from "next/dist/server/web/spec-extension/cookies";\nexport const x = RequestCookies;\n',
    ],
    ["app code importing the sandbox", "lib/orders/probe.ts", 'import { x } from "@/sandbox/main";\nexport const y = x;\n'],
    [
      "a page importing the sandbox by path",
      "app/(app)/probe/page.tsx",
      'import { x } from "../../../sandbox/main";\nexport const y = x;\n',
    ],
  ])("refuses %s", async (_name, filePath, code) => {
    expect(await restrictedImports(filePath, code)).toHaveLength(1);
  });

  it.each([
    [
      "a domain module using the database",
      "lib/orders/probe.ts",
      'import { db } from "@/lib/db/client";\nexport const x = db;\n',
    ],
    [
      "lib/jobs using the database and the log",
      "lib/jobs/probe.ts",
      'import { db } from "@/lib/db/client";\nimport { logger } from "@/lib/log";\nexport const x = [db, logger];\n',
    ],
    [
      "a component using an app-owned view",
      "components/probe.tsx",
      'import type { ProductView } from "@/lib/catalog/product-view";\nexport type X = ProductView;\n',
    ],
    [
      "the upstream wiring using the database and the budget's settings",
      "lib/upstream/probe.ts",
      'import { db } from "@/lib/db/client";\nimport { readSettings } from "@/lib/settings/get-settings";\nexport const x = [db, readSettings];\n',
    ],
    [
      "the upstream wiring telling admins through notify()",
      "lib/upstream/probe.ts",
      'import { notify } from "@/lib/notifications/notify";\nexport const x = notify;\n',
    ],
    [
      "a route handler calling a domain function",
      "app/api/probe/route.ts",
      'import { listOrders } from "@/lib/orders/list-orders";\nexport const GET = () => listOrders;\n',
    ],
  ])("allows %s", async (_name, filePath, code) => {
    expect(await restrictedImports(filePath, code)).toEqual([]);
  });
});
