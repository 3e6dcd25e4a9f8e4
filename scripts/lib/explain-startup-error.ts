import { DataDirBusyError } from "./data-dir-lock";
import { PortBusyError } from "./wait-for-port";

type SocketError = Error & { code?: string; address?: string; port?: number; cause?: unknown; errors?: unknown[] };

/**
 * One line a person can act on, for anything that stops start-up or a command-line tool —
 * never a bare "connect ECONNREFUSED 127.0.0.1:25433".
 */
export function explainStartupError(error: unknown): string {
  if (error instanceof DataDirBusyError || error instanceof PortBusyError) return error.message;
  const socket = findSocketError(error);
  if (socket?.code === "ECONNREFUSED" || socket?.code === "ECONNRESET") {
    const where = socket.address ? ` at ${socket.address}${socket.port ? `:${socket.port}` : ""}` : "";
    return `The database${where} is not accepting connections. With DATABASE_URL set, check that the server is running; in local mode, run the command again (the data folder's owner is checked afresh).`;
  }
  if (socket?.code === "EADDRINUSE") {
    return `Port ${socket.port ?? "?"} is already in use by another program; stop it, or choose another port (PORT, EMBEDDED_DB_PORT, SANDBOX_PORT).`;
  }
  return error instanceof Error ? error.message : String(error);
}

function findSocketError(error: unknown, depth = 0): SocketError | null {
  if (!(error instanceof Error) || depth > 4) return null;
  const candidate = error as SocketError;
  if (candidate.code && /^E[A-Z]+$/.test(candidate.code)) return candidate;
  for (const inner of [candidate.cause, ...(candidate.errors ?? [])]) {
    const found = findSocketError(inner, depth + 1);
    if (found) return found;
  }
  return null;
}
