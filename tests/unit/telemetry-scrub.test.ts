import { describe, expect, test } from "vitest";
import { endpointLabel, ENDPOINTS, findEndpoint } from "@/lib/upstream/client/endpoints";
import { prometheusText } from "@/lib/telemetry/prometheus-text";
import { scrubAttributes, scrubText } from "@/lib/telemetry/scrub";

describe("what leaves the process in a span", () => {
  test("a query string is cut from URLs and paths, which may carry a one-time link's token", () => {
    expect(
      scrubAttributes({
        "url.full": "http://127.0.0.1:4610/api/v1/orders?clientReference=x&token=abc",
        "http.target": "/signin/reset-password/complete?token=secret123",
        "url.path": "/api/orders",
        "url.query": "token=secret123",
      }),
    ).toEqual({
      "url.full": "http://127.0.0.1:4610/api/v1/orders",
      "http.target": "/signin/reset-password/complete",
      "url.path": "/api/orders",
    });
    expect(scrubText("GET /signin?callbackUrl=%2Forders")).toBe("GET /signin");
  });

  test("attributes named like credentials are dropped, emails replaced, exception messages dropped when asked", () => {
    const scrubbed = scrubAttributes(
      {
        "http.request.header.authorization": ["Bearer x"],
        "http.request.header.cookie": ["next-auth.session-token=x"],
        "app.note": "signed in as buyer@demo.local",
        "exception.message": "duplicate key buyer@demo.local",
        "exception.type": "PrismaClientKnownRequestError",
        "db.query.text": 'SELECT "id" FROM "Staff" WHERE "email" = $1',
      },
      { messages: false },
    );
    expect(scrubbed).toEqual({
      "app.note": "signed in as [email]",
      "exception.type": "PrismaClientKnownRequestError",
      "db.query.text": 'SELECT "id" FROM "Staff" WHERE "email" = $1',
    });
  });
});

test("an upstream path as a metric label keeps its words and names no id", () => {
  const endpointTemplate = (path: string, method = "GET") => endpointLabel(ENDPOINTS[findEndpoint(method, path)!]);
  expect(endpointTemplate("/api/v1/orders")).toBe("/api/v1/orders");
  expect(endpointTemplate("/api/v1/orders/ord_8Hk2x9/fulfillment", "POST")).toBe("/api/v1/orders/:id/fulfillment");
  expect(endpointTemplate("/api/v1/catalog-product-images/PRD-123?size=2")).toBe("/api/v1/catalog-product-images/:id");
  expect(endpointTemplate("/api/v1/wallet/deposit-addresses/bsc-usd")).toBe("/api/v1/wallet/deposit-addresses/bsc-usd");
});

test("Prometheus text: help, type and one line per point, label values escaped", () => {
  expect(
    prometheusText([
      {
        name: "dgis_orders_failed_total",
        kind: "counter",
        help: "Orders refused.",
        points: [{ labels: { reason: 'a"b' }, value: 2 }],
      },
      { name: "dgis_upstream_budget_used", kind: "gauge", help: "Used.", points: [{ labels: {}, value: 7 }] },
    ]),
  ).toBe(
    [
      "# HELP dgis_orders_failed_total Orders refused.",
      "# TYPE dgis_orders_failed_total counter",
      'dgis_orders_failed_total{reason="a\\"b"} 2',
      "# HELP dgis_upstream_budget_used Used.",
      "# TYPE dgis_upstream_budget_used gauge",
      "dgis_upstream_budget_used 7",
      "",
    ].join("\n"),
  );
});
