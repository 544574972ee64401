import { toConfiguredId, type Hook } from '@oclif/core'
import { closest } from 'fastest-levenshtein'
import { EXIT } from './exit-codes.js'

/**
 * oclif's answer to a mistyped command is "command posts:lst not found", in its internal colon
 * syntax. This says it as the user typed it, with the closest command to type instead.
 */
const commandNotFound: Hook<'command_not_found'> = async function (opts) {
  const ids = opts.config.commands.filter((c) => !c.hidden).map((c) => c.id)
  const said = (id: string) => `${opts.config.bin} ${toConfiguredId(id, opts.config)}`
  const typed = [said(opts.id), ...(opts.argv ?? [])].join(' ')
  const suggestion = ids.length ? ` Did you mean \`${said(closest(opts.id, ids))}\`?` : ''
  const topic = opts.id.split(':')[0]!
  const help = opts.config.findTopic(topic) ? `${opts.config.bin} help ${topic}` : `${opts.config.bin} help`
  // One line, as every other smm error is (oclif's own error would wrap and indent it).
  process.stderr.write(`Error: \`${typed}\` is not a command.${suggestion} \`${help}\` lists them.\n`)
  this.exit(EXIT.usage)
}

export default commandNotFound
