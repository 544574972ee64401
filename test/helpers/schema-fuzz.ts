import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import fc from 'fast-check'
import type { ResponseCheck, TestResponse } from './http.js'

/**
 * A schema fuzzer in the manner of Schemathesis, driven by fast-check: it reads the daemon's
 * OpenAPI document and, for every operation, makes requests from the document's own schemas —
 * positive ones (parameters and body as the document allows them) and negative ones (one part
 * the document refuses: a wrong type, a value past a bound, a text its pattern or format refuses,
 * a field it does not know, a required one left out, a content type it does not take). Each
 * request is then judged by the document itself (Ajv), not by how it was made, and its answer
 * must be no 5xx, be an answer the document declares (status, headers, body schema), and, for a
 * request the document refuses, be a refusal (4xx). Ids in paths and bodies are drawn from the
 * resources the caller made (`known`) as often as made up, so requests reach past 404.
 */

type Schema = Record<string, any>
interface Parameter {
  name: string
  in: 'path' | 'query' | 'header'
  required?: boolean
  schema: Schema
}
interface Operation {
  parameters?: Parameter[]
  requestBody?: { required?: boolean; content: Record<string, { schema?: Schema }> }
  security?: unknown[]
}
export interface FuzzDoc {
  paths: Record<string, Record<string, Operation>>
}

/** One request as made: its parts by where they go. */
interface Request {
  params: Record<string, string>
  query: Record<string, string>
  headers: Record<string, string>
  contentType?: string
  /** A JSON value, or bytes sent as they are. */
  body?: unknown
  hasBody: boolean
}

export interface FuzzOptions {
  /** Requests of each kind (positive, negative) per operation. */
  runs: number
  seed: number
  /**
   * Values to use, beside made-up ones, for a path parameter (by the path segment before it, as
   * `/posts/`) or a body field, query parameter or header (by name): a list, or an arbitrary of
   * fast-check's.
   */
  known: Record<string, unknown[] | fc.Arbitrary<unknown>>
  send(method: string, path: string, options: { headers: Record<string, string>; raw?: string | Buffer; key: boolean }): Promise<TestResponse>
  check: ResponseCheck
  /** Operations (`METHOD /path`) to leave out. */
  skip?: string[]
}

export interface FuzzReport {
  requests: number
  positive: number
  negative: number
  byStatus: Record<number, number>
  /** The statuses each operation answered, `METHOD /path` → status → how many. */
  byOperation: Record<string, Record<number, number>>
  /**
   * What the server refused (422) of requests the document allows, by operation and field, with
   * how often: where the document may be looser than the server (or the refusal is one no
   * schema can state, such as an id that names nothing).
   */
  allowedRefused: Record<string, { count: number; example: string }>
  failures: string[]
}

const MAX_STRING = 40

/** An optional part: left out as often as given (1 in `freq`; fast-check's default leaves it out 1 time in 5). */
const optional = <T>(arbitrary: fc.Arbitrary<T>, required: boolean): fc.Arbitrary<T | undefined> => (required ? arbitrary : fc.option(arbitrary, { nil: undefined, freq: 2 }))
/** A parameter's text as the value its schema describes: a number or a boolean where it says so. */
function typed(schema: Schema, text: string): unknown {
  if ((schema.type === 'integer' || schema.type === 'number') && /^-?\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i.test(text)) return Number(text)
  if (schema.type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true'
  return text
}

/** The object without the keys left out. */
const present = <T extends Record<string, unknown>>(object: T): T => Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T
const HEADER_SAFE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/

export function fuzz(doc: FuzzDoc, options: FuzzOptions): Promise<FuzzReport> {
  const ajv = new Ajv2020({ strict: false, allErrors: false })
  addFormats.default(ajv)
  const compiled = new Map<Schema, ValidateFunction>()
  const accepts = (schema: Schema | undefined, value: unknown) => {
    if (!schema) return true
    let validate = compiled.get(schema)
    if (!validate) compiled.set(schema, (validate = ajv.compile(schema)))
    return validate(value) as boolean
  }

  /** Values the document allows for `schema` (mostly: the judge is Ajv, not this). */
  function valid(schema: Schema, name?: string, depth = 0): fc.Arbitrary<unknown> {
    const made = made_(schema, depth)
    return withKnown(made, name ? options.known[name] : undefined)
  }
  function withKnown<T>(made: fc.Arbitrary<T>, known: unknown[] | fc.Arbitrary<unknown> | undefined): fc.Arbitrary<T> {
    if (!known || (Array.isArray(known) && known.length === 0)) return made
    const arbitrary = (Array.isArray(known) ? fc.constantFrom(...known) : known) as fc.Arbitrary<T>
    return fc.oneof({ weight: 3, arbitrary }, { weight: 1, arbitrary: made })
  }
  function made_(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    if ('const' in schema) return fc.constant(schema.const)
    if (schema.enum) return fc.constantFrom(...schema.enum)
    if (schema.anyOf) {
      // Beside a type, an anyOf narrows it (`format: date-time` or `date`).
      const { anyOf, ...rest } = schema
      return fc.oneof(...(anyOf as Schema[]).map((s) => made_(schema.type ? { ...rest, ...s } : s, depth)))
    }
    const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ['string', 'integer', 'boolean']
    return fc.oneof(...types.map((type) => ofType(type, schema, depth)))
  }
  function ofType(type: string, schema: Schema, depth: number): fc.Arbitrary<unknown> {
    switch (type) {
      case 'null':
        return fc.constant(null)
      case 'boolean':
        return fc.boolean()
      case 'integer':
        return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 })
      case 'number':
        return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true })
      case 'array': {
        const min = schema.minItems ?? 0
        const max = Math.min(schema.maxItems ?? min + 3, min + 3)
        const item = valid(schema.items ?? {}, undefined, depth + 1)
        return schema.uniqueItems ? fc.uniqueArray(item, { minLength: min, maxLength: max, selector: (v) => JSON.stringify(v) }) : fc.array(item, { minLength: min, maxLength: max })
      }
      case 'object': {
        const properties: Record<string, Schema> = schema.properties ?? {}
        if (depth > 4) return fc.constant({})
        const required = new Set<string>(schema.required ?? [])
        const model = Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, optional(valid(s, key, depth + 1), required.has(key))]))
        return fc.record(model, { noNullPrototype: true }).map(present)
      }
      default:
        return text(schema)
    }
  }
  function text(schema: Schema): fc.Arbitrary<string> {
    const minLength = schema.minLength ?? 0
    const maxLength = Math.min(schema.maxLength ?? MAX_STRING, Math.max(minLength, MAX_STRING))
    const date = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
    if (schema.format === 'date-time' && !schema.pattern) {
      return fc.tuple(date, fc.integer({ min: -12, max: 14 })).map(([d, hours]) => {
        if (hours === 0) return d.toISOString()
        const local = new Date(d.getTime() + hours * 3_600_000).toISOString().slice(0, 19)
        return `${local}${hours < 0 ? '-' : '+'}${String(Math.abs(hours)).padStart(2, '0')}:00`
      })
    }
    if (schema.format === 'date' && !schema.pattern) return date.map((d) => d.toISOString().slice(0, 10))
    if (schema.format === 'uri' && !schema.pattern) return fc.webUrl({ validSchemes: ['https', 'http'] }).filter((u) => u.length <= maxLength)
    const texts = fc.oneof(
      fc.string({ minLength, maxLength }),
      fc.string({ minLength, maxLength, unit: 'grapheme' }),
      fc.string({ minLength, maxLength, unit: 'binary' }),
    )
    if (!schema.pattern) return texts
    const pattern = new RegExp(schema.pattern, 'u')
    const fits = (s: string) => pattern.test(s) && s.length >= minLength && s.length <= maxLength
    // fast-check makes texts from a pattern without lookarounds; with them, from the pattern
    // without them, kept where the whole pattern matches. Beside those, plain texts that happen
    // to match (a negated class alone would give texts of rare characters only).
    const bare = schema.pattern.replace(/\(\?<?[=!][^()]*\)/g, '')
    const matching = fc.stringMatching(new RegExp(bare)).filter(fits)
    return fc.tuple(texts, matching).map(([text, match]) => (fits(text) ? text : match))
  }

  /** Values the document may refuse for `schema`: wrong types and values past its bounds (Ajv judges). */
  function invalid(schema: Schema, asText: boolean): fc.Arbitrary<unknown> {
    const texts: fc.Arbitrary<string>[] = [
      fc.string({ maxLength: 12 }),
      fc.string({ maxLength: 12, unit: 'binary' }),
      fc.constantFrom('', ' ', '-1', '0', '1e308', '9007199254740993', 'null', 'true', '2026-02-30T25:61:00Z', '\u0000', 'x\u001b[2J', '\u202e', 'a'.repeat(300)),
    ]
    // Just past each bound the schema states, the likeliest to be misstated: as often as all the rest.
    const bounds: fc.Arbitrary<unknown>[] = []
    if (schema.maxLength !== undefined) bounds.push(fc.constant('x'.repeat(schema.maxLength + 1)))
    if (schema.minLength) bounds.push(fc.constant('x'.repeat(schema.minLength - 1)))
    if (schema.format === 'date-time') bounds.push(fc.constantFrom('2026-12-01 09:00', '2026-12-01T09:00', '2026-12-01'))
    const others: fc.Arbitrary<unknown>[] = asText
      ? []
      : [fc.constantFrom(null, true, false, 0, -1, 0.5, 1e308, -1e308, 2 ** 53 + 2, [], {}, [null], { unknown: 1 }), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })]
    if (!asText) {
      if (schema.minimum !== undefined) bounds.push(fc.constant(schema.minimum - 1))
      if (schema.maximum !== undefined) bounds.push(fc.constant(schema.maximum + 1))
      if (schema.maxItems !== undefined && schema.items) bounds.push(valid(schema.items).map((item) => Array.from({ length: schema.maxItems + 1 }, () => item)))
      if (schema.minItems) bounds.push(fc.constant([]))
    }
    const rest = fc.oneof(...texts, ...others)
    return bounds.length ? fc.oneof(rest, fc.oneof(...bounds)) : rest
  }

  /** Every place in a body a value can go, by its path, with its schema (nested objects and the first item of arrays). */
  function sites(schema: Schema, path: (string | number)[] = [], depth = 0): { path: (string | number)[]; schema: Schema }[] {
    if (depth > 4) return []
    const found: { path: (string | number)[]; schema: Schema }[] = []
    const variants: Schema[] = [schema, ...((schema.anyOf ?? []) as Schema[])]
    for (const variant of variants) {
      for (const [key, s] of Object.entries<Schema>(variant.properties ?? {})) {
        found.push({ path: [...path, key], schema: s }, ...sites(s, [...path, key], depth + 1))
      }
      if (variant.items) found.push({ path: [...path, 0], schema: variant.items }, ...sites(variant.items, [...path, 0], depth + 1))
    }
    return found
  }

  const setAt = (body: unknown, path: (string | number)[], value: unknown): unknown => {
    if (path.length === 0) return value
    const [head, ...rest] = path
    const container: any = typeof head === 'number' ? (Array.isArray(body) ? [...body] : []) : body && typeof body === 'object' && !Array.isArray(body) ? { ...body } : {}
    container[head!] = setAt(container[head!], rest, value)
    return container
  }

  function requests(path: string, method: string, op: Operation) {
    const params = (op.parameters ?? []).filter((p) => p.in === 'path')
    const query = (op.parameters ?? []).filter((p) => p.in === 'query')
    const headers = (op.parameters ?? []).filter((p) => p.in === 'header')
    const content = Object.entries(op.requestBody?.content ?? {})
    const segmentBefore = (name: string) => path.split('/').at(path.split('/').findIndex((s) => s.includes(`{${name}}`)) - 1)
    // A parameter is text on the wire: a number or a boolean of its schema is sent written out.
    const asText = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map((value) => (typeof value === 'string' ? value : JSON.stringify(value)))
    const pathValue = (p: Parameter) => {
      const made = asText(valid(p.schema)).filter((s) => s !== '' && s !== '.' && s !== '..')
      return withKnown(made, options.known[`/${segmentBefore(p.name)}/`] ?? options.known[p.name])
    }
    const headerValue = (p: Parameter) => asText(valid(p.schema, p.name)).filter((s) => HEADER_SAFE.test(s))
    const record = (list: Parameter[], value: (p: Parameter) => fc.Arbitrary<unknown>) =>
      fc.record(Object.fromEntries(list.map((p) => [p.name, optional(value(p), p.in === 'path' || !!p.required)])), { noNullPrototype: true }).map(present) as fc.Arbitrary<Record<string, string>>
    const queryValue = (p: Parameter) => asText(valid(p.schema, p.name))
    const body: fc.Arbitrary<{ contentType?: string; body?: unknown; hasBody: boolean }> =
      content.length === 0
        ? fc.constant({ hasBody: false })
        : fc.oneof(
            ...content.map(([type, { schema }]) =>
              type.endsWith('json')
                ? valid(schema ?? {}).map((b) => ({ contentType: type, body: b, hasBody: true }))
                : fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ contentType: type, body: Buffer.from(bytes), hasBody: true })),
            ),
          )
    const positive: fc.Arbitrary<Request> = fc
      .tuple(record(params, pathValue), record(query, queryValue), record(headers, headerValue), body)
      .map(([params, query, headers, b]) => ({ params, query, headers, ...b }))

    // One part the document refuses, the rest as it allows.
    const mutations: fc.Arbitrary<(r: Request) => Request>[] = []
    for (const p of query) mutations.push(invalid(p.schema, true).map((value) => (r: Request) => ({ ...r, query: { ...r.query, [p.name]: value as string } })))
    for (const p of headers) {
      const value = (invalid(p.schema, true) as fc.Arbitrary<string>).filter((s) => HEADER_SAFE.test(s))
      mutations.push(value.map((v) => (r: Request) => ({ ...r, headers: { ...r.headers, [p.name]: v } })))
    }
    const json = content.find(([type]) => type.endsWith('json'))
    if (json) {
      const schema = json[1].schema ?? {}
      for (const site of sites(schema)) mutations.push(invalid(site.schema, false).map((value) => (r: Request) => ({ ...r, body: setAt(r.body, site.path, value) })))
      mutations.push(fc.constantFrom<unknown>(null, [], 'text', 0, true).map((value) => (r: Request) => ({ ...r, body: value })))
      if (schema.additionalProperties === false) mutations.push(fc.constant((r: Request) => ({ ...r, body: { ...(r.body as object), zz_unknown_field: 1 } })))
      for (const key of schema.required ?? []) {
        mutations.push(
          fc.constant((r: Request) => {
            const { [key]: _gone, ...rest } = r.body as Record<string, unknown>
            return { ...r, body: rest }
          }),
        )
      }
    }
    if (content.length > 0) mutations.push(fc.constantFrom('text/plain', 'application/xml').map((type) => (r: Request) => ({ ...r, contentType: type })))
    const negative = mutations.length ? fc.tuple(positive, fc.oneof(...mutations)).map(([r, mutate]) => mutate(r)) : undefined
    return { positive, negative }
  }

  /** Whether the document allows the request as a whole. */
  function allowed(op: Operation, r: Request): boolean {
    for (const p of op.parameters ?? []) {
      const where = p.in === 'path' ? r.params : p.in === 'query' ? r.query : r.headers
      const value = where[p.name]
      if (value === undefined) {
        if (p.in === 'path' || p.required) return false
      } else if (!accepts(p.schema, typed(p.schema, value))) return false
    }
    const content = op.requestBody?.content
    if (!content) return true
    if (!r.hasBody) return !op.requestBody?.required
    const media = r.contentType ? content[r.contentType] : undefined
    if (!media) return false
    return r.contentType!.endsWith('json') ? accepts(media.schema, r.body) : true
  }

  return (async () => {
    const report: FuzzReport = { requests: 0, positive: 0, negative: 0, byStatus: {}, byOperation: {}, allowedRefused: {}, failures: [] }
    // Deletions last: the resources made for the requests to name are there for all the others.
    const operations = Object.entries(doc.paths)
      .flatMap(([template, byMethod]) => Object.entries(byMethod).map(([method, op]) => ({ template, method: method.toUpperCase(), op })))
      .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'))
    for (const [index, { template, method, op }] of operations.entries()) {
      // A seed of its own per operation: made-up keys and names do not repeat across them.
      const seed = options.seed + 1_000 * index
      const name = `${method} ${template}`
      if (options.skip?.includes(name)) continue
      const { positive, negative } = requests(template, method, op)
      const run = async (r: Request) => {
        const path =
          template.replace(/\{(\w+)\}/g, (_, p: string) => encodeURIComponent(r.params[p]!)) +
          (Object.values(r.query).some((v) => v !== undefined) ? `?${new URLSearchParams(Object.entries(r.query).filter(([, v]) => v !== undefined) as [string, string][])}` : '')
        const headers: Record<string, string> = {}
        for (const [key, value] of Object.entries(r.headers)) if (value !== undefined) headers[key] = value
        let raw: string | Buffer | undefined
        if (r.hasBody) {
          headers['content-type'] = r.contentType!
          raw = Buffer.isBuffer(r.body) ? r.body : JSON.stringify(r.body)
        }
        const res = await options.send(method, path, { headers, raw, key: (op.security ?? []).length > 0 })
        const ok = allowed(op, r)
        report.requests += 1
        report[ok ? 'positive' : 'negative'] += 1
        report.byStatus[res.status] = (report.byStatus[res.status] ?? 0) + 1
        const mine = (report.byOperation[name] ??= {})
        mine[res.status] = (mine[res.status] ?? 0) + 1
        if (ok && res.status === 422) {
          for (const error of res.body?.errors ?? [{ pointer: '' }]) {
            const where = `${name} ${error.pointer.replace(/\/\d+/g, '/*')}: ${error.code ?? res.body?.code}`
            const seen = (report.allowedRefused[where] ??= { count: 0, example: `${path}: ${error.detail ?? res.body?.detail}` })
            seen.count += 1
          }
        }
        const problems = options.check(method, path, res)
        if (res.status >= 500) problems.push(`${method} ${path} answered ${res.status}: ${res.text.slice(0, 300)}`)
        if (!ok && res.status < 400) problems.push(`${method} ${path} answered ${res.status} to a request the document refuses`)
        if (problems.length) throw new Error(`${problems.join('\n')}\nrequest: ${JSON.stringify({ headers, body: Buffer.isBuffer(r.body) ? `${r.body.length} bytes` : r.body })}`)
      }
      for (const [kind, arbitrary] of [['positive', positive], ['negative', negative]] as const) {
        if (!arbitrary) continue
        // The first failure ends the operation's run, unshrunk: the budget stays what it is.
        const result = await fc.check(fc.asyncProperty(arbitrary, run), { numRuns: options.runs, seed: kind === 'positive' ? seed : seed + 1, endOnFailure: true })
        if (result.failed) report.failures.push(`${name} (${kind}, seed ${result.seed}): ${(result.errorInstance as Error)?.message ?? String(result.errorInstance)}`)
      }
    }
    return report
  })()
}

