// Every timer the sandbox sets goes through here, so close() can cancel them all and none keeps the process alive.

export type Timers = {
  set(fn: () => void, ms: number): void;
  sleep(ms: number): Promise<void>;
  clearAll(): void;
  /** How many timers are still to fire: 0 means nothing will change the state on its own. */
  pending(): number;
};

export function createTimers(onError: (error: unknown) => void): Timers {
  const pending = new Set<NodeJS.Timeout>();
  let closed = false;
  const set = (fn: () => void, ms: number) => {
    if (closed) return; // after close nothing new may start
    const handle = setTimeout(
      () => {
        pending.delete(handle);
        try {
          fn();
        } catch (error) {
          onError(error); // a failing background step must never take the whole sandbox down
        }
      },
      Math.max(0, ms),
    );
    handle.unref();
    pending.add(handle);
  };
  return {
    set,
    sleep: (ms) => new Promise((resolve) => set(resolve, ms)),
    pending: () => pending.size,
    clearAll: () => {
      closed = true;
      for (const handle of pending) clearTimeout(handle);
      pending.clear();
    },
  };
}
