import { CommandHelp, Help, type Command } from '@oclif/core'

type Flag = Command.Flag.Cached

/** A flag as the usage line writes it: `--at <time>`, `--platform <platform>...`, `--queue`. */
function flagUsage(flag: Flag): string {
  const name = flag.char ? `-${flag.char}` : `--${flag.name}`
  if (flag.type !== 'option') return name
  const values = flag.helpValue ? [flag.helpValue].flat() : flag.options ? [flag.options.join('|')] : ['<value>']
  return `${name} ${values.map((value) => `${value}${flag.multiple ? '...' : ''}`).join(' ')}`
}

/**
 * A command's usage line. oclif's (DocOpts) folds each flag's `exclusive` list into one group
 * and drops the flags it has already put in another group, leaving empty alternatives behind
 * when the lists overlap (`posts create`: --queue excludes --at and --draft, which do not
 * exclude each other, and it printed `[--draft |  | --every <interval>]`). Here a group holds
 * flags that exclude each other pairwise, so every `a | b` in the line is true.
 */
export function usageLine(command: Command.Cached): string {
  const flags = Object.values(command.flags ?? {}).filter((flag) => !flag.hidden)
  const ordered = [...flags.filter((flag) => flag.required), ...flags.filter((flag) => !flag.required)]
  const excludes = (a: Flag, b: Flag) => Boolean(a.exclusive?.includes(b.name) || b.exclusive?.includes(a.name))
  const byName = new Map(flags.map((flag) => [flag.name, flag]))
  // A flag that needs exactly one other, which does not need it back, is said inside that one's
  // brackets (--count with --every); flags that need each other are said together (--tls-cert --tls-key).
  const parentOf = (flag: Flag) => {
    const [parent, ...more] = flag.dependsOn ?? []
    return parent && more.length === 0 && byName.has(parent) && !byName.get(parent)!.dependsOn?.includes(flag.name) ? parent : undefined
  }
  const withDependents = (flag: Flag): string =>
    [flagUsage(flag), ...ordered.filter((other) => parentOf(other) === flag.name).map((other) => `[${withDependents(other)}]`)].join(' ')
  const placed = new Set<string>()
  const groups: string[] = []
  for (const flag of ordered) {
    if (placed.has(flag.name) || parentOf(flag)) continue
    const group = [flag]
    for (const other of ordered) {
      if (!placed.has(other.name) && !parentOf(other) && !group.includes(other) && group.every((member) => excludes(member, other))) group.push(other)
    }
    for (const member of group) placed.add(member.name)
    const alternatives = group
      .map((member) => {
        const together = (member.dependsOn ?? []).filter((name) => byName.has(name) && !placed.has(name)).map((name) => byName.get(name)!)
        for (const other of together) placed.add(other.name)
        return [withDependents(member), ...together.map(withDependents)].join(' ')
      })
      .join(' | ')
    const required = group.some((member) => member.required)
    groups.push(group.length === 1 && required ? alternatives : required ? `(${alternatives})` : `[${alternatives}]`)
  }
  const args = Object.values(command.args ?? {})
    .filter((arg) => !arg.hidden)
    .map((arg) => {
      const name = `${arg.name.toUpperCase()}${arg.multiple || command.strict === false ? '...' : ''}`
      return arg.required ? name : `[${name}]`
    })
  return ['<%= command.id %>', ...args, ...groups].join(' ')
}

class SmmCommandHelp extends CommandHelp {
  protected override defaultUsage(): string {
    return usageLine(this.command)
  }
}

/** oclif's help, with usage lines from usageLine (package.json's oclif.helpClass). */
export default class SmmHelp extends Help {
  protected override CommandHelpClass = SmmCommandHelp
}
