import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A real HTTP server on 127.0.0.1 at a free port, for tests that put one of our HTTP pieces
 * (the edge, compression, the upstream client's door) against the wire. `close` also ends the
 * clients' keep-alive sockets, which would hold the server's close for seconds.
 */
export async function serveOnLoopback(handler: http.RequestListener): Promise<{ base: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer; chunks: number };

/** One request read by a raw client: the bytes on the wire (not decoded), and how many pieces they came in. */
export function rawRequest(url: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<RawAnswer>((resolve, reject) => {
    http
      .request(url, { method: init.method ?? "GET", headers: init.headers }, (res) => {
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts), chunks: parts.length }),
        );
        res.on("error", reject);
      })
      .on("error", reject)
      .end();
  });
}
