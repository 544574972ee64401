/** How far a delivery's timestamp may be from now, either way. */
export declare const WEBHOOK_TOLERANCE_SECONDS: number;
/** An event as the daemon delivers it. */
export interface WebhookEvent<T = unknown> {
    id: string;
    type: string;
    created_at: string;
    data: T;
    [field: string]: unknown;
}
/** Request headers as Node's `IncomingMessage`, a fetch `Headers` or a plain object carry them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;
/**
 * Checks a delivery the way Standard Webhooks signs it and returns its parsed event: the
 * `webhook-signature` header must hold an HMAC-SHA256 of `id.timestamp.body` under the
 * endpoint's secret (one of several space-separated `v1,…` signatures will do), and the
 * timestamp must be within five minutes of now. Pass the body exactly as received (a Buffer or
 * the raw text), never re-serialised JSON.
 *
 * Throws `WebhookVerificationError` for anything else.
 */
export declare function verifyWebhook<T = unknown>(payload: string | Buffer | Uint8Array, headers: WebhookHeaders, secret: string, options?: {
    now?: Date | number;
}): WebhookEvent<T>;
