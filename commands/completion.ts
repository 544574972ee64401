import { Args } from '@oclif/core'
import { BaseCommand } from '../src/cli/base-command.js'
import { completionScript } from '../src/cli/completion.js'

export default class Completion extends BaseCommand {
  static override description = `Print the shell completion script for bash or zsh: commands, flags, flag values (platforms, statuses, scopes, events…) and your account names.

Load it from your shell's start-up file; it asks smm for candidates as you press TAB.`

  static override examples = [
    { description: 'bash: add this line to ~/.bashrc', command: 'eval "$(<%= config.bin %> completion bash)"' },
    { description: 'zsh: add this line to ~/.zshrc, after compinit', command: 'eval "$(<%= config.bin %> completion zsh)"' },
  ]

  static override enableJsonFlag = false

  static override args = {
    shell: Args.string({ description: 'The shell', options: ['bash', 'zsh'], default: process.env.SHELL?.endsWith('zsh') ? 'zsh' : 'bash' }),
  }

  async run(): Promise<void> {
    const { args } = await this.parse(Completion)
    process.stdout.write(completionScript(args.shell as 'bash' | 'zsh', this.config.bin))
  }
}
