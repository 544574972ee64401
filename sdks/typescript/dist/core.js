import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { ConnectionError, RateLimitError, SmmApiError } from './errors.js';
import { operations } from './generated.js';
import { createAgent, isCertificateError } from './tls.js';
export const SDK_VERSION = '0.1.0';
const defaultSleep = (ms, signal) => new Promise((resolve, reject) => {
    if (signal?.aborted)
        return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
});
/** Retry-After in seconds: delta-seconds or an HTTP date. */
function retryAfterSeconds(value) {
    if (!value)
        return undefined;
    if (/^\d+$/.test(value.trim()))
        return Number(value);
    const date = Date.parse(value);
    return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}
function parseJson(text) {
    try {
        return JSON.parse(text);
    }
    catch {
        return undefined; // the caller reports a body that is not what the daemon sends
    }
}
function isProblem(value) {
    return typeof value === 'object' && value !== null && typeof value.code === 'string' && typeof value.status === 'number';
}
/** The base URL as the API description writes it: https, with `/v1` when given no path. */
function apiBase(input) {
    if (!input)
        throw new TypeError('baseUrl: missing; pass it, or set SMM_URL (https://host:8443/v1)');
    let url;
    try {
        url = new URL(input);
    }
    catch {
        throw new TypeError(`baseUrl: "${input}" is not a URL (https://host:8443/v1)`);
    }
    if (url.protocol !== 'https:') {
        throw new TypeError(`baseUrl: ${input} must start with https:// (the daemon serves HTTPS only, and an API key sent over http:// travels in clear)`);
    }
    const path = url.pathname.replace(/\/+$/, '');
    url.pathname = path === '' ? '/v1' : path;
    url.search = '';
    url.hash = '';
    return url;
}
/**
 * What every call goes through: the base URL, the key, TLS trust, retries and errors. `SmmClient`
 * adds the resources on top; any operation is reachable by its id with `request(id, input)`.
 */
export class ApiCore {
    /** The API's base, with `/v1`. */
    baseUrl;
    #root;
    #apiKey;
    #agent;
    #options;
    constructor(options = {}) {
        const env = options.env ?? process.env;
        const base = apiBase(options.baseUrl ?? env.SMM_URL);
        this.baseUrl = base.href.replace(/\/$/, '');
        // Paths in the operation table are absolute (`/v1/posts`, `/healthz`): requests go to the base's parent.
        this.#root = this.baseUrl.replace(/\/v1$/, '');
        this.#apiKey = options.apiKey ?? env.SMM_API_KEY;
        const caFile = options.caFile ?? (options.ca || options.fingerprint ? undefined : env.SMM_CA_FILE);
        let ca = options.ca;
        if (caFile) {
            try {
                ca = readFileSync(caFile);
            }
            catch (error) {
                throw new TypeError(`caFile: cannot read ${caFile}: ${error.message}`);
            }
        }
        this.#agent = createAgent({ ca, fingerprint: options.fingerprint }, options.timeoutMs ?? 30_000);
        const maxRetries = options.maxRetries ?? 2;
        if (!Number.isInteger(maxRetries) || maxRetries < 0)
            throw new TypeError(`maxRetries: ${maxRetries} must be a whole number >= 0`);
        this.#options = options;
    }
    /** Calls one operation by its id: what every resource method does. */
    async request(operationId, input = {}, options = {}) {
        const { method, path: template } = operations[operationId];
        const path = template.replace(/\{(\w+)\}/g, (_, name) => {
            const value = input.params?.[name];
            if (value === undefined || value === '')
                throw new TypeError(`${operationId}: params.${name} is required`);
            return encodeURIComponent(String(value));
        });
        const url = new URL(this.#root + path);
        for (const [name, value] of Object.entries(input.query ?? {})) {
            for (const item of Array.isArray(value) ? value : [value])
                if (item !== undefined && item !== null)
                    url.searchParams.append(name, String(item));
        }
        const headers = {
            ...options.headers,
            accept: 'application/json, application/problem+json',
            'user-agent': this.#options.userAgent ?? `smm-sdk-typescript/${SDK_VERSION} node/${process.versions.node}`,
        };
        if (this.#apiKey)
            headers.authorization = `Bearer ${this.#apiKey}`;
        if (options.ifMatch)
            headers['if-match'] = options.ifMatch;
        // One key for the call, not per attempt: the retry must be recognised as the same request.
        if (method === 'POST')
            headers['idempotency-key'] = options.idempotencyKey ?? randomUUID();
        const payload = input.upload ?? (input.body === undefined ? undefined : JSON.stringify(input.body));
        if (input.upload) {
            headers['content-type'] = input.upload.contentType;
            headers['content-length'] = String(input.upload.length);
        }
        else if (payload !== undefined)
            headers['content-type'] = 'application/json';
        const maxRetries = this.#options.maxRetries ?? 2;
        for (let attempt = 1;; attempt++) {
            let error;
            try {
                const res = await this.#send(method, url, headers, payload, options.signal);
                if (res.status < 400) {
                    options.onHeaders?.(res.headers);
                    return this.#success(res);
                }
                error = this.#failure(res);
            }
            catch (thrown) {
                if (!(thrown instanceof ConnectionError))
                    throw thrown;
                error = thrown;
            }
            const delayMs = attempt > maxRetries ? undefined : this.#retryDelay(error, attempt);
            if (delayMs === undefined)
                throw error;
            this.#options.onRetry?.({ operationId, attempt, delayMs, error });
            await (this.#options.sleep ?? defaultSleep)(delayMs, options.signal);
        }
    }
    /** Every item of a list operation, fetching page after page as the loop asks for more. */
    async *paginate(operationId, input = {}, options = {}) {
        let cursor = input.query?.cursor ?? null;
        do {
            const page = (await this.request(operationId, { ...input, query: { ...input.query, ...(cursor ? { cursor } : {}) } }, options));
            yield* page.data;
            cursor = page.has_more ? page.next_cursor : null;
        } while (cursor);
    }
    /** Closes idle kept-alive connections (they never hold the process open anyway). */
    close() {
        this.#agent.destroy();
    }
    /** How long to wait before retrying after this error, or undefined not to retry. */
    #retryDelay(error, attempt) {
        const backoff = () => Math.round(Math.min(8_000, 500 * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2));
        if (error instanceof ConnectionError) {
            const retryable = error.code === 'connection_failed' || error.code === 'timeout';
            return retryable && this.#options.shouldRetry?.(error, attempt) !== false ? backoff() : undefined;
        }
        const retryable = error.status === 429 || error.status >= 500 || error.code === 'idempotency_key_in_use';
        if (!retryable || this.#options.shouldRetry?.(error, attempt) === false)
            return undefined;
        const wait = retryAfterSeconds(error.headers['retry-after']);
        if (wait === undefined)
            return backoff();
        return wait <= (this.#options.maxRetryAfterSeconds ?? 60) ? wait * 1000 : undefined;
    }
    #success(res) {
        if (res.status === 204 || res.text === '')
            return undefined;
        // A media file is bytes, not text.
        if (/^(image|video)\//.test(res.headers['content-type'] ?? ''))
            return res.bytes;
        if (!/json/.test(res.headers['content-type'] ?? ''))
            return res.text;
        const value = parseJson(res.text);
        if (value === undefined)
            throw this.#unexpected(res, 'with a body that is not JSON.');
        return value;
    }
    #failure(res) {
        const problem = /json/.test(res.headers['content-type'] ?? '') ? parseJson(res.text) : undefined;
        if (!isProblem(problem))
            return this.#unexpected(res, 'without a problem document: is it an smm daemon?');
        if (problem.status === 429)
            return new RateLimitError(problem, res.headers, retryAfterSeconds(res.headers['retry-after']));
        return new SmmApiError(problem, res.headers);
    }
    #unexpected(res, why) {
        const detail = `${this.baseUrl} answered HTTP ${res.status} ${why}`;
        return new SmmApiError({ type: 'about:blank', title: 'Unexpected response', status: res.status, detail, code: 'unexpected_response' }, res.headers);
    }
    #send(method, url, headers, payload, signal) {
        const timeoutMs = this.#options.timeoutMs ?? 30_000;
        return new Promise((resolve, reject) => {
            const req = https.request(url, { method, headers, agent: this.#agent, signal }, (res) => {
                const chunks = [];
                res.on('data', (chunk) => chunks.push(chunk));
                res.on('error', (error) => reject(this.#connectionError(error)));
                res.on('end', () => {
                    const flat = {};
                    for (const [name, value] of Object.entries(res.headers))
                        if (value !== undefined)
                            flat[name] = Array.isArray(value) ? value.join(', ') : value;
                    const bytes = Buffer.concat(chunks);
                    resolve({ status: res.statusCode ?? 0, headers: flat, text: bytes.toString('utf8'), bytes });
                });
            });
            req.setTimeout(timeoutMs, () => req.destroy(new ConnectionError('timeout', `${this.baseUrl} did not answer within ${timeoutMs / 1000} s.`)));
            req.on('error', (error) => reject(this.#connectionError(error)));
            if (payload === undefined || typeof payload === 'string')
                return void req.end(payload);
            const bytes = payload.open();
            if (Buffer.isBuffer(bytes)) {
                payload.onProgress?.(bytes.length, payload.length);
                return void req.end(bytes);
            }
            let sent = 0;
            bytes.on('data', (chunk) => payload.onProgress?.((sent += chunk.length), payload.length));
            // The daemon may answer (a refusal) before it read everything: then the rest is not sent.
            bytes.on('error', (error) => req.destroy(error));
            bytes.pipe(req);
        });
    }
    #connectionError(error) {
        if (error instanceof ConnectionError || error.name === 'AbortError')
            return error;
        if (isCertificateError(error.code)) {
            return new ConnectionError('certificate_untrusted', `The TLS certificate of ${this.baseUrl} is not trusted (${error.code}). Trust the daemon's certificate file (ca, caFile or SMM_CA_FILE) or pin its SHA-256 fingerprint. Nothing was sent.`, { cause: error });
        }
        return new ConnectionError('connection_failed', `Cannot reach ${this.baseUrl}: ${error.message}`, { cause: error });
    }
}
