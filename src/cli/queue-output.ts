import type { Queue } from '../api/queue.js'
import { WEEKDAY_NAMES, type Slot } from '../queue-slots.js'
import { parseWeekday } from '../zoned-time.js'
import { details, localTime, table } from './output.js'
import { parseTimeOfDay, TimeInputError } from './time-input.js'

/** What `--slot` takes, for its help and its errors. */
export const SLOT_HINT = 'a day and a time of day as --at takes one, like "mon 09:00", "wednesday 13:30" or "fri 5:30pm"'

/** A `--slot` value ("mon 09:00", "Wednesday 9am") as the API takes it; throws saying what is expected. */
export async function parseSlot(input: string): Promise<Slot> {
  const match = /^\s*([a-z]+)\s+(\S.*)$/i.exec(input)
  const weekday = match ? parseWeekday(match[1]!) : undefined
  if (!match || weekday === undefined) throw new Error(`"${input}" is not a slot: give ${SLOT_HINT}`)
  const { hour, minute } = await parseTimeOfDay(match[2]!).catch((error: unknown) => {
    if (error instanceof TimeInputError) throw new Error(`"${input}" is not a slot: ${error.message}`)
    throw error
  })
  return { day: WEEKDAY_NAMES[weekday - 1]!, time: `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}` }
}

/** An account's queue: its weekly slots in the user's zone, and the next free times they give. */
export function queueDetails(queue: Queue, account: { id: string; name: string }): string {
  const head = details([
    ['Account', `${account.name} (${account.id})`],
    ['Time zone', queue.timezone],
  ])
  if (queue.slots.length === 0) return `${head}\n\nNo queue slots yet.`
  const slots = table(queue.slots, [
    { header: 'DAY', value: (s) => s.day },
    { header: 'TIME', value: (s) => s.time },
  ])
  const next = queue.next.length ? queue.next.map((at) => `  ${localTime(at)}`).join('\n') : '  none within a year: every slot is taken'
  return `${head}\n\n${slots}\n\nNext free slots:\n${next}`
}
