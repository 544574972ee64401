import type { FieldError, Problem } from '../sdks/typescript/src/errors.js'

// The problem document's shape is the SDK's (generated from the contract's Problem schema).
export type { FieldError, Problem }

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
}

export function statusTitle(status: number): string {
  return TITLES[status] ?? 'Error'
}

/**
 * The one error type the API throws. A stable snake_case `code` names the condition; the
 * error middleware renders it as problem+json, and the client turns problem+json back into it.
 */
export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly errors: FieldError[]
  readonly headers: Record<string, string>
  readonly extensions: Record<string, unknown>

  constructor(
    status: number,
    code: string,
    detail: string,
    options: { errors?: FieldError[]; headers?: Record<string, string>; extensions?: Record<string, unknown> } = {},
  ) {
    super(detail)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.errors = options.errors ?? []
    this.headers = options.headers ?? {}
    this.extensions = options.extensions ?? {}
  }

  toProblem(instance?: string): Problem {
    const problem: Problem = {
      type: `urn:smm:problem:${this.code}`,
      title: statusTitle(this.status),
      status: this.status,
      detail: this.message,
      ...(instance ? { instance } : {}),
      code: this.code,
      ...this.extensions,
    }
    if (this.errors.length > 0) problem.errors = this.errors
    return problem
  }

  static fromProblem(problem: Problem, headers: Record<string, string> = {}): ApiError {
    const { type: _t, title: _ti, status, detail, instance: _i, code, errors, ...extensions } = problem
    return new ApiError(status, code, detail, { errors: errors ?? [], headers, extensions })
  }
}

export const badRequest = (code: string, detail: string) => new ApiError(400, code, detail)

/** Field error codes that name the whole problem when every error has that one code. */
const PROBLEM_CODES = new Set(['unknown_field', 'queue_empty', 'queue_full'])

export const validationFailed = (errors: FieldError[]) => {
  const only = errors[0]?.code
  const code = only !== undefined && PROBLEM_CODES.has(only) && errors.every((e) => e.code === only) ? only : 'validation_error'
  const fields = errors.map((e) => e.pointer.replace(/^#\//, '') || 'body').join(', ')
  return new ApiError(422, code, `The request has ${errors.length} invalid field${errors.length === 1 ? '' : 's'}: ${fields}.`, { errors })
}

export const invalidToken = (detail: string) =>
  new ApiError(401, 'invalid_token', detail, {
    headers: { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${detail.replace(/"/g, "'")}"` },
  })

/** A 403 for a scope the key lacks (`scope` may list several, space-separated, as RFC 6750 writes them). */
export const insufficientScope = (scope: string, detail = `This API key lacks the "${scope}" scope.`, errors: FieldError[] = []) =>
  new ApiError(403, 'insufficient_scope', detail, {
    headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"` },
    extensions: { required_scope: scope },
    errors,
  })

export const notFound = (what: string, id?: string) =>
  new ApiError(404, 'not_found', id ? `No ${what} with id ${id}.` : `No such ${what}.`)

export const conflict = (code: string, detail: string, headers: Record<string, string> = {}) =>
  new ApiError(409, code, detail, { headers })

export const httpsRequired = () =>
  new ApiError(403, 'https_required', 'This API is served over HTTPS only. Plain HTTP requests are rejected, never redirected: use https:// and treat any key you sent in clear as leaked.')

export const internalError = () =>
  new ApiError(500, 'internal_error', 'The server met an unexpected error. It has been logged; try again later.')

/** A 422 for one field that passed its schema but not a rule that needs context (the clock, the store). */
export const invalidField = (pointer: string, detail: string, code = 'invalid_value') => validationFailed([{ pointer, code, detail }])
