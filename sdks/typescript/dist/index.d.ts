/**
 * The TypeScript SDK of smm: `import { SmmClient, verifyWebhook } from '@smm/sdk'`. Node's own
 * modules only.
 */
export { SmmClient, methodFor, type PostCreateParams, type PostListParams, type PostScheduleParams, type PostUpdateParams } from './client.js';
export { ApiCore, SDK_VERSION, type Body, type Page, type Params, type Query, type RequestInput, type RequestOptions, type Result, type RetryEvent, type SmmClientOptions, type UploadBody, } from './core.js';
export { ConnectionError, RateLimitError, SmmApiError, WebhookVerificationError, type ConnectionErrorCode, type FieldError, type Problem, } from './errors.js';
export * from './generated.js';
export { createAgent, isCertificateError, normalizeFingerprint, probeCertificate, type CertificateProbe, type TlsTrust } from './tls.js';
export { verifyWebhook, WEBHOOK_TOLERANCE_SECONDS, type WebhookEvent, type WebhookHeaders } from './webhooks.js';
