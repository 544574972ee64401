import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { routes } from '../../src/contract.js'
import { buildOpenApi } from '../../src/openapi.js'
import type { ResponseCheck, TestResponse } from './http.js'

type Doc = { paths: Record<string, Record<string, { responses: Record<string, Response>; security?: unknown[] }>>; components: { headers: Record<string, Header> } }
type Header = { required?: boolean; schema: Record<string, unknown> }
type Response = { headers?: Record<string, { $ref: string } | Header>; content?: Record<string, { schema: unknown }> }

/**
 * Checks answers against the OpenAPI document: the status is one the operation declares, every
 * header the document says that response always carries is there and well-formed, and a JSON
 * body matches the declared schema of its content type.
 */
export function documentChecker(doc: Doc) {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
  ajv.addSchema(doc, 'openapi.json')
  const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')
  // Ajv caches a compiled schema by the schema object: a `{ $ref }` made afresh per answer was
  // compiled afresh per answer (5 to 12 ms each, most of a request's time in the tests).
  const validators = new Map<string, ValidateFunction>()
  const validatorOf = (ref: string) => {
    let validate = validators.get(ref)
    if (!validate) validators.set(ref, (validate = ajv.compile({ $ref: ref })))
    return validate
  }

  /** Problems found with `res` as the answer to `method` on the path template `path`; empty if none. */
  return function check(method: string, path: string, res: TestResponse): string[] {
    const operation = doc.paths[path]?.[method.toLowerCase()]
    if (!operation) return [`${method} ${path} is not in the document`]
    const declared = operation.responses[String(res.status)]
    if (!declared) return [`${method} ${path} answered ${res.status}, which the document does not declare (${Object.keys(operation.responses).join(', ')})`]
    const problems: string[] = []
    for (const [name, ref] of Object.entries(declared.headers ?? {})) {
      const header = '$ref' in ref ? doc.components.headers[ref.$ref.split('/').pop()!]! : ref
      const value = res.headers[name.toLowerCase()]
      if (value === undefined) {
        if (header.required) problems.push(`${method} ${path} ${res.status} lacks the ${name} header`)
        continue
      }
      const typed = header.schema.type === 'integer' ? Number(value) : value
      if (!ajv.validate(header.schema, typed)) problems.push(`${method} ${path} ${res.status}: ${name}: ${value} ${ajv.errorsText()}`)
    }
    // A HEAD answer never has a body: its headers are all there is to check.
    if (method === 'HEAD') return problems
    const type = (res.headers['content-type'] ?? '').split(';')[0]!.trim()
    if (!declared.content) {
      if (res.text !== '') problems.push(`${method} ${path} ${res.status} has a body the document does not declare`)
      return problems
    }
    if (!declared.content[type]) return [...problems, `${method} ${path} ${res.status} answered ${type || 'no content type'}; the document says ${Object.keys(declared.content).join(', ')}`]
    if (type.endsWith('json')) {
      const ref = `openapi.json#/${pointer('paths', path, method.toLowerCase(), 'responses', String(res.status), 'content', type, 'schema')}`
      const validate = validatorOf(ref)
      if (!validate(res.body)) problems.push(`${method} ${path} ${res.status} body: ${ajv.errorsText(validate.errors)}`)
    }
    return problems
  }
}

/**
 * Checks any answer of the daemon against its own document, by concrete path. A path the
 * document has, asked with a method it lacks, must be refused with 405 (OPTIONS: 204) and an
 * `Allow` that lists exactly the path's methods; a path it does not have is left alone.
 */
export function contractCheck(): ResponseCheck {
  // The document is the same for every daemon of a test file: built and compiled once.
  shared ??= makeContractCheck()
  return shared
}

let shared: ResponseCheck | undefined

function makeContractCheck(): ResponseCheck {
  const doc = buildOpenApi(routes, 'test') as unknown as Doc
  const check = documentChecker(doc)
  const templates = Object.keys(doc.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }))
  return (method, path, res) => {
    const bare = path.split('?')[0]!
    // A path without parameters is only itself: `/v1/posts/bulk` is no `/v1/posts/{id}`.
    const matching = doc.paths[bare] ? [bare] : templates.filter(({ pattern }) => pattern.test(bare)).map(({ template }) => template)
    const found = matching.find((template) => doc.paths[template]![method.toLowerCase()])
    if (found) return check(method, found, res)
    if (matching.length === 0) return []
    const operations = matching.flatMap((template) => Object.entries(doc.paths[template]!))
    const methods = operations.map(([m]) => m.toUpperCase())
    // HEAD is GET without the body.
    if (method === 'HEAD' && methods.includes('GET')) return []
    // The key is checked before the route: a refused key is a refused key, whatever the method.
    if ((res.status === 401 || res.status === 429) && operations.some(([, op]) => op.security?.length)) return []
    return methodRefused(method, path, methods, res)
  }
}

/** Problems with `res` as the refusal of a method the path lacks. */
function methodRefused(method: string, path: string, methods: string[], res: TestResponse): string[] {
  const expected = [...new Set([...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'])].sort()
  const allow = (res.headers.allow ?? '').split(',').map((m) => m.trim()).filter(Boolean).sort()
  const problems: string[] = []
  if (res.status !== (method === 'OPTIONS' ? 204 : 405)) problems.push(`${method} ${path} answered ${res.status}: the path has only ${methods.join(', ')}, so it must be 405`)
  if (allow.join() !== expected.join()) problems.push(`${method} ${path}: Allow is "${res.headers.allow ?? ''}", not ${expected.join(', ')}`)
  // A HEAD answer has no body to say it.
  if (res.status === 405 && method !== 'HEAD' && res.body?.code !== 'method_not_allowed') problems.push(`${method} ${path} 405 is not a method_not_allowed problem`)
  if (res.headers['x-content-type-options'] !== 'nosniff') problems.push(`${method} ${path} ${res.status} lacks X-Content-Type-Options: nosniff`)
  return problems
}
