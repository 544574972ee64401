import * as v from 'valibot'
import { validationFailed, type FieldError } from './errors.js'

function pointerOf(issue: v.BaseIssue<unknown>): string {
  const keys = (issue.path ?? []).map((item) => String(item.key).replace(/~/g, '~0').replace(/\//g, '~1'))
  return `#/${keys.join('/')}`
}

function fieldError(issue: v.BaseIssue<unknown>): FieldError {
  const pointer = pointerOf(issue)
  if (issue.type === 'strict_object' && issue.expected === 'never') {
    return { pointer, code: 'unknown_field', detail: 'is not a field of this request; check its spelling' }
  }
  if (issue.kind === 'schema' && issue.input === undefined && issue.path?.length) {
    return { pointer, code: 'required', detail: 'is required' }
  }
  // Messages set on our own checks are written for people; valibot's own start "Invalid …".
  const detail = issue.message.startsWith('Invalid ') ? `${issue.message.replace(/^Invalid (\w+): /, 'invalid $1: ')}` : issue.message
  return { pointer, code: issue.kind === 'schema' ? 'invalid_type' : 'invalid_value', detail }
}

/** Issues as the API reports them: every invalid field, each with its JSON pointer. */
export function fieldErrors(issues: readonly v.BaseIssue<unknown>[]): FieldError[] {
  const seen = new Set<string>()
  const out: FieldError[] = []
  for (const issue of issues) {
    const error = fieldError(issue)
    const key = `${error.pointer} ${error.code}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push(error)
  }
  return out
}

/** Parses input against a schema, or throws a 422 that lists every invalid field. */
export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input)
  if (result.success) return result.output
  throw validationFailed(fieldErrors(result.issues))
}
