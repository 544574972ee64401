import { Flags } from '@oclif/core'
import { ApiCommand } from '../src/cli/api-command.js'
import { openApiCalendarSource } from '../src/tui/api-source.js'
import { canonicalTimeZone, localeWeekStart, systemLocale, systemTimeZone, zonedParts, type Weekday } from '../src/zoned-time.js'
import { NoTerminalError, isInteractive } from '../src/tui/no-terminal-error.js'
import { usageError } from '../src/cli/command-error.js'

const WEEK_STARTS = ['locale', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const

export default class Calendar extends ApiCommand {
  static override description = `Plan posts in an interactive terminal calendar.

A month grid (default), a week view and a day agenda of your posts and drafts, each with its local time, platforms and a status colour, and of each account's free queue slots (smm accounts queue set). Move with the arrow keys or hjkl, open a day with Enter, write a post with n (on a selected free slot: for that slot), edit (e) or cancel (x) a scheduled post or a draft, and press ? for every key. The form's When (Space) schedules the post at its date and time, puts it in the account's next free queue slot, or keeps it as a draft; editing a draft can schedule it. The calendar refreshes itself every 30 seconds, so changes made elsewhere appear without a restart.

Times are shown and entered in your profile's time zone, or --tz. Weeks start on your locale's first day unless --week-start says otherwise. It needs an interactive terminal; from scripts use smm posts list.`

  static override examples = [
    '<%= config.bin %> calendar',
    '<%= config.bin %> calendar --tz America/New_York',
    '<%= config.bin %> calendar --week-start sunday --profile work',
  ]

  // A full-screen program has no JSON to print; scripts use smm posts list --json.
  static override enableJsonFlag = false

  static override flags = {
    'week-start': Flags.option({
      description: "First day of the week (default: your locale's)",
      options: WEEK_STARTS,
      default: 'locale' as const,
    })(),
  }

  async run(): Promise<void> {
    const { flags } = await this.parse(Calendar)
    if (!isInteractive(process.stdin, process.stdout)) {
      const month = zonedParts(Date.now(), flags.tz ?? systemTimeZone()).date.slice(0, 7)
      throw usageError('no_terminal', new NoTerminalError(month, this.profileFlag()).message)
    }
    const { source, timeZone: profileZone } = await this.waitFor('Connecting', openApiCalendarSource(await this.client()))
    const timeZone = flags.tz ?? (profileZone && canonicalTimeZone(profileZone)) ?? systemTimeZone()
    const weekStart: Weekday =
      flags['week-start'] === 'locale'
        ? localeWeekStart(systemLocale())
        : ((WEEK_STARTS.indexOf(flags['week-start']) as Weekday))
    // Ink and React load here, for this command only, so every other command starts fast.
    const { renderCalendar } = await import('../src/tui/render-calendar.js')
    await renderCalendar(source, { timeZone, weekStart, profileFlag: this.profileFlag() })
  }

  // A line on stderr would tear the full-screen drawing; a request that still fails after the
  // wait shows in the calendar's status line.
  protected override retryNotice(): void {}
}
