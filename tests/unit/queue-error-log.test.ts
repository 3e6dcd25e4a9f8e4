import { describe, expect, it } from "vitest";
import { describeQueueError } from "@/lib/jobs/queue";

describe("a job queue error in the log", () => {
  it("says an Error's message", () => {
    expect(describeQueueError(new Error("Query read timeout"))).toEqual({ error: "Query read timeout" });
  });

  it("says a worker's copied error by its message and queue, not as [object Object], and nothing else of it", () => {
    const copied = {
      ...new Error("x"),
      message: "timeout exceeded when trying to connect",
      stack: "…",
      queue: "webhooks.events",
      worker: "w1",
      data: { secret: "s" },
    };
    expect(describeQueueError(copied)).toEqual({ error: "timeout exceeded when trying to connect", queue: "webhooks.events" });
  });

  it("says something of an object without a message, and of anything else", () => {
    expect(describeQueueError({ code: "57P01" })).toEqual({ error: "an error without a message" });
    expect(describeQueueError("connection lost")).toEqual({ error: "connection lost" });
  });
});
