/** Quotes a word for a POSIX shell when it needs it. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}

/**
 * The command line that shows the next page: the one the user typed, with the same filters,
 * and the page's cursor in place of any previous one (a cursor means nothing without them).
 */
export function nextPageCommand(bin: string, commandId: string, argv: readonly string[], cursor: string): string {
  const kept: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--cursor') i++
    else if (!arg.startsWith('--cursor=')) kept.push(arg)
  }
  return [bin, ...commandId.split(':'), ...kept, '--cursor', cursor].map(shellWord).join(' ')
}
