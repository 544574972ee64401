import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { routes } from '../../src/contract.js'
import { buildOpenApi } from '../../src/openapi.js'
import type { ResponseCheck, TestResponse } from './http.js'

type Doc = { paths: Record<string, Record<string, { responses: Record<string, Response> }>>; components: { headers: Record<string, Header> } }
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
 * Checks any answer of the daemon against its own document, by concrete path: what matches no
 * documented operation (an unknown path, a method the path does not serve) is left alone.
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
    const found = templates.find(({ template, pattern }) => pattern.test(bare) && doc.paths[template]![method.toLowerCase()])
    return found ? check(method, found.template, res) : []
  }
}
