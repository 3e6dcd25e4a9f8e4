import net from "node:net";
import { E2E_PORT } from "../../playwright.config";

export type RawAnswer = { status: number; headers: Record<string, string>; body: string };

/**
 * One HTTP/1.1 request written on its own socket exactly as given, for what no HTTP client
 * sends: a request target that is not a path (`*`, `http://evil.example/api/staff`). The answer
 * is read to the end (`Connection: close`); a chunked body is put back together.
 */
export async function rawRequest(requestLine: string, headers: Record<string, string> = {}, body = ""): Promise<RawAnswer> {
  const head = [
    requestLine,
    `Host: localhost:${E2E_PORT}`,
    "Connection: close",
    ...(body ? [`Content-Length: ${Buffer.byteLength(body)}`] : []),
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  const text = await new Promise<string>((resolve, reject) => {
    // Written, not ended: Node's server drops a connection whose client half-closed before the answer was ready.
    const socket = net.connect(E2E_PORT, "127.0.0.1", () => socket.write(`${head.join("\r\n")}\r\n\r\n${body}`));
    const chunks: Buffer[] = [];
    socket.setTimeout(30_000, () => socket.destroy(new Error(`no answer to ${requestLine} in 30 s`)));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("latin1")));
    socket.on("error", reject);
  });
  const split = text.indexOf("\r\n\r\n");
  if (split === -1) throw new Error(`${requestLine}: the connection closed without a complete answer (${text.length} bytes)`);
  const [statusLine = "", ...lines] = text.slice(0, split).split("\r\n");
  const found: Record<string, string> = {};
  for (const line of lines)
    found[line.slice(0, line.indexOf(":")).trim().toLowerCase()] = line.slice(line.indexOf(":") + 1).trim();
  const rest = text.slice(split + 4);
  const raw = found["transfer-encoding"] === "chunked" ? unchunk(rest) : rest;
  return { status: Number(statusLine.split(" ")[1]), headers: found, body: Buffer.from(raw, "latin1").toString("utf8") };
}

function unchunk(text: string): string {
  let out = "";
  let at = 0;
  for (;;) {
    const lineEnd = text.indexOf("\r\n", at);
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (!(size > 0)) return out;
    out += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

/** The Cookie header that an API context of Playwright sends (its signed-in session). */
export function cookieHeader(cookies: { name: string; value: string }[]): string {
  return cookies.map(({ name, value }) => `${name}=${value}`).join("; ");
}
