import { NextRequest } from "next/server";
import { describe, expect, test } from "vitest";
import { assertJsonBody, hasBody } from "@/lib/http/parse";

const URL = "http://localhost:3000/api/nothing";

describe("a request has a body only when its framing headers say so", () => {
  test("a DELETE without Content-Length or Transfer-Encoding has none, though Next gives it a body stream", () => {
    const req = new NextRequest(URL, { method: "DELETE", body: new ReadableStream(), duplex: "half" });
    expect(req.body).not.toBeNull();
    expect(hasBody(req)).toBe(false);
    expect(() => assertJsonBody(req)).not.toThrow();
  });

  test("a declared length above zero, or a chunked body, is one; a declared zero is none", () => {
    const at = (headers: Record<string, string>) => new NextRequest(URL, { method: "POST", headers });
    expect(hasBody(at({ "content-length": "2" }))).toBe(true);
    expect(hasBody(at({ "transfer-encoding": "chunked" }))).toBe(true);
    expect(hasBody(at({ "content-length": "0" }))).toBe(false);
    expect(() => assertJsonBody(at({ "content-length": "2", "content-type": "text/plain" }))).toThrow(/JSON/);
  });
});
