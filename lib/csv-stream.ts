import { toCsvRow } from "./csv";

type Cells = readonly (string | number | null | undefined)[];

/** One batch of an export: its rows as cells, and where the next batch starts (null: the last). */
export type CsvBatch<C> = { rows: Cells[]; next: C | null };

/**
 * Streams a CSV a batch at a time (a large export never loads the table), every cell
 * formula-safe (lib/csv.ts). The first batch is read before the stream is handed back, so
 * a filter the database refuses is an error answer, not a 200 whose connection is then cut.
 */
export async function streamCsv<C>(
  header: readonly string[],
  readBatch: (after: C | null) => Promise<CsvBatch<C>>,
): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  let pending: CsvBatch<C> | null = await readBatch(null);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(toCsvRow(header)));
    },
    async pull(controller) {
      // A pull that enqueues nothing is not called again (the download would stall): read past
      // batches with no rows (a filter left none) to one that has some, or close.
      while (pending && !pending.rows.length && pending.next !== null) pending = await readBatch(pending.next);
      if (!pending || !pending.rows.length) return controller.close();
      const batch = pending;
      controller.enqueue(encoder.encode(batch.rows.map((cells) => toCsvRow(cells)).join("")));
      pending = batch.next === null ? null : await readBatch(batch.next);
    },
  });
}
