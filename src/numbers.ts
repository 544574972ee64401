/**
 * How every number the CLI (and the calendar) shows is written: grouped the en-US way
 * (12,345), whatever the machine's locale, so that output reads the same everywhere and
 * scripts that scrape it see one format. Each formatter is made once, when first used: it is
 * costly to build, and building one maps some 4 MB of ICU's locale data into the process for
 * good, which a daemon that only writes numbers in error messages mostly never needs.
 */
let whole: Intl.NumberFormat | undefined
let oneDecimal: Intl.NumberFormat | undefined
const wholeFormat = () => (whole ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }))
const oneDecimalFormat = () => (oneDecimal ??= new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 }))

/** A count, grouped: `12,345`. */
export function formatNumber(value: number): string {
  return wholeFormat().format(value)
}

/** A quantity to one decimal, grouped: `1,234.5`. */
export function formatDecimal(value: number): string {
  return oneDecimalFormat().format(value)
}

/** A ratio as a percentage to one decimal: 0.875 is `87.5%`. */
export function formatPercent(ratio: number): string {
  return `${oneDecimalFormat().format(ratio * 100)}%`
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, tib: 1024 ** 4 }

/** A size as people write it (`20MB`, `1 GiB`, `512000`): bytes; undefined if it is not one. */
export function parseSize(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text)
  const unit = match && SIZE_UNITS[match[2]!.toLowerCase()]
  return unit === undefined || unit === null ? undefined : Math.round(Number(match![1]) * unit)
}

/** Bytes as people read them, in the largest decimal unit that keeps the number at least 1: `20 MB`, `1.5 GB`. */
export function formatSize(bytes: number): string {
  for (const [unit, size] of [['TB', 1e12], ['GB', 1e9], ['MB', 1e6], ['kB', 1e3]] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`
  }
  return `${bytes} bytes`
}
