import * as v from 'valibot'
import { DatabaseUnreachableError, openStore, StoreNotFoundError, StoreUnopenableError, type Store } from '../../daemon/store/index.js'
import { ApiError } from '../errors.js'
import { fieldErrors } from '../validate.js'
import { BaseCommand } from './base-command.js'
import { CommandError, usageError } from './command-error.js'
import { EXIT } from './exit-codes.js'
import { databaseUrl, dataDir } from './flags.js'

/**
 * The base of `smm admin …`: commands for the operator, on the daemon's host, that work on the
 * store directly, through the same port as the daemon: the data dir's SQLite file (in WAL mode,
 * beside a live daemon) or the PostgreSQL database the daemons share.
 */
export abstract class AdminCommand extends BaseCommand {
  static override baseFlags = { ...BaseCommand.baseFlags, 'data-dir': dataDir, 'database-url': databaseUrl }

  /**
   * A flag's or argument's value checked by the API's own schema for that field (a name, say),
   * since admin commands write to the store without the daemon's validation: a usage error
   * naming it, as the API's 422 would name the field.
   */
  protected valid<S extends v.GenericSchema>(schema: S, value: unknown, name: string): v.InferOutput<S> {
    const result = v.safeParse(schema, value)
    if (result.success) return result.output
    throw usageError('invalid_flag', `${name}: ${fieldErrors(result.issues).map((e) => e.detail).join('; ')}.`)
  }

  /** Opens the store, runs `work` with it and closes it whatever happens. */
  protected async withStore<T>(flags: { 'data-dir': string; 'database-url'?: string }, work: (store: Store) => Promise<T>): Promise<T> {
    let store: Store
    try {
      store = await openStore({ dataDir: flags['data-dir'], databaseUrl: flags['database-url'] }, { existing: true })
    } catch (error) {
      if (error instanceof DatabaseUnreachableError) throw new ApiError(503, 'store_unavailable', error.message)
      if (error instanceof StoreNotFoundError) throw new CommandError('no_database', error.message, EXIT.notFound)
      // A database that is there but cannot be opened is not "not found": it exits as an error.
      if (error instanceof StoreUnopenableError) throw new CommandError('store_unopenable', error.message, EXIT.error)
      throw error
    }
    try {
      return await work(store)
    } finally {
      await store.close()
    }
  }
}
