import { describe, expect, it } from 'vitest'
import { colorEnabled, details, localTime, table } from '../src/cli/output.js'
import { oneLine } from '../src/cli/post-output.js'
import { SINGLE_COLUMN, displayWidth, printable } from '../src/display-width.js'
import { clip, oneLine as calendarLine } from '../src/tui/post-style.js'

const graphemesOf = (text: string) => Array.from(new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text), (s) => s.segment)

describe('human output', () => {
  it('colours only a terminal, never with NO_COLOR, always with FORCE_COLOR', () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true)
    expect(colorEnabled({ isTTY: false }, {})).toBe(false)
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false)
    expect(colorEnabled({ isTTY: true }, { TERM: 'dumb' })).toBe(false)
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true)
  })

  it('aligns columns by what shows, not by colour codes', () => {
    const rows = [
      { id: 'key_1', status: 'active' },
      { id: 'key_22', status: 'revoked' },
    ]
    const columns = [
      { header: 'ID', value: (r: (typeof rows)[0]) => r.id, style: () => 'green' as const },
      { header: 'STATUS', value: (r: (typeof rows)[0]) => r.status },
    ]
    expect(table(rows, columns, false)).toBe('ID      STATUS\nkey_1   active\nkey_22  revoked')
    const coloured = table(rows, columns, true).replace(/\u001b\[\d+m/g, '')
    expect(coloured).toBe('ID      STATUS\nkey_1   active\nkey_22  revoked')
  })

  it('shows control characters in tables, details, posts and the calendar as symbols, with the colours still its own', () => {
    const hostile = 'a\u001b[2J\u0007\u0000\r\nb\tc\u007f\u0085\u009b'
    const shown = 'a␛[2J␇␀␍␊b␉c␡\ufffd\ufffd'
    expect(printable(hostile)).toBe(shown)
    expect(printable(hostile, { lines: true })).toBe('a␛[2J␇␀\nb\tc␡\ufffd\ufffd')
    expect(table([{ name: hostile }], [{ header: 'NAME', value: (r) => r.name }, { header: 'ID', value: () => 'x' }], false)).toBe(`NAME${' '.repeat(shown.length - 4)}  ID\n${shown}  x`)
    expect(details([['Name', hostile, 'green']], true)).toBe(`\u001b[2mName:\u001b[22m \u001b[32m${shown}\u001b[39m`)
    expect(oneLine(hostile, 80)).toBe('a␛[2J␇␀ ↵ b c␡\ufffd\ufffd')
    expect(calendarLine(hostile)).toBe('a␛[2J␇␀ b␉c␡\ufffd\ufffd')
  })

  it('aligns columns by the columns a name takes on screen: emoji with skin tones, flags, CJK, accents', () => {
    const rows = [{ name: '👩🏽‍🌾 Farm' }, { name: '日本茶' }, { name: 'Cafe\u0301 🇫🇷' }, { name: 'Plain' }]
    const lines = table(rows, [{ header: 'NAME', value: (r) => r.name }, { header: 'ID', value: () => 'x' }], false).split('\n')
    // Every "x" sits in the same terminal column.
    const columns = lines.map((line) => displayWidth(line.slice(0, line.lastIndexOf(line.endsWith('ID') ? 'ID' : 'x'))))
    expect(new Set(columns).size, lines.join('\n')).toBe(1)
    expect(columns[0]).toBe(9) // '👩🏽‍🌾 Farm' is 7 columns wide, then two spaces
  })

  it('clips calendar text to a width in columns, never inside a grapheme cluster', () => {
    const text = '👩🏽‍🌾👍🏽🇩🇪日本e\u0301x and more'
    const clusters = new Set(graphemesOf(text))
    for (let width = 1; width <= 20; width++) {
      const clipped = clip(text, width)
      expect(displayWidth(clipped), `width ${width}: ${clipped}`).toBeLessThanOrEqual(width)
      for (const cluster of graphemesOf(clipped.replace(/…$/, ''))) expect(clusters.has(cluster), `width ${width}: ${clipped}`).toBe(true)
    }
    expect(clip(text, 6)).toBe('👩🏽‍🌾👍🏽…')
    expect(clip('short', 5)).toBe('short')
  })

  it('measures and cuts Latin text without segmenting it, as segmenting would: a code point a cluster a column', () => {
    const ranges = SINGLE_COLUMN.source.match(/\\u[0-9a-f]{4}-\\u[0-9a-f]{4}|\\u[0-9a-f]{4}|\\x[0-9a-f]{2}-\\x[0-9a-f]{2}/g)!
    const codePoints = ranges.flatMap((range) => {
      const [from, to = from] = range.split('-').map((end) => parseInt(end.slice(2), 16))
      return Array.from({ length: to! - from! + 1 }, (_, i) => from! + i)
    })
    expect(codePoints.length).toBeGreaterThan(500)
    const text = String.fromCodePoint(...codePoints)
    expect(SINGLE_COLUMN.test(text)).toBe(true)
    // Each its own cluster, even beside the others; none a control, mark or joiner; none an emoji.
    expect(graphemesOf(text)).toHaveLength(codePoints.length)
    const others = [/[\p{Cc}\p{Cf}\p{Mn}\p{Me}\p{Default_Ignorable_Code_Point}]/u, new RegExp('^\\p{RGI_Emoji}$', 'v')]
    for (const c of text) expect(others.some((pattern) => pattern.test(c)), `U+${c.codePointAt(0)!.toString(16)}`).toBe(false)
    expect(SINGLE_COLUMN.test('e\u0301'), 'a combining accent').toBe(false)
    expect(SINGLE_COLUMN.test('a\u00adb'), 'a soft hyphen').toBe(false)

    expect(oneLine('Crème brûlée — “à la carte”\nsee you at 9', 20)).toBe('Crème brûlée — “à l…')
    expect(oneLine('Tea\n\nat five', 50)).toBe('Tea ↵ ↵ at five')
    expect(oneLine('日本茶を飲みましょう', 9)).toBe('日本茶を…')
    expect(displayWidth(oneLine('日本茶を飲みましょう', 9))).toBeLessThanOrEqual(9)
  })

  it('shows API times in the local zone, to the minute', () => {
    // The worker runs other test files after this one: they get the zone they started with back.
    const startZone = process.env.TZ
    process.env.TZ = 'America/New_York'
    try {
      expect(localTime('2026-11-21T14:30:59.000Z')).toBe('2026-11-21 09:30 EST')
      expect(localTime('2026-07-01T14:30:00.000Z')).toBe('2026-07-01 10:30 EDT')
      expect(localTime(null, 'never')).toBe('never')
    } finally {
      if (startZone === undefined) delete process.env.TZ
      else process.env.TZ = startZone
    }
  })
})
