import type { IncomingMessage, ServerResponse } from "node:http";
import type { answerDelivery } from "../../app/api/webhooks/service/route";

/** The compiled route's `answerDelivery`, which the door calls (its own type, not a copy). */
export type AnswerDelivery = typeof answerDelivery;

export declare const WEBHOOK_PATH: string;
export declare function isWebhookDelivery(req: IncomingMessage): boolean;
export declare function loadWebhookHandler(dir: string): Promise<AnswerDelivery>;
export declare function serveWebhook(answerDelivery: AnswerDelivery, req: IncomingMessage, res: ServerResponse): Promise<void>;
