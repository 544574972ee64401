import * as v from 'valibot'

/** An https URL a user gives for a platform endpoint (an instance, a PDS, a webhook). */
export const HttpsUrl = (what: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.url(`must be an absolute URL (${what})`),
    v.check((value) => value.startsWith('https://'), `must be an https:// URL (${what}); smm sends requests over https only`),
  )

/** A secret the platform issued: non-empty, no surrounding blanks from a paste. */
export const Secret = (what: string) => v.pipe(v.string(), v.trim(), v.minLength(1, `must not be empty (${what})`), v.maxLength(4096, 'is too long'))

/** The origin of a URL with no trailing slash, where API paths are appended. */
export function baseUrl(url: string): string {
  return url.replace(/\/+$/, '')
}
