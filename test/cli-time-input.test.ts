import { beforeAll, describe, expect, it } from 'vitest'
import { parseDuration, parseDurationInput, parseTimeInput } from '../src/cli/time-input.js'

// Berlin has DST, and is ahead of UTC: a zone bug shows up as an hour or two off.
beforeAll(() => {
  process.env.TZ = 'Europe/Berlin'
})

// Saturday 21 November 2026, 12:00 UTC = 13:00 in Berlin.
const now = Date.UTC(2026, 10, 21, 12, 0, 0)
const iso = async (input: string) => new Date(await parseTimeInput(input, now)).toISOString()

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
    await expect(parseTimeInput('2026-02-30 09:00', now)).rejects.toThrow('"2026-02-30 09:00" is not a valid date-time')
    await expect(parseTimeInput('2026-03-29 02:30', now)).rejects.toThrow('does not exist in your time zone')
  })

  it('understands natural phrases, forward from now, in local time', async () => {
    expect(await iso('tomorrow 9am')).toBe('2026-11-22T08:00:00.000Z')
    expect(await iso('9am')).toBe('2026-11-22T08:00:00.000Z') // 9:00 today has passed
    expect(await iso('next monday 14:30')).toBe('2026-11-23T13:30:00.000Z')
    expect(await iso('in 2 hours')).toBe('2026-11-21T14:00:00.000Z')
  })

  it('says what it accepts when it does not understand, and never half-reads', async () => {
    await expect(parseTimeInput('tomorrow 9am please', now)).rejects.toThrow(
      '"tomorrow 9am please" is not a time I understand: use RFC 3339 (2026-11-21T09:00:00Z), a local date-time (2026-11-21 09:00) or a phrase like "tomorrow 9am" or "in 2 hours"',
    )
    await expect(parseTimeInput('soonish', now)).rejects.toThrow('is not a time I understand')
    await expect(parseTimeInput('2h', now)).rejects.toThrow('"2h" is a duration; use --in 2h, or say "in 2h"')
    await expect(parseTimeInput('  ', now)).rejects.toThrow('a time is required')
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
