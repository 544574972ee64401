import { Args, Flags } from '@oclif/core'
import { MAX_VARIANTS, TONES, type AiGeneration } from '../../src/api/ai.js'
import { ApiCommand } from '../../src/cli/api-command.js'
import { repeatable, platform } from '../../src/cli/flags.js'
import { paint } from '../../src/cli/output.js'
import { formatNumber } from '../../src/numbers.js'

export default class AiGenerate extends ApiCommand {
  static override description = `Draft posts with AI: variants that fit each platform's rules, in the tone you ask for.

Drafts are only printed, never scheduled: pick one and pass it to \`smm posts create --text\`. Without --platform the drafts are platform-neutral. The daemon's model is set by its operator (SMM_AI_BASE_URL); without one, an offline helper drafts and says so.`

  static override examples = [
    '<%= config.bin %> ai generate "We open a second shop in Leith on Saturday" --platform bluesky --variants 3',
    '<%= config.bin %> ai generate "Release 2.0: dark mode and offline sync" --platform mastodon --platform telegram --tone witty --hashtags',
    '<%= config.bin %> ai generate "Notre nouvelle carte" --language fr --json | jq -r ".variants[0].content"',
  ]

  static override args = {
    prompt: Args.string({ description: 'What the posts should say: a topic, an announcement, notes (up to 4,000 characters)', required: true }),
  }

  static override flags = {
    platform: platform({ description: 'Draft for this platform, fitting its rules (repeatable)', ...repeatable }),
    variants: Flags.integer({ description: `Drafts per platform (1 to ${MAX_VARIANTS})`, min: 1, max: MAX_VARIANTS, default: 1 }),
    tone: Flags.option({ options: TONES, description: 'The voice to write in', default: 'neutral' as const })(),
    hashtags: Flags.boolean({ description: 'Add fitting hashtags' }),
    language: Flags.string({ description: 'Write in this language (BCP 47: en, fr, pt-BR; default: the prompt’s)', helpValue: '<tag>' }),
  }

  async run(): Promise<AiGeneration> {
    const { args, flags } = await this.parse(AiGenerate)
    const client = await this.client()
    const generation = await this.waitFor(
      'Drafting',
      client.generateContent({
        body: {
          prompt: args.prompt,
          ...(flags.platform ? { platforms: flags.platform } : {}),
          variants: flags.variants,
          tone: flags.tone,
          hashtags: flags.hashtags,
          ...(flags.language ? { language: flags.language } : {}),
        },
      }),
    )
    if (!this.jsonEnabled()) {
      const counts = new Map<string, number>()
      for (const variant of generation.variants) {
        const name = variant.platform ?? 'any platform'
        const n = (counts.get(name) ?? 0) + 1
        counts.set(name, n)
        this.log(paint('bold', `${name} #${n}`) + paint('dim', ` (${formatNumber(variant.characters)} characters)`))
        this.log(`${variant.content.replace(/^(?=.)/gm, '  ')}\n`)
      }
      for (const note of generation.notes) this.log(paint('yellow', `Note: ${note}`))
      this.log(paint('dim', `Drafted by ${generation.provider} (${generation.model}).`))
    }
    return generation
  }
}
