import { StoreUnavailableError } from './port.js'

/**
 * Runs `work` until it is not refused for the database being out of reach: what a background
 * loop does with an outcome it already knows (a publish's, a webhook attempt's), so that an
 * outage delays writing it instead of losing it. Gives up, rethrowing, once `giveUp()` says so
 * (the daemon is stopping). Any other error is rethrown at once.
 */
export async function whileUnavailable<T>(work: () => Promise<T>, giveUp: () => boolean, waitMs = 500): Promise<T> {
  for (;;) {
    try {
      return await work()
    } catch (error) {
      if (!(error instanceof StoreUnavailableError) || giveUp()) throw error
      await new Promise((resolve) => setTimeout(resolve, waitMs))
    }
  }
}
