import { readFileSync } from "node:fs";
import { request } from "node:https";
import { networkInterfaces } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../sandbox/server";

// A self-signed test certificate (fixtures/, for tests only) lets the sandbox bind a non-loopback address.
const fixtures = path.join(import.meta.dirname, "fixtures");
const tls = { key: readFileSync(path.join(fixtures, "tls-key.pem")), cert: readFileSync(path.join(fixtures, "tls-cert.pem")) };
const externalIp = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, rejectUnauthorized: false }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe.skipIf(!externalIp)("serving beyond loopback", () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox({ host: externalIp, port: 0, tls, log: () => {} });
  });
  afterAll(() => sb.close());

  it("serves HTTPS only, and the public API works over it", async () => {
    expect(sb.baseUrl).toBe(`https://${externalIp}:${new URL(sb.baseUrl).port}`);
    const res = await get(`${sb.baseUrl}/api/v1/products?limit=1`, { "X-Api-Key": sb.apiKey });
    expect(res.status).toBe(200);
    await expect(fetch(sb.baseUrl.replace("https:", "http:") + "/api/v1/products")).rejects.toThrow();
  });

  it("answers the control plane only to loopback clients: 403 forbidden from another address", async () => {
    const res = await get(`${sb.baseUrl}/_sandbox/health`);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).code).toBe("forbidden");
  });
});
