import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import type { State } from "./state";

// Optional persistence to SANDBOX_STATE_FILE: the whole state as JSON (Maps tagged as {"$map": entries}),
// written debounced, always via a temporary file and a rename so a crash never leaves half a file.

const DEBOUNCE_MS = 200;

export function serializeState(state: State): string {
  return JSON.stringify(state, (_key, value: unknown) => (value instanceof Map ? { $map: [...value.entries()] } : value));
}

export function parseState(text: string): State {
  const state = JSON.parse(text, (_key, value: unknown) => {
    if (typeof value === "object" && value !== null && !Array.isArray(value) && "$map" in value && Array.isArray(value.$map)) {
      return new Map(value.$map as [unknown, unknown][]);
    }
    return value;
  }) as State; // trusted: this file is written only by serializeState
  if (state.version !== 1) throw new Error(`unsupported sandbox state version ${String(state.version)}`);
  return state;
}

export function loadState(file: string): State | null {
  if (!existsSync(file)) return null;
  return parseState(readFileSync(file, "utf8"));
}

export type Persister = { changed(): void; flushSync(): void };

export function createPersister(file: string | undefined, state: State, log: (message: string) => void): Persister {
  if (!file) return { changed: () => {}, flushSync: () => {} };
  let writes = 0;
  const tempName = () => `${file}.${process.pid}.${++writes}.tmp`; // one per write: a flush may overlap a pending write
  let timer: NodeJS.Timeout | null = null;
  let writing = false;
  let dirty = false;
  const write = async () => {
    timer = null;
    if (writing) return void (dirty = true);
    writing = true;
    dirty = false;
    const temp = tempName();
    try {
      await writeFile(temp, serializeState(state));
      await rename(temp, file);
    } catch (error) {
      log(`could not persist state to ${file}: ${String(error)}`);
    } finally {
      writing = false;
      if (dirty) schedule();
    }
  };
  const schedule = () => {
    if (timer) return;
    timer = setTimeout(() => void write(), DEBOUNCE_MS);
    timer.unref();
  };
  return {
    changed: schedule,
    flushSync: () => {
      if (timer) clearTimeout(timer);
      timer = null;
      const temp = tempName();
      writeFileSync(temp, serializeState(state));
      renameSync(temp, file);
    },
  };
}
