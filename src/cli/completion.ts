/**
 * Shell completion, decided in one place for every shell: the shell hands over the words typed
 * so far (`smm __complete -- posts create --account Br`), this answers the candidates, one per
 * line as `value<TAB>description`, and the shell's few lines of script show them. Commands,
 * flags and flag values come from the commands' own declarations; account names and profiles
 * are looked up when asked for (as cobra's `__complete` does for Go CLIs).
 */

/** What completion needs to know of one command: oclif's manifest entry has these. */
export interface CommandSpec {
  id: string
  hidden?: boolean
  summary?: string
  description?: string
  flags: Record<string, FlagSpec>
  /** Its positional arguments, in order, by name. */
  args: Record<string, unknown>
}

export interface FlagSpec {
  type: 'boolean' | 'option'
  options?: readonly string[]
  multiple?: boolean
  hidden?: boolean
  summary?: string
  description?: string
}

export interface Candidate {
  value: string
  description?: string
}

/** Values looked up when asked for: the user's accounts (from the daemon), the saved profiles. */
export type Lookup = (kind: 'account' | 'profile', profile: string) => Promise<Candidate[]>

/** Flags and arguments whose values are the user's accounts or the CLI's profiles, by name. */
const LOOKED_UP: Record<string, 'account' | 'profile'> = { account: 'account', profile: 'profile' }

/**
 * The candidates for the last word of `words` (the words after `smm`, the last one being typed,
 * possibly empty), filtered by what is typed. Bash splits `--flag=value` at the `=`, zsh does
 * not: either way a flag's value is answered bare.
 */
export async function complete(words: readonly string[], commands: readonly CommandSpec[], lookup: Lookup): Promise<Candidate[]> {
  const typed = joinEquals(words)
  let current = typed.at(-1) ?? ''
  const before = typed.slice(0, -1)
  const visible = commands.filter((c) => !c.hidden)
  const ids = new Set(visible.map((c) => c.id))

  // The command: the longest run of leading words that names one.
  const leading: string[] = []
  for (const word of before) {
    if (word.startsWith('-')) break
    leading.push(word)
  }
  let length = leading.length
  while (length > 0 && !ids.has(leading.slice(0, length).join(':'))) length--
  const command = length > 0 ? visible.find((c) => c.id === leading.slice(0, length).join(':')) : undefined

  // Still naming the command: the next word of the command ids that start with what is typed.
  if (!before.some((w) => w.startsWith('-')) && (!command || length === leading.length) && !current.startsWith('-')) {
    const prefix = leading.length ? `${leading.join(':')}:` : ''
    const next = new Map<string, Candidate>()
    for (const c of visible) {
      if (!c.id.startsWith(prefix)) continue
      const word = c.id.slice(prefix.length).split(':')[0]!
      if (!next.has(word)) next.set(word, { value: word, ...(c.id === prefix + word ? { description: describe(c) } : {}) })
    }
    // A whole command with no subcommands goes on to its arguments below.
    if (next.size > 0) return filter([...next.values()], current)
  }
  if (!command) return []

  const profile = profileOf(before)
  const flagOf = (name: string) => command.flags[name]

  // A flag's value: `--flag VALUE` (the previous word is the flag) or `--flag=VALUE`.
  let valueOf: string | undefined
  const previous = before.at(-1)
  const inline = /^--([\w-]+)=(.*)$/.exec(current)
  if (inline && flagOf(inline[1]!)?.type === 'option') {
    valueOf = inline[1]!
    current = inline[2]!
  } else if (previous && /^--[\w-]+$/.test(previous) && flagOf(previous.slice(2))?.type === 'option') {
    valueOf = previous.slice(2)
  }
  if (valueOf !== undefined) {
    const flag = flagOf(valueOf)!
    if (flag.options) return filter(flag.options.map((value) => ({ value })), current)
    const kind = LOOKED_UP[valueOf]
    return kind ? filter(await lookup(kind, profile), current) : []
  }

  if (current.startsWith('-')) {
    const used = new Set(before.filter((w) => w.startsWith('--')).map((w) => w.slice(2).split('=')[0]!))
    const flags = Object.entries(command.flags)
      .filter(([name, flag]) => !flag.hidden && (flag.multiple || !used.has(name)))
      .map(([name, flag]) => ({ value: `--${name}`, description: firstLine(flag.summary ?? flag.description) }))
    return filter([...flags, { value: '--help', description: 'Show help for this command' }], current)
  }

  // A positional argument: which one is counted past the command and the flags' values.
  const index = positionalsAfter(before.slice(length), command).length
  const name = Object.keys(command.args)[index]
  const kind = name ? LOOKED_UP[name] : undefined
  return kind ? filter(await lookup(kind, profile), current) : []
}

/** Bash hands `--flag=value` over as three words, `--flag`, `=`, `value`: made one again. */
function joinEquals(words: readonly string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < words.length; i++) {
    if (words[i] === '=' && out.length > 0 && out.at(-1)!.startsWith('--')) {
      out[out.length - 1] += `=${words[i + 1] ?? ''}`
      i++
    } else {
      out.push(words[i]!)
    }
  }
  return out
}

function positionalsAfter(words: readonly string[], command: CommandSpec): string[] {
  const positionals: string[] = []
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!
    if (word.startsWith('-')) {
      if (!word.includes('=') && command.flags[word.replace(/^-+/, '')]?.type === 'option') i++ // its value
      continue
    }
    positionals.push(word)
  }
  return positionals
}

function profileOf(words: readonly string[]): string {
  for (let i = words.length - 1; i >= 0; i--) {
    const word = words[i]!
    if (word.startsWith('--profile=')) return word.slice('--profile='.length)
    if (word === '--profile' && words[i + 1]) return words[i + 1]!
  }
  return process.env.SMM_PROFILE || 'default'
}

function describe(command: CommandSpec): string | undefined {
  return firstLine(command.summary ?? command.description)
}

function firstLine(text: string | undefined): string | undefined {
  return text?.split('\n')[0]?.replace(/\s+/g, ' ').trim() || undefined
}

function filter(candidates: Candidate[], typed: string): Candidate[] {
  return candidates.filter((c) => c.value.startsWith(typed))
}

/** The lines `__complete` prints: a value, and its description after a tab. */
export function formatCandidates(candidates: readonly Candidate[]): string {
  return candidates.map((c) => (c.description ? `${c.value}\t${c.description}` : c.value)).join('\n')
}

/**
 * The script each shell sources (`eval "$(smm completion bash)"`): it asks `smm __complete`
 * and shows the answer. With nothing to offer, the shell completes file names.
 */
export function completionScript(shell: 'bash' | 'zsh', bin: string): string {
  const fn = `_${bin.replace(/[^\w]/g, '_')}_complete`
  if (shell === 'bash') {
    return `# ${bin} completion for bash: add to ~/.bashrc
#   eval "$(${bin} completion bash)"
${fn}() {
  local IFS=$'\\n' line
  local -a lines
  lines=($(${bin} __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
  COMPREPLY=()
  for line in "\${lines[@]}"; do
    COMPREPLY+=("$(printf '%q' "\${line%%$'\\t'*}")")
  done
}
complete -o default -F ${fn} ${bin}
`
  }
  return `#compdef ${bin}
# ${bin} completion for zsh: add to ~/.zshrc (after compinit)
#   eval "$(${bin} completion zsh)"
${fn}() {
  local line
  local -a lines candidates
  lines=("\${(@f)$(${bin} __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  [[ "\${words[CURRENT]}" == --*=* ]] && compset -P '*='
  for line in "\${lines[@]}"; do
    [[ -z "$line" ]] && continue
    if [[ "$line" == *$'\\t'* ]]; then
      candidates+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
    else
      candidates+=("\${line//:/\\\\:}")
    fi
  done
  if (( \${#candidates} )); then
    _describe '${bin}' candidates
  else
    _files
  fi
}
compdef ${fn} ${bin}
`
}
