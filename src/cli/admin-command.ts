import { openExistingStore, type Store } from '../../daemon/store/index.js'
import { ApiError } from '../errors.js'
import { BaseCommand } from './base-command.js'
import { dataDir } from './flags.js'

/**
 * The base of `smm admin …`: commands for the operator, on the daemon's host, that work on the
 * data dir directly (SQLite in WAL mode lets them run beside a live daemon).
 */
export abstract class AdminCommand extends BaseCommand {
  static override baseFlags = { ...BaseCommand.baseFlags, 'data-dir': dataDir }

  /** Opens the data dir's store, runs `work` with it and closes it whatever happens. */
  protected async withStore<T>(dir: string, work: (store: Store) => Promise<T>): Promise<T> {
    let store: Store
    try {
      store = openExistingStore(dir)
    } catch (error) {
      throw new ApiError(404, 'not_found', (error as Error).message)
    }
    try {
      return await work(store)
    } finally {
      await store.close()
    }
  }
}
