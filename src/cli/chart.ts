/** Drawing numbers in a terminal: sparklines and horizontal bars, with gaps for missing values. */

const TICKS = '▁▂▃▄▅▆▇█'
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉']

/** The largest value, or 0 when there is none above 0 (everything then draws as empty). */
function peak(values: readonly (number | null)[]): number {
  return Math.max(0, ...values.filter((v): v is number => v !== null))
}

/**
 * One character per value, scaled to the largest: zero is the lowest tick and anything above
 * zero at least the second, so "nothing" and "a little" look different; a missing value is `·`.
 */
export function sparkline(values: readonly (number | null)[]): string {
  const max = peak(values)
  return values
    .map((v) => {
      if (v === null) return '·'
      if (v <= 0 || max === 0) return TICKS[0]
      return TICKS[1 + Math.min(TICKS.length - 2, Math.floor((v / max) * (TICKS.length - 1)))]
    })
    .join('')
}

/** A bar of `value / max` of `width` cells, drawn to an eighth of a cell. */
export function bar(value: number | null, max: number, width: number): string {
  if (value === null || value <= 0 || max <= 0) return ''
  const eighths = Math.max(1, Math.round((Math.min(value, max) / max) * width * 8))
  return '█'.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8]
}

/** Labelled horizontal bars, one line each: `label  ████▌      value`, the values aligned. */
export function barChart(rows: readonly { label: string; value: number | null; text: string }[], width = 40): string[] {
  const max = peak(rows.map((r) => r.value))
  const labelWidth = Math.max(0, ...rows.map((r) => r.label.length))
  const textWidth = Math.max(0, ...rows.map((r) => r.text.length))
  return rows.map((r) => `${r.label.padEnd(labelWidth)}  ${bar(r.value, max, width).padEnd(width)}  ${r.text.padStart(textWidth)}`.trimEnd())
}
