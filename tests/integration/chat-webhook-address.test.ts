import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { postChat, type Resolve } from "@/lib/notifications/post-chat";
import { serveOnLoopback } from "../support/loopback";
import { INSIDE_WEBHOOK_URLS } from "../support/notifications";

/**
 * The chat webhook at send time (issue 51, finding 3): a URL stored before the save-time rule,
 * or a name whose DNS answers an inside address, reaches nothing inside. The receiver is a real
 * server on loopback; only `hooks.test` on its port is allowed (OUTGOING_WEBHOOK_ALLOW_HOSTS),
 * and a resolver stands in for DNS (no internet here).
 */
let receiver: { base: string; close: () => Promise<void> };
let port: string;
let closedPort: string;
const posts: { path: string; body: string }[] = [];
let answer = { status: 200, headers: {} as Record<string, string> };

beforeAll(async () => {
  receiver = await serveOnLoopback((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      posts.push({ path: req.url ?? "", body });
      res.writeHead(answer.status, answer.headers).end();
    });
  });
  port = new URL(receiver.base).port;
  const closed = await serveOnLoopback(() => {});
  closedPort = new URL(closed.base).port;
  await closed.close();
  process.env.OUTGOING_WEBHOOK_ALLOW_HOSTS = `hooks.test:${port}, 127.0.0.1:${closedPort}`;
});

afterAll(async () => {
  await receiver.close();
  delete process.env.OUTGOING_WEBHOOK_ALLOW_HOSTS;
});

const NOT_PUBLIC = { kind: "refused", reason: "chat webhook: its address is not a public https one" };
const toLoopback: Resolve = async () => [{ address: "127.0.0.1", family: 4 }];

describe("the chat webhook's address, at send", () => {
  test("every loopback, private, link-local and metadata form is refused and reaches nothing", async () => {
    for (const url of INSIDE_WEBHOOK_URLS) {
      const onOurPort = url.replace(":4684", `:${port}`);
      expect(await postChat(onOurPort, { text: "hi" }, toLoopback), onOurPort).toEqual(NOT_PUBLIC);
    }
    expect(posts).toEqual([]);
  });

  test("a host name whose DNS answers an inside address is refused, even when another answer is public", async () => {
    for (const answers of [
      [{ address: "10.0.0.1", family: 4 }],
      [{ address: "169.254.169.254", family: 4 }],
      [
        { address: "93.184.215.14", family: 4 },
        { address: "127.0.0.1", family: 4 },
      ],
      [{ address: "::ffff:127.0.0.1", family: 6 }],
      [{ address: "fd00::1", family: 6 }],
    ]) {
      const outcome = await postChat("https://hooks.example.com/services/T0/B0/x", { text: "hi" }, async () => answers);
      expect(outcome, JSON.stringify(answers)).toEqual(NOT_PUBLIC);
    }
  });

  test("the connection goes to the address vetted, and an allowed receiver gets the message", async () => {
    const asked: string[] = [];
    const resolve: Resolve = async (hostname) => {
      asked.push(hostname);
      return [{ address: "127.0.0.1", family: 4 }];
    };
    expect(await postChat(`http://hooks.test:${port}/hooks/T0`, { text: "vetted" }, resolve)).toEqual({ kind: "sent" });
    expect(asked).toEqual(["hooks.test"]);
    expect(posts.at(-1)).toEqual({ path: "/hooks/T0", body: JSON.stringify({ text: "vetted" }) });
  });

  test("a redirect is not followed, and a failure says nothing of the network", async () => {
    answer = { status: 302, headers: { location: `http://127.0.0.1:${port}/_sandbox/orders/1/refund` } };
    const before = posts.length;
    expect(await postChat(`http://hooks.test:${port}/hooks/T0`, { text: "x" }, toLoopback)).toEqual({
      kind: "refused",
      reason: "chat webhook answered 302",
    });
    expect(posts.slice(before).map((p) => p.path)).toEqual(["/hooks/T0"]);
    answer = { status: 200, headers: {} };

    expect(await postChat(`http://127.0.0.1:${closedPort}/hooks`, { text: "x" })).toEqual({
      kind: "retry",
      reason: "chat webhook: the chat server could not be reached",
    });
    const noSuchName: Resolve = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND hooks.example.com"), { code: "ENOTFOUND" });
    };
    expect(await postChat("https://hooks.example.com/x", { text: "x" }, noSuchName)).toEqual({
      kind: "retry",
      reason: "chat webhook: the chat server could not be reached",
    });
  });
});
