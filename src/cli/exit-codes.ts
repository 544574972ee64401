/** The exit codes of every smm command, as SPEC §11 fixes them. */
export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  conflict: 5,
  rateLimited: 6,
} as const

/** The exit code for an API error's HTTP status. */
export function exitCodeForStatus(status: number): number {
  if (status === 401 || status === 403) return EXIT.auth
  if (status === 404) return EXIT.notFound
  if (status === 409 || status === 412) return EXIT.conflict
  if (status === 429) return EXIT.rateLimited
  if (status === 400 || status === 413 || status === 415 || status === 422) return EXIT.usage
  return EXIT.error
}
