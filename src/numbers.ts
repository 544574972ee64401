/**
 * How every number the CLI (and the calendar) shows is written: grouped the en-US way
 * (12,345), whatever the machine's locale, so that output reads the same everywhere and
 * scripts that scrape it see one format. Made once: a formatter is costly to build.
 */
const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
const ONE_DECIMAL = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })

/** A count, grouped: `12,345`. */
export function formatNumber(value: number): string {
  return WHOLE.format(value)
}

/** A quantity to one decimal, grouped: `1,234.5`. */
export function formatDecimal(value: number): string {
  return ONE_DECIMAL.format(value)
}

/** A ratio as a percentage to one decimal: 0.875 is `87.5%`. */
export function formatPercent(ratio: number): string {
  return `${ONE_DECIMAL.format(ratio * 100)}%`
}
