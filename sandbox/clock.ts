// The sandbox clock is real time plus an offset that only moves forward (POST /_sandbox/clock/advance).
// Business timestamps use it; transport timers (fulfilment delay, webhook retries) use real time.

export type Clock = {
  now(): number;
  offsetMs(): number;
  advance(seconds: number): void;
};

export function createClock(holder: { clockOffsetMs: number }): Clock {
  return {
    now: () => Date.now() + holder.clockOffsetMs,
    offsetMs: () => holder.clockOffsetMs,
    advance: (seconds) => {
      holder.clockOffsetMs += Math.round(seconds * 1000);
    },
  };
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function parseIso(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : null;
}
