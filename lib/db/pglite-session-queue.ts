import type { PGlite } from "@electric-sql/pglite";

/**
 * A replacement for pglite-socket's query queue. PGlite has one database session that all
 * socket connections share; the stock queue (0.2.17) hands that session to whichever
 * connection sent the next *message*, so the extended-query messages of two connections
 * interleave (A's Parse, B's Parse, A's Bind…): statements are lost ("unnamed prepared
 * statement does not exist") or results go to the wrong client. Seen here as an
 * INSERT … RETURNING answering no rows under concurrency.
 *
 * This queue gives the session to one connection from its first message until the end
 * of that message group — a Sync, a simple Query, a Terminate or the start-up packet —
 * and keeps it there while a transaction is open, so each client sees exactly the
 * session a real PostgreSQL backend would give it.
 */
type Item = {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
};

const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const TERMINATE = 0x58; // 'X'

export class SessionQueue {
  private queue: Item[] = [];
  private processing = false;
  private owner: number | null = null;

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.process();
    });
  }

  private async process(): Promise<void> {
    if (this.processing) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const index = this.owner === null ? 0 : this.queue.findIndex((item) => item.handlerId === this.owner);
        if (index === -1) break; // the owner's next message has not arrived yet
        const [item] = this.queue.splice(index, 1) as [Item];
        this.owner = item.handlerId;
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
          item.resolve(bytes);
        } catch (error) {
          item.reject(error);
        }
        if (endsGroup(item.message) && !this.db.isInTransaction()) this.owner = null;
      }
    } finally {
      this.processing = false;
    }
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number): void {
    this.queue = this.queue.filter((item) => {
      if (item.handlerId !== handlerId) return true;
      item.reject(new Error("Handler disconnected"));
      return false;
    });
  }

  /** A client that leaves mid-transaction must not leave the shared session inside it. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec("ROLLBACK");
    this.owner = null;
    await this.process();
  }
}

function endsGroup(message: Uint8Array): boolean {
  const type = message[0];
  // The start-up packet has no type byte: it begins with its length, whose first byte is 0.
  return type === SYNC || type === QUERY || type === TERMINATE || type === 0;
}
