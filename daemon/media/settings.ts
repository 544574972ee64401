import type { Plan } from '../../src/api/common.js'
import type { MediaType } from '../../src/api/media.js'
import type { MediaStore } from './port.js'

/** What one upload may weigh, by kind; the operator's flags change them. */
export interface MediaLimits {
  imageBytes: number
  videoBytes: number
}

export const DEFAULT_MEDIA_LIMITS: MediaLimits = { imageBytes: 20_000_000, videoBytes: 1_000_000_000 }

/** How much media each plan's user may keep, in bytes (null: no quota); the operator's flags change them. */
export type MediaQuotas = Record<Plan, number | null>

export const DEFAULT_MEDIA_QUOTAS: MediaQuotas = { standard: 5_000_000_000, business: 50_000_000_000, enterprise: 500_000_000_000 }

/** What the API needs to take and serve media. */
export interface MediaService {
  /** Where the bytes are. */
  store: MediaStore
  limits: MediaLimits
  quotas: MediaQuotas
}

export const limitFor = (limits: MediaLimits, type: MediaType) => (type.startsWith('video/') ? limits.videoBytes : limits.imageBytes)
