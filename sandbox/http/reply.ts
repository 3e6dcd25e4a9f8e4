import type { ServerResponse } from "node:http";
import { problemBody, type Problem } from "../problem";

export type Reply = {
  status: number;
  json?: unknown;
  jsonText?: string; // pre-serialized JSON (the catalog's hot path)
  bytes?: Buffer;
  contentType?: string;
  headers?: Record<string, string>;
};

export function sendReply(res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  let payload: Buffer | string | undefined;
  if (reply.bytes) {
    payload = reply.bytes;
    res.setHeader("Content-Type", reply.contentType ?? "application/octet-stream");
  } else if (reply.jsonText !== undefined || reply.json !== undefined) {
    payload = reply.jsonText ?? JSON.stringify(reply.json);
    res.setHeader("Content-Type", reply.contentType ?? "application/json; charset=utf-8");
  }
  res.statusCode = reply.status;
  if (payload === undefined || reply.status === 304) {
    res.end();
    return;
  }
  res.setHeader("Content-Length", Buffer.byteLength(payload));
  res.end(payload);
}

export function sendProblem(res: ServerResponse, problem: Problem, correlationId: string): void {
  sendReply(res, {
    status: problem.status,
    json: problemBody(problem, correlationId),
    contentType: "application/problem+json",
    headers: problem.headers,
  });
}
