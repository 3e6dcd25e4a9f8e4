import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

// A webhook receiver for tests: records each request (headers and raw body) and answers with the next
// status of a script (the last status repeats).

export type Received = { headers: IncomingHttpHeaders; body: string; at: number };
export type Receiver = { url: string; received: Received[]; close(): Promise<void> };

export async function startReceiver(statuses: number[] = [200]): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const status = statuses[Math.min(received.length - 1, statuses.length - 1)] ?? 200;
      res.statusCode = status;
      if (status >= 300 && status < 400) res.setHeader("Location", "http://127.0.0.1:9/elsewhere");
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo; // listening on TCP: always AddressInfo
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
