import { describe, expect, it } from 'vitest'
import { colorEnabled, localTime, table } from '../src/cli/output.js'

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

  it('shows API times in the local zone, to the minute', () => {
    process.env.TZ = 'America/New_York'
    expect(localTime('2026-11-21T14:30:59.000Z')).toBe('2026-11-21 09:30 EST')
    expect(localTime('2026-07-01T14:30:00.000Z')).toBe('2026-07-01 10:30 EDT')
    expect(localTime(null, 'never')).toBe('never')
  })
})
