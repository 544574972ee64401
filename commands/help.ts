import { Args, Command, Flags, loadHelpClass } from '@oclif/core'

/**
 * `smm help [COMMAND]`: oclif's help, as @oclif/plugin-help's command shows it, but run by the
 * CLI's bundled oclif. The plugin's command imported its own copy of @oclif/core, so asking for
 * help loaded oclif twice (about 300 ms more than `smm COMMAND --help`).
 */
export default class Help extends Command {
  static override description = 'Display help for <%= config.bin %>.'

  static override examples = ['<%= config.bin %> help', '<%= config.bin %> help posts', '<%= config.bin %> help posts create', '<%= config.bin %> help admin --nested-commands']

  static override args = {
    command: Args.string({ description: 'Command to show help for.', required: false }),
  }

  static override flags = {
    'nested-commands': Flags.boolean({ char: 'n', description: 'Include all nested commands in the output.' }),
  }

  static override strict = false

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(Help)
    const HelpClass = await loadHelpClass(this.config)
    await new HelpClass(this.config, { all: flags['nested-commands'] }).showHelp(argv as string[])
  }
}
