/**
 * An upstream path as a metric label: its words kept, every other segment (an order id, a
 * product id, a reference) replaced by ":id", so the label has few values and names nothing.
 * `/v1/orders/ord_8Hk2/codes` → `/v1/orders/:id/codes`.
 */
export function endpointTemplate(path: string): string {
  const pathOnly = path.split("?")[0] ?? "";
  return pathOnly
    .split("/")
    .map((segment) => (segment === "" || /^(?:v\d+|[a-z]+(?:[-_][a-z]+)*)$/.test(segment) ? segment : ":id"))
    .join("/");
}
