import type * as v from 'valibot'
import type { UploadBody } from '../../sdks/typescript/src/index.js'
import type { ClientOperationId, RouteDef, Routes } from '../contract.js'

type In<S> = S extends v.GenericSchema ? v.InferInput<S> : never
type Out<S> = S extends v.GenericSchema ? v.InferOutput<S> : void

/** Query values end up as text in the URL, so a plain string field also takes a number. */
type QueryInput<Q> = { [K in keyof Q]: string extends NonNullable<Q[K]> ? Q[K] | number : Q[K] }

// A part is optional when every field in it is (`{}` is then a valid value for it).
type Part<Name extends string, T> = {} extends T ? { [K in Name]?: T } : { [K in Name]: T }

/** What a call to one route takes: its path parameters, query and body, each where it has one. */
export type RouteInput<R extends RouteDef> = (R['params'] extends v.GenericSchema ? Part<'params', In<R['params']>> : {}) &
  (R['query'] extends v.GenericSchema ? Part<'query', QueryInput<In<R['query']>>> : {}) &
  (R['body'] extends v.GenericSchema ? Part<'body', In<R['body']>> : {}) &
  // A route that takes bytes (an upload) is given them as a stream opened anew for each attempt.
  (R['rawBody'] extends object ? { upload: UploadBody } : {})

type Alternatives<R extends RouteDef> = R['alternatives'] extends Record<number, { response: infer S }> ? Out<S> : never

/** What a call to one route resolves to: its response body (any of its success answers), or nothing for a 204. */
export type RouteOutput<R extends RouteDef> = Out<R['response']> | Alternatives<R>

/** Per-call options. */
export interface CallOptions {
  /** The Idempotency-Key of a POST; one is generated when absent. Reused by the automatic retry. */
  idempotencyKey?: string
  /** Aborts the request (and any wait before its retry). */
  signal?: AbortSignal
  /** Extra request headers, e.g. `{ 'if-match': etag }` for a safe update. */
  headers?: Record<string, string>
  /** Told the headers of the successful response (its `etag`, say); names are lower-case. */
  onHeaders?: (headers: Record<string, string>) => void
}

/** The arguments of one route's method: its input (optional when nothing in it is required), then options. */
export type CallArgs<R extends RouteDef> = {} extends RouteInput<R>
  ? [input?: RouteInput<R>, options?: CallOptions]
  : [input: RouteInput<R>, options?: CallOptions]

/** One typed method per operation of the contract, named by its operation id. */
export type RouteMethods = {
  [K in ClientOperationId]: (...args: CallArgs<Routes[K]>) => Promise<RouteOutput<Routes[K]>>
}

/** The operations that answer a page of a list (`{data, has_more, next_cursor}`). */
export type ListOperationId = {
  [K in ClientOperationId]: RouteOutput<Routes[K]> extends { data: unknown[]; next_cursor: string | null } ? K : never
}[ClientOperationId]

/** The item type of a list operation. */
export type ListItem<K extends ListOperationId> = RouteOutput<Routes[K]> extends { data: (infer T)[] } ? T : never
