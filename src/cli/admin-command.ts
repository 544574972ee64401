import { databaseFileOf, DatabaseUnreachableError, openExistingStore, StoreNotFoundError, type Store } from '../../daemon/store/index.js'
import { ApiError } from '../errors.js'
import { BaseCommand } from './base-command.js'
import { CommandError } from './command-error.js'
import { EXIT } from './exit-codes.js'
import { databaseUrl, dataDir } from './flags.js'

/**
 * The base of `smm admin …`: commands for the operator, on the daemon's host, that work on the
 * store directly, through the same port as the daemon: the data dir's SQLite file (in WAL mode,
 * beside a live daemon) or the PostgreSQL database the daemons share.
 */
export abstract class AdminCommand extends BaseCommand {
  static override baseFlags = { ...BaseCommand.baseFlags, 'data-dir': dataDir, 'database-url': databaseUrl }

  /** Opens the store, runs `work` with it and closes it whatever happens. */
  protected async withStore<T>(flags: { 'data-dir': string; 'database-url'?: string }, work: (store: Store) => Promise<T>): Promise<T> {
    let store: Store
    try {
      store = await openExistingStore({ dataDir: flags['data-dir'], databaseUrl: flags['database-url'] })
    } catch (error) {
      if (error instanceof DatabaseUnreachableError) throw new ApiError(503, 'store_unavailable', error.message)
      if (error instanceof StoreNotFoundError) throw new CommandError('no_database', error.message, EXIT.notFound)
      // A database that is there but cannot be opened (unreadable, not a database, a newer
      // schema, a lock) is not "not found": say which file, and why, and exit as an error.
      const where = flags['database-url'] ? 'the PostgreSQL database' : databaseFileOf(flags['data-dir'])
      const why = (error as Error).message
      throw new CommandError('store_unopenable', why.includes(where) ? why : `Cannot open ${where}: ${why}`, EXIT.error)
    }
    try {
      return await work(store)
    } finally {
      await store.close()
    }
  }
}
