import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from './errors.js';
/** How far a delivery's timestamp may be from now, either way. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;
function header(headers, name) {
    let value;
    if (typeof headers.get === 'function')
        value = headers.get(name);
    else
        value = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
    if (Array.isArray(value))
        value = value.join(' ');
    if (!value)
        throw new WebhookVerificationError(`The ${name} header is missing.`);
    return value;
}
function secretKey(secret) {
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    if (key.length === 0)
        throw new WebhookVerificationError('The webhook secret is empty: pass the whsec_… secret shown when the endpoint was created.');
    return key;
}
/**
 * Checks a delivery the way Standard Webhooks signs it and returns its parsed event: the
 * `webhook-signature` header must hold an HMAC-SHA256 of `id.timestamp.body` under the
 * endpoint's secret (one of several space-separated `v1,…` signatures will do), and the
 * timestamp must be within five minutes of now. Pass the body exactly as received (a Buffer or
 * the raw text), never re-serialised JSON.
 *
 * Throws `WebhookVerificationError` for anything else.
 */
export function verifyWebhook(payload, headers, secret, options = {}) {
    const id = header(headers, 'webhook-id');
    const timestamp = header(headers, 'webhook-timestamp');
    const signatures = header(headers, 'webhook-signature');
    if (!/^\d+$/.test(timestamp))
        throw new WebhookVerificationError(`The webhook-timestamp header "${timestamp}" is not a number of seconds.`);
    const now = Math.floor(Number(options.now ?? Date.now()) / 1000);
    const age = now - Number(timestamp);
    if (age > WEBHOOK_TOLERANCE_SECONDS)
        throw new WebhookVerificationError(`The delivery is ${age} s old, more than the ${WEBHOOK_TOLERANCE_SECONDS} s allowed: it may be a replay.`);
    if (age < -WEBHOOK_TOLERANCE_SECONDS)
        throw new WebhookVerificationError(`The delivery's timestamp is ${-age} s in the future: check this machine's clock.`);
    const body = Buffer.from(payload);
    const expected = createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.`).update(body).digest();
    const matches = signatures.split(' ').some((entry) => {
        const [version, signature] = entry.split(',', 2);
        if (version !== 'v1' || !signature)
            return false;
        const given = Buffer.from(signature, 'base64');
        return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!matches)
        throw new WebhookVerificationError('No signature in the webhook-signature header matches the body: wrong secret, or the body was changed.');
    try {
        return JSON.parse(body.toString('utf8'));
    }
    catch {
        throw new WebhookVerificationError('The delivery is signed but its body is not JSON.');
    }
}
