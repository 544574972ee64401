/**
 * The smm package's programmatic API: the typed client of the daemon's HTTPS API.
 * `import { SmmClient } from 'smm'`.
 */
export { SmmClient, type RetryEvent, type SmmClientOptions } from './client/smm-client.js'
export { ConnectionError, type ConnectionErrorCode } from "./client/errors.js"
export { normalizeFingerprint, probeCertificate, type CertificateProbe, type TlsTrust } from './client/tls.js'
export type { CallOptions, ListItem, ListOperationId, RouteInput, RouteMethods, RouteOutput } from './client/types.js'
export { ApiError, type FieldError, type Problem } from './errors.js'
export { routes, type OperationId, type Routes } from './contract.js'
export type { ApiKey, ApiKeyCreate, ApiKeyWithSecret } from './api/api-keys.js'
export type { User } from './api/users.js'
