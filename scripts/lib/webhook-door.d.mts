import type { IncomingMessage, ServerResponse } from "node:http";

export declare const WEBHOOK_PATH: string;
export declare function isWebhookDelivery(req: IncomingMessage): boolean;
export declare function loadWebhookHandler(dir: string): Promise<(req: Request) => Promise<Response>>;
export declare function serveWebhook(
  post: (req: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void>;
