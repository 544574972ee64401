import type { Readable } from 'node:stream';
import { ConnectionError, SmmApiError } from './errors.js';
import { type OperationId, type Operations } from './generated.js';
import { type TlsTrust } from './tls.js';
export declare const SDK_VERSION = "0.1.0";
type Get<T, K extends string> = T extends {
    [P in K]: infer V;
} ? V : undefined;
/** Query values travel as text, so a field the API reads from a string also takes a number. */
type Loosen<Q> = {
    [K in keyof Q]: string extends NonNullable<Q[K]> ? Q[K] | number : Q[K];
};
export type Params<K extends OperationId> = Get<Operations[K], 'params'>;
export type Query<K extends OperationId> = Loosen<Get<Operations[K], 'query'>>;
export type Body<K extends OperationId> = Get<Operations[K], 'body'>;
export type Result<K extends OperationId> = Operations[K]['response'];
/** What one call sends: its path parameters, query and body, as the operation declares them. */
export interface RequestInput {
    params?: Record<string, string | number>;
    query?: Record<string, unknown>;
    body?: unknown;
    /** Bytes to send as they are (an upload) instead of a JSON body. */
    upload?: UploadBody;
}
/**
 * An upload's bytes: opened anew for every attempt (a retry sends them again from the start),
 * with their type and length.
 */
export interface UploadBody {
    open: () => Readable | Buffer;
    contentType: string;
    length: number;
    /** Told as the bytes leave: how many were sent of `length`. */
    onProgress?: (sent: number, total: number) => void;
}
/** Per-call options, the last argument of every method. */
export interface RequestOptions {
    /** The Idempotency-Key of a POST: generated when absent, and the same on every retry. */
    idempotencyKey?: string;
    /** The ETag of the version read: the update is refused (412, `version_mismatch`) if it changed since. */
    ifMatch?: string;
    /** Aborts the request and any wait before a retry. */
    signal?: AbortSignal;
    /** Extra request headers. */
    headers?: Record<string, string>;
    /** Told the headers of the successful response (names in lower case). */
    onHeaders?: (headers: Record<string, string>) => void;
}
/** Told before each automatic retry, with the reason and how long it waits. */
export interface RetryEvent {
    operationId: OperationId;
    /** 1 for the first retry. */
    attempt: number;
    delayMs: number;
    error: SmmApiError | ConnectionError;
}
export interface SmmClientOptions extends TlsTrust {
    /** The API's base URL, `https://host:8443/v1` (one without a path gets `/v1`). Default: `SMM_URL`. */
    baseUrl?: string;
    /** An API key (`smm_…`). Default: `SMM_API_KEY`. */
    apiKey?: string;
    /** A PEM file of the certificate(s) to trust (the daemon's tls-cert.pem). Default: `SMM_CA_FILE`. */
    caFile?: string;
    /** Retries after a 429, a 5xx or a connection failure; default 2, 0 turns them off. */
    maxRetries?: number;
    /** A Retry-After longer than this many seconds is not waited for: the error is thrown at once. Default 60. */
    maxRetryAfterSeconds?: number;
    /** Per attempt, in milliseconds; default 30 000. */
    timeoutMs?: number;
    /**
     * Whether an error the client would retry is retried (default: always, up to `maxRetries`);
     * a caller may be more careful, e.g. retry only when the server said when.
     */
    shouldRetry?: (error: SmmApiError | ConnectionError, attempt: number) => boolean;
    /** Where `SMM_URL`, `SMM_API_KEY` and `SMM_CA_FILE` are read from; default `process.env`. */
    env?: Record<string, string | undefined>;
    /** Told before each retry's wait. */
    onRetry?: (event: RetryEvent) => void;
    /** How to wait before a retry; tests pass one that moves their clock instead. */
    sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
    userAgent?: string;
}
/** One page of a list: its items and the cursor of the next (null on the last). */
export interface Page<T> {
    data: T[];
    has_more: boolean;
    next_cursor: string | null;
}
/**
 * What every call goes through: the base URL, the key, TLS trust, retries and errors. `SmmClient`
 * adds the resources on top; any operation is reachable by its id with `request(id, input)`.
 */
export declare class ApiCore {
    #private;
    /** The API's base, with `/v1`. */
    readonly baseUrl: string;
    constructor(options?: SmmClientOptions);
    /** Calls one operation by its id: what every resource method does. */
    request<K extends OperationId>(operationId: K, input?: RequestInput, options?: RequestOptions): Promise<Result<K>>;
    /** Every item of a list operation, fetching page after page as the loop asks for more. */
    paginate<T>(operationId: OperationId, input?: RequestInput, options?: RequestOptions): AsyncGenerator<T>;
    /** Closes idle kept-alive connections (they never hold the process open anyway). */
    close(): void;
}
export {};
