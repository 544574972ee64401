import type * as v from 'valibot'
import type { Scope } from './common.js'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS'

/** A header an operation reads or answers with, for the OpenAPI document. */
export interface HeaderDoc {
  description: string
  required?: boolean
  type?: 'string' | 'integer'
}

/**
 * One endpoint of the API, declared once: the daemon binds a handler to it and validates with
 * its schemas, the OpenAPI document is generated from it, and the client takes its types from it.
 */
export interface RouteDef {
  method: HttpMethod
  /** OpenAPI-style path: `/v1/posts/{id}`. */
  path: string
  summary: string
  tag: string
  /** The scope a key needs; absent for endpoints open to anyone. */
  scope?: Scope
  params?: v.ObjectSchema<v.ObjectEntries, undefined>
  query?: v.GenericSchema
  body?: v.GenericSchema
  /**
   * The body is not JSON but bytes of these types, read by the handler as a stream (an upload):
   * the JSON body reader leaves such a request alone.
   */
  rawBody?: { types: string[]; description: string }
  /** The success status, and its body's schema (none for 204). */
  status: number
  response?: v.GenericSchema
  /** Other success answers, by status, when the operation has more than one (a 202 beside a 201). */
  alternatives?: Record<number, { description: string; response: v.GenericSchema }>
  /** Content types other than JSON that the success response may take (feeds, say). */
  produces?: string[]
  /** How long caches may keep the success response (a public feed); every other answer is `no-store`. */
  cacheControl?: string
  /** What the operation does, beyond its summary (the document adds who may call it). */
  description?: string
  /** The success response carries an ETag (the resource's version). */
  etag?: boolean
  /** A 201 that made several resources names no one of them: no `Location` header. */
  noLocation?: boolean
  /** The request may carry If-Match; a stale one is 412 `precondition_failed`. */
  ifMatch?: boolean
  /**
   * Error statuses particular to this route, beyond the ones every route shares, and when. The
   * OpenAPI document lists exactly these and the shared ones, so a new status is declared here.
   */
  problems?: Record<number, string>
  /** Request headers the operation reads, beyond the ones every route shares (a protocol's own). */
  requestHeaders?: Record<string, HeaderDoc>
  /** Headers its success answer carries, beyond the ones every route shares. */
  responseHeaders?: Record<string, HeaderDoc>
  /**
   * The operation is part of a protocol with clients of its own (`tus`: tus 1.0 resumable
   * uploads): the document marks it `x-smm-protocol`, and the SDKs leave it to those clients.
   */
  protocol?: 'tus'
  /**
   * Response fields shown in this one response only (a key's or a webhook's secret): never
   * stored for an idempotent replay, which answers the same resource without them.
   */
  shownOnce?: readonly string[]
}

/** Declares a route, keeping its literal types for the handler and the client. */
export function route<const R extends RouteDef>(def: R): R {
  return def
}
