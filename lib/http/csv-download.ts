/** A CSV stream as a download named `<name>-<UTC day>.csv`, never cached. */
export function csvDownload(stream: ReadableStream<Uint8Array>, name: string): Response {
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${name}-${stamp}.csv"`,
      "cache-control": "no-store",
    },
  });
}
