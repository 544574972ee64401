// The load hook of bench/module-trace.js.
import { appendFileSync } from 'node:fs'

let out

export function initialize(data) {
  out = data.out
}

export async function load(url, context, next) {
  appendFileSync(out, url + '\n')
  return next(url, context)
}
