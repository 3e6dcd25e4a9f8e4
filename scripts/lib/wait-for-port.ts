import net from "node:net";

/**
 * Waits until a TCP port can be bound, for at most `waitMs`. After a crash, the old launcher's
 * children (the app server, the sandbox) need a moment to notice and exit (exit-with-parent.cjs);
 * a restart waits for them instead of failing on the first EADDRINUSE.
 */
export async function waitForFreePort(port: number, what: string, waitMs = 20_000): Promise<void> {
  const deadline = Date.now() + waitMs;
  while (!(await canBind(port))) {
    if (Date.now() > deadline) throw new PortBusyError(port, what);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export class PortBusyError extends Error {
  constructor(
    readonly port: number,
    what: string,
  ) {
    super(`Port ${port} (${what}) is still in use by another program after waiting; stop it, or choose another port.`);
  }
}

// Binds the unspecified address like the app server does; on Linux that also collides with a
// listener on 127.0.0.1 (the embedded database, the sandbox).
export function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen({ port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}
