import type { Queue } from '../api/queue.js'
import { WEEKDAY_NAMES, type Slot } from '../queue-slots.js'
import { parseWeekday } from '../zoned-time.js'
import { details, localTime, table } from './output.js'

/** What `--slot` takes, for its help and its errors. */
export const SLOT_HINT = 'a day and a 24-hour time, like "mon 09:00" or "wednesday 13:30"'

/** A `--slot` value ("mon 09:00", "Wednesday 9:30") as the API takes it; throws saying what is expected. */
export function parseSlot(input: string): Slot {
  const match = /^\s*([a-z]+)\s+(\d{1,2}):(\d{2})\s*$/i.exec(input)
  const weekday = match ? parseWeekday(match[1]!) : undefined
  const hour = match ? Number(match[2]) : NaN
  const minute = match ? Number(match[3]) : NaN
  if (weekday === undefined || !(hour >= 0 && hour <= 23) || !(minute >= 0 && minute <= 59)) {
    throw new Error(`"${input}" is not a slot: give ${SLOT_HINT}`)
  }
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
