import { simpleParser, type AddressObject } from "mailparser";
import type { Socket } from "node:net";
import { SMTPServer } from "smtp-server";

/** One caught message, parsed. */
export type CaughtMessage = {
  messageId: string | null;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string | null;
};

export type MailCatcher = { url: string; port: number; stop(): Promise<void> };

/**
 * A local SMTP server that keeps what it is sent (local mode without SMTP_URL, and the tests):
 * no TLS, no authentication, loopback only. `refuse` lets a test answer a message with an SMTP
 * error (a 4xx "try later" or a 5xx refusal) instead of taking it.
 */
export async function startMailCatcher(options: {
  port?: number;
  onMail: (message: CaughtMessage) => Promise<void> | void;
  refuse?: (envelope: { to: string[] }) => { code: number; message: string } | null;
}): Promise<MailCatcher> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    banner: "local mail catcher",
    disableReverseLookup: true,
    size: 2 * 1024 * 1024,
    logger: false,
    // Stopping does not wait for a sender's kept (pooled) connections: they are cut after a second.
    closeTimeout: 1_000,
    onData(stream, session, callback) {
      const to = session.envelope.rcptTo.map((r) => r.address);
      simpleParser(stream)
        .then(async (parsed) => {
          const refusal = options.refuse?.({ to });
          if (refusal) return callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
          await options.onMail({
            messageId: parsed.messageId ?? null,
            from: parsed.from?.text ?? session.envelope.mailFrom?.toString() ?? "",
            to: to.length > 0 ? to : addresses(parsed.to),
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : null,
          });
          callback();
        })
        .catch((error: unknown) =>
          callback(Object.assign(new Error("could not keep the message"), { responseCode: 451, cause: error })),
        );
    },
  });
  // Without this, Nagle's algorithm and the client's delayed ACKs hold each SMTP reply about
  // 40 ms: 160 ms a message, where it takes 2 ms with it.
  server.server.on("connection", (socket: Socket) => socket.setNoDelay(true));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? 0);
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function addresses(value: AddressObject | AddressObject[] | undefined): string[] {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  return list.flatMap((a) => a.value.flatMap((v) => (v.address ? [v.address] : [])));
}
