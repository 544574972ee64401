import type { Plan } from '../src/api/common.js'
import type { Limits } from '../src/api/users.js'

/** The standard plan's limits per API key; business gets twice these. */
export const STANDARD_LIMITS: Limits = { per_minute: 100, per_hour: 5_000, per_day: 50_000 }

/** The limits a key of a user on this plan gets; enterprise limits are the operator's. */
export function limitsFor(plan: Plan, custom: Partial<Limits> = {}): Limits {
  if (plan === 'business') {
    return { per_minute: STANDARD_LIMITS.per_minute * 2, per_hour: STANDARD_LIMITS.per_hour * 2, per_day: STANDARD_LIMITS.per_day * 2 }
  }
  if (plan === 'enterprise') {
    return {
      per_minute: custom.per_minute ?? STANDARD_LIMITS.per_minute * 2,
      per_hour: custom.per_hour ?? STANDARD_LIMITS.per_hour * 2,
      per_day: custom.per_day ?? STANDARD_LIMITS.per_day * 2,
    }
  }
  return { ...STANDARD_LIMITS }
}
