/**
 * A request that got no HTTP response. Nothing was sent on a certificate error: the key never
 * leaves the machine unless the server proved who it is.
 */
export class ConnectionError extends Error {
    code;
    constructor(code, message, options = {}) {
        super(message, options);
        this.name = 'ConnectionError';
        this.code = code;
    }
}
/** An HTTP error answer of the API, carrying its problem document. */
export class SmmApiError extends Error {
    status;
    /** A stable snake_case name of the condition (`validation_error`, `version_mismatch`, …). */
    code;
    detail;
    /** Every invalid field, for a 422. */
    errors;
    requestId;
    problem;
    /** The response's headers, names in lower case. */
    headers;
    constructor(problem, headers = {}) {
        super(problem.detail);
        this.name = 'SmmApiError';
        this.status = problem.status;
        this.code = problem.code;
        this.detail = problem.detail;
        this.errors = problem.errors ?? [];
        this.requestId = headers['x-request-id'] ?? problem.instance;
        this.problem = problem;
        this.headers = headers;
    }
}
/** A 429: the caller made too many requests; `retryAfter` says how many seconds to wait. */
export class RateLimitError extends SmmApiError {
    retryAfter;
    constructor(problem, headers, retryAfter) {
        super(problem, headers);
        this.name = 'RateLimitError';
        this.retryAfter = retryAfter;
    }
}
/** Why a webhook delivery was not accepted by `verifyWebhook`. */
export class WebhookVerificationError extends Error {
    constructor(message) {
        super(message);
        this.name = 'WebhookVerificationError';
    }
}
