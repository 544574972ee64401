import type { Migration } from './index.js'
import { draftsQueueSlots } from './0010-drafts-queue-slots.js'

/**
 * The rollup trigger on targets fires only when a change moves a figure: a target entering or
 * leaving `published` or `failed`, or its publish time changing. Before, it fired on every status
 * change, so the claim of each target (`pending` to `publishing`) and each retry (`publishing` to
 * `pending`) upserted four rollup rows with nothing to add and rewrote the target's publish
 * delay: in a burst of due posts, a third of what the trigger wrote.
 *
 * The trigger's body is 0010's, word for word (0010 is history and never changes, so neither
 * does this); only its WHEN is narrower. The figures it keeps are the same, so the rollups kept
 * so far stay right as they are.
 */
const NAME = 'analytics_target_update'
const start = draftsQueueSlots.sql.indexOf(`CREATE TRIGGER ${NAME} `)
const TRIGGER_0010 = draftsQueueSlots.sql.slice(start, draftsQueueSlots.sql.indexOf('END;', start) + 'END;'.length)
const WHEN_0010 = 'WHEN old.status IS NOT new.status OR old.published_at IS NOT new.published_at'
const COUNTED = "WHEN (old.status = 'published') <> (new.status = 'published') OR (old.status = 'failed') <> (new.status = 'failed') OR old.published_at IS NOT new.published_at"
if (start < 0 || !TRIGGER_0010.includes(WHEN_0010)) throw new Error(`Migration 13 could not find ${NAME} in migration 10.`)

export const rollupsOnCountedChanges: Migration = {
  version: 13,
  name: 'rollup trigger on targets fires only on changes it counts',
  sql: `
    DROP TRIGGER ${NAME};
    ${TRIGGER_0010.replace(WHEN_0010, COUNTED)}
  `,
}
