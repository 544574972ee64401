import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseDuration, parseDurationInput, parseTimeInput, parseTimeOfDay } from '../src/cli/time-input.js'

// Berlin has DST, and is ahead of UTC: a zone bug shows up as an hour or two off. The worker
// runs other test files after this one: they get the zone they started with back.
const startZone = process.env.TZ
beforeAll(() => {
  process.env.TZ = 'Europe/Berlin'
})
afterAll(() => {
  if (startZone === undefined) delete process.env.TZ
  else process.env.TZ = startZone
})

// Saturday 21 November 2026, 12:00 UTC = 13:00 in Berlin.
const now = Date.UTC(2026, 10, 21, 12, 0, 0)
const iso = async (input: string) => new Date(await parseTimeInput(input, { now })).toISOString()

describe('parseTimeInput', () => {
  it('takes RFC 3339 with a zone exactly', async () => {
    expect(await iso('2026-12-01T09:00:00Z')).toBe('2026-12-01T09:00:00.000Z')
    expect(await iso('2026-12-01T09:00:00+05:30')).toBe('2026-12-01T03:30:00.000Z')
  })

  it('reads a date-time with no zone as local time, across DST', async () => {
    expect(await iso('2026-12-01 09:00')).toBe('2026-12-01T08:00:00.000Z') // CET, +1
    expect(await iso('2026-07-01T09:00')).toBe('2026-07-01T07:00:00.000Z') // CEST, +2
    expect(await iso('2026-12-01')).toBe('2026-11-30T23:00:00.000Z') // local midnight
    expect(await iso('2026-12-01 09:00:30.5')).toBe('2026-12-01T08:00:30.500Z')
  })

  it('refuses local times that do not exist', async () => {
    await expect(parseTimeInput('2026-02-30 09:00', { now })).rejects.toThrow('"2026-02-30 09:00" is not a valid date-time')
    await expect(parseTimeInput('2026-03-29 02:30', { now })).rejects.toThrow('"2026-03-29 02:30" does not exist in Europe/Berlin (the clocks skip it for daylight saving time)')
  })

  it('understands natural phrases, forward from now, in local time', async () => {
    expect(await iso('tomorrow 9am')).toBe('2026-11-22T08:00:00.000Z')
    expect(await iso('9am')).toBe('2026-11-22T08:00:00.000Z') // 9:00 today has passed
    expect(await iso('next monday 14:30')).toBe('2026-11-23T13:30:00.000Z')
    expect(await iso('in 2 hours')).toBe('2026-11-21T14:00:00.000Z')
  })

  it('says what it accepts when it does not understand, and never half-reads', async () => {
    await expect(parseTimeInput('tomorrow 9am please', { now })).rejects.toThrow(
      '"tomorrow 9am please" is not a time I understand: use RFC 3339 (2026-11-21T09:00:00Z), a local date-time (2026-11-21 09:00) or a phrase like "tomorrow 9am" or "in 2 hours"',
    )
    await expect(parseTimeInput('soonish', { now })).rejects.toThrow('is not a time I understand')
    await expect(parseTimeInput('2h', { now })).rejects.toThrow('"2h" is a duration; use --in 2h, or say "in 2h"')
    await expect(parseTimeInput('  ', { now })).rejects.toThrow('a time is required')
  })
})

describe('parseTimeInput in the profile\'s zone', () => {
  const inZone = async (input: string, timeZone: string, dayStart = false) => new Date(await parseTimeInput(input, { now, timeZone, dayStart })).toISOString()

  it('reads wall times in the zone it is given, not the machine\'s', async () => {
    expect(await inZone('2026-12-01 09:00', 'America/New_York')).toBe('2026-12-01T14:00:00.000Z')
    expect(await inZone('tomorrow 9am', 'Asia/Tokyo')).toBe('2026-11-22T00:00:00.000Z')
    // 12:00 UTC is 21:00 in Tokyo: "9am" is tomorrow morning there.
    expect(await inZone('9am', 'Asia/Tokyo')).toBe('2026-11-22T00:00:00.000Z')
  })

  it('keeps the wall time across a DST change, and counts "in …" as elapsed time', async () => {
    // 31 October 2026, New York is on EDT (-4); 2 November it is on EST (-5).
    const before = Date.UTC(2026, 9, 31, 12, 0, 0)
    expect(new Date(await parseTimeInput('monday 9am', { now: before, timeZone: 'America/New_York' })).toISOString()).toBe('2026-11-02T14:00:00.000Z')
    expect(new Date(await parseTimeInput('in 2 days', { now: before, timeZone: 'America/New_York' })).toISOString()).toBe('2026-11-02T12:00:00.000Z')
  })

  it('takes a bare day as its start when asked (--from today is midnight, not now)', async () => {
    expect(await inZone('today', 'Europe/Berlin', true)).toBe('2026-11-20T23:00:00.000Z')
    expect(await inZone('tomorrow', 'America/New_York', true)).toBe('2026-11-22T05:00:00.000Z')
    expect(await inZone('today 15:00', 'Europe/Berlin', true)).toBe('2026-11-21T14:00:00.000Z')
  })
})

describe('parseDuration', () => {
  it('reads compact and spelled-out durations', () => {
    expect(parseDuration('2h')).toBe(7_200_000)
    expect(parseDuration('1h30m')).toBe(5_400_000)
    expect(parseDuration('1d 2h')).toBe(93_600_000)
    expect(parseDuration('90 minutes')).toBe(5_400_000)
    expect(parseDuration('1.5h')).toBe(5_400_000)
    expect(parseDuration('2w')).toBe(1_209_600_000)
    expect(parseDuration('45s')).toBe(45_000)
  })

  it('refuses anything else', () => {
    for (const input of ['', '2', 'h', '2 parsecs', '2mo', '0m', '2h and a bit']) expect(parseDuration(input)).toBeUndefined()
    expect(() => parseDurationInput('soon')).toThrow('"soon" is not a duration: use a number and a unit, like 2h, 45m, 1h30m or 3d')
    expect(parseDurationInput('2h')).toBe(7_200_000)
  })
})

describe('parseTimeOfDay', () => {
  it('reads a time of day as --at reads one: 24-hour, am/pm, noon and midnight', async () => {
    const read = async (input: string) => Object.values(await parseTimeOfDay(input)).join(':')
    expect(await Promise.all(['09:00', '9:00', '17:30', '9am', '9 AM', '5:30pm', '5:30 pm', '12am', '12pm', 'noon', 'midnight'].map(read))).toEqual([
      '9:0', '9:0', '17:30', '9:0', '9:0', '17:30', '17:30', '0:0', '12:0', '12:0', '0:0',
    ])
  })

  it('refuses what is not a time of day alone, saying what works', async () => {
    await expect(parseTimeOfDay('25:00')).rejects.toThrow('"25:00" is not a time of day; use a time of day like 09:00, 17:30, 9am or 5:30pm')
    await expect(parseTimeOfDay('9')).rejects.toThrow('"9" is not a time of day')
    await expect(parseTimeOfDay('9am sharp')).rejects.toThrow('"9am sharp" is not a time of day')
    await expect(parseTimeOfDay('tomorrow 9am')).rejects.toThrow('"tomorrow 9am" names a day, not only a time')
    await expect(parseTimeOfDay('9:30:15')).rejects.toThrow('"9:30:15" has seconds, and this takes whole minutes')
  })
})
