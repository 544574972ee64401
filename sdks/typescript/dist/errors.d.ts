import type { Problem as GeneratedProblem } from './generated.js';
/** Why a request never got an HTTP answer. */
export type ConnectionErrorCode = 
/** The server's certificate is not signed by a trusted authority (the daemon's self-signed one, say). */
'certificate_untrusted'
/** The server's certificate is not the one whose fingerprint was pinned. */
 | 'certificate_mismatch'
/** Nothing answered, the connection broke, or the name did not resolve. */
 | 'connection_failed'
/** The server took longer than the client's timeout. */
 | 'timeout';
/**
 * A request that got no HTTP response. Nothing was sent on a certificate error: the key never
 * leaves the machine unless the server proved who it is.
 */
export declare class ConnectionError extends Error {
    readonly code: ConnectionErrorCode;
    constructor(code: ConnectionErrorCode, message: string, options?: {
        cause?: unknown;
    });
}
/** The RFC 9457 problem document every error response of the API carries (`instance` is the request's id). */
export type Problem = GeneratedProblem & {
    [extension: string]: unknown;
};
/** One invalid field of a request, addressed by a JSON pointer in `#/a/0/b` form. */
export type FieldError = NonNullable<GeneratedProblem['errors']>[number];
/** An HTTP error answer of the API, carrying its problem document. */
export declare class SmmApiError extends Error {
    readonly status: number;
    /** A stable snake_case name of the condition (`validation_error`, `version_mismatch`, …). */
    readonly code: string;
    readonly detail: string;
    /** Every invalid field, for a 422. */
    readonly errors: FieldError[];
    readonly requestId: string | undefined;
    readonly problem: Problem;
    /** The response's headers, names in lower case. */
    readonly headers: Record<string, string>;
    constructor(problem: Problem, headers?: Record<string, string>);
}
/** A 429: the caller made too many requests; `retryAfter` says how many seconds to wait. */
export declare class RateLimitError extends SmmApiError {
    readonly retryAfter: number | undefined;
    constructor(problem: Problem, headers: Record<string, string>, retryAfter: number | undefined);
}
/** Why a webhook delivery was not accepted by `verifyWebhook`. */
export declare class WebhookVerificationError extends Error {
    constructor(message: string);
}
