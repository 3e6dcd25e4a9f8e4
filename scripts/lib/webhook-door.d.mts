import type { IncomingMessage, ServerResponse } from "node:http";

export type SignatureHeaders = {
  eventId: string | null | undefined;
  timestamp: string | null | undefined;
  signature: string | null | undefined;
};
export type PlainAnswer = { status: number; headers: Record<string, string>; body: string };
export type AnswerDelivery = (headers: SignatureHeaders, body: Uint8Array | null) => Promise<PlainAnswer>;

export declare const WEBHOOK_PATH: string;
export declare function isWebhookDelivery(req: IncomingMessage): boolean;
export declare function loadWebhookHandler(dir: string): Promise<AnswerDelivery>;
export declare function serveWebhook(answerDelivery: AnswerDelivery, req: IncomingMessage, res: ServerResponse): Promise<void>;
