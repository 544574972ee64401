/**
 * The TypeScript SDK of smm: `import { SmmClient, verifyWebhook } from '@smm/sdk'`. Node's own
 * modules only.
 */
export { SmmClient, methodFor } from './client.js';
export { ApiCore, SDK_VERSION, } from './core.js';
export { ConnectionError, RateLimitError, SmmApiError, WebhookVerificationError, } from './errors.js';
export * from './generated.js';
export { createAgent, isCertificateError, normalizeFingerprint, probeCertificate } from './tls.js';
export { verifyWebhook, WEBHOOK_TOLERANCE_SECONDS } from './webhooks.js';
