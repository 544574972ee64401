/**
 * The smm package's programmatic API: the CLI's client of the daemon's HTTPS API, one method per
 * operation id (`import { SmmClient } from 'smm'`). A program that only calls the API wants the
 * SDK instead, which pulls none of the daemon's dependencies: `sdks/typescript` (`@smm/sdk`).
 */
export { SmmClient, type RetryEvent, type SmmClientOptions } from './client/smm-client.js'
export { ConnectionError, type ConnectionErrorCode } from "./client/errors.js"
export { normalizeFingerprint, probeCertificate, type CertificateProbe, type TlsTrust } from './client/tls.js'
export type { CallOptions, ListItem, ListOperationId, RouteInput, RouteMethods, RouteOutput } from './client/types.js'
export { ApiError, type FieldError, type Problem } from './errors.js'
export { routes, type OperationId, type Routes } from './contract.js'
export type { ApiKey, ApiKeyCreate, ApiKeyWithSecret } from './api/api-keys.js'
export type { User } from './api/users.js'
