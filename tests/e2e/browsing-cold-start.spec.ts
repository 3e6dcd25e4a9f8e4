import { spawn, type ChildProcess } from "node:child_process";
import { rm } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { expect, test, type Browser, type Page, type Response } from "@playwright/test";
import pg from "pg";
import { DEMO_PASSWORD } from "../../playwright.config";

/**
 * A person at work never meets their share of the upstream's minute (issue 50): on an app of this
 * spec's own, freshly started (cold caches, an empty data folder, two app processes, the
 * upstream's real limit of 120 calls a minute and the default shares), two people each load five
 * catalog pages of 24 with every picture and search twice, at once and as fast as the pages come
 * (well within a minute on a quiet machine). No answer is a 429, no page says "going faster",
 * every picture answers 200 (a placeholder until the worker has fetched it), each person is
 * charged under half of one minute's share, pictures nothing (so the same browsing within any one
 * minute is well inside their share, however long this machine took), and nobody is recorded as
 * going past their share. A later view shows the pictures the worker fetched meanwhile.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const DATA_DIR = ".data/e2e-browsing-cold-start";
const PAGES = 5;
const SEARCHES = ["gift", "esim"];
/** A person's calls a minute by default: 25 % of the upstream's 120 (README, "The upstream's 120 calls a minute"). */
const PERSON_SHARE = 30;

let app: ChildProcess;
let origin: string;
let dbPort: number;

test.describe.configure({ mode: "serial", timeout: 240_000 });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  await rm(path.join(ROOT, DATA_DIR), { recursive: true, force: true });
  const [port, embeddedDbPort, sandboxPort] = (await freePorts(3)) as [number, number, number];
  dbPort = embeddedDbPort;
  origin = `http://localhost:${port}`;
  const inherited = { ...process.env };
  // Local mode at the real limit and the default shares, whatever the caller has set.
  for (const name of ["DATABASE_URL", "SERVICE_BASE_URL", "SERVICE_RATE_LIMIT", "SANDBOX_RATE_LIMIT"]) delete inherited[name];
  app = spawn("npm", ["start"], {
    cwd: ROOT,
    detached: true,
    stdio: "ignore",
    env: {
      ...inherited,
      PORT: String(port),
      DATA_DIR,
      EMBEDDED_DB_PORT: String(embeddedDbPort),
      SANDBOX_PORT: String(sandboxPort),
      DEMO_PASSWORD,
      LOG_LEVEL: "warn",
      WEB_CONCURRENCY: "2",
    },
  });
  await expect
    .poll(
      () =>
        fetch(`${origin}/api/health`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 280_000, intervals: [1_000] },
    )
    .toBe(200);
});

test.afterAll(async () => {
  if (app?.pid) process.kill(-app.pid, "SIGTERM");
  await expect
    .poll(
      () =>
        fetch(`${origin}/api/health`).then(
          () => "up",
          () => "down",
        ),
      { timeout: 30_000 },
    )
    .toBe("down");
});

type Answer = { url: string; status: number; type: string };
type Seen = { statuses: Answer[]; pictures: Answer[] };

/** Signs `email` in on this spec's app and records every answer its pages get. */
async function personAt(browser: Browser, email: string): Promise<{ page: Page; seen: Seen }> {
  const context = await browser.newContext({ baseURL: origin });
  const seen: Seen = { statuses: [], pictures: [] };
  context.on("response", (res: Response) => {
    const answer = { url: res.url(), status: res.status(), type: res.headers()["content-type"] ?? "" };
    seen.statuses.push(answer);
    if (new URL(answer.url).pathname.startsWith("/api/catalog/images/")) seen.pictures.push(answer);
  });
  const page = await context.newPage();
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("current-staff")).toContainText(email);
  return { page, seen };
}

/** Opens `url` and brings every card's picture into view, as a person scrolling the page does, until each has loaded. */
async function viewWithEveryPicture(page: Page, url: string): Promise<number> {
  await page.goto(url);
  await expect(page.getByRole("heading", { level: 1, name: "Catalog" })).toBeVisible();
  await expect(page.getByTestId("product-card").first()).toBeVisible();
  const pictures = page.getByTestId("product-card").locator("img");
  const count = await pictures.count();
  for (let i = 0; i < count; i++) await pictures.nth(i).scrollIntoViewIfNeeded();
  await expect
    .poll(() => pictures.evaluateAll((images) => images.filter((img) => !(img as HTMLImageElement).complete).length))
    .toBe(0);
  await expect(page.getByText(/going faster/i)).toHaveCount(0);
  return count;
}

/** Five catalog pages of 24 and two searches, as fast as the pages come. */
async function browse(page: Page): Promise<{ pictures: number; ms: number }> {
  const started = Date.now();
  let pictures = 0;
  for (let n = 1; n <= PAGES; n++) pictures += await viewWithEveryPicture(page, `/catalog?size=24&page=${n}`);
  for (const q of SEARCHES) pictures += await viewWithEveryPicture(page, `/catalog?size=24&q=${q}`);
  return { pictures, ms: Date.now() - started };
}

test("two people browsing five catalog pages and searching twice in the first minute after a start never meet their share", async ({
  browser,
}) => {
  const finance = await personAt(browser, "finance@demo.local");
  const buyer = await personAt(browser, "buyer@demo.local");
  const startedAt = new Date();

  const [financeRun, buyerRun] = await Promise.all([browse(finance.page), browse(buyer.page)]);

  for (const [who, person, run] of [
    ["finance", finance, financeRun],
    ["buyer", buyer, buyerRun],
  ] as const) {
    test.info().annotations.push({ type: "browsing", description: `${who}: ${run.pictures} pictures in ${run.ms} ms` });
    expect(run.pictures, `${who}'s pages showed a picture on every card`).toBeGreaterThanOrEqual(PAGES * 24);
    expect(person.seen.pictures.length).toBeGreaterThanOrEqual(run.pictures);
    expect(person.seen.pictures.filter((p) => p.status !== 200)).toEqual([]);
    expect(person.seen.statuses.filter((s) => s.status === 429)).toEqual([]);
  }

  // What each person was charged, over however many minutes this machine took: about a call per
  // page and search (none for a page the other had just read, none for a picture), and the reads
  // their pages make besides (one more than pages and searches was seen on the buyer in one run).
  // Under half of one minute's share (30 of 120 by default), so the same browsing within any one
  // minute stays well inside it; the 240 pictures each saw, had they counted, would be eight shares.
  for (const email of ["finance@demo.local", "buyer@demo.local"]) {
    const charged = await withAppDb(async (db) =>
      Number(
        (
          await db.query<{ n: string }>(
            `SELECT coalesce(sum(u."interactive" + u."background"), 0) AS n FROM "UpstreamSpend" u
             JOIN "Staff" s ON u."spender" = 'staff:' || s.id WHERE s.email = $1`,
            [email],
          )
        ).rows[0]!.n,
      ),
    );
    expect(charged, `${email}'s calls`).toBeLessThan(PERSON_SHARE / 2);
  }

  // Nobody went past their share: no refusal counted, none audited.
  const refusals = await withAppDb(async (db) => {
    const spend = await db.query<{ n: string }>(
      `SELECT coalesce(sum("refused"), 0) AS n FROM "UpstreamSpend" WHERE "windowStart" >= $1::timestamptz AT TIME ZONE 'UTC' - interval '1 minute'`,
      [startedAt.toISOString()],
    );
    const audited = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM "AuditEvent" WHERE action = 'upstream.share_exceeded'`,
    );
    return Number(spend.rows[0]!.n) + Number(audited.rows[0]!.n);
  });
  expect(refusals).toBe(0);
});

test("a later view of the first page shows the pictures the worker fetched meanwhile", async ({ browser }) => {
  const { page, seen } = await personAt(browser, "viewer@demo.local");
  // The worker fetches at its pace (one picture every 2 s at 120 calls a minute), the first page's first.
  await expect
    .poll(
      async () => {
        await viewWithEveryPicture(page, "/catalog?size=24&page=1");
        return seen.pictures.filter((p) => p.type === "image/png").length;
      },
      { timeout: 120_000, intervals: [5_000] },
    )
    .toBeGreaterThan(0);
  expect(seen.pictures.filter((p) => p.status !== 200)).toEqual([]);
});

async function withAppDb<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: `postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres?sslmode=disable`,
  });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve) => {
          const server = net.createServer();
          server.listen(0, "127.0.0.1", () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port); // TCP listeners: AddressInfo
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}
