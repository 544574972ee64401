import type { Migration } from './index.js'
import { triggerOf } from './trigger-text.js'
import { delaysKeyedByAccount } from './0027-delays-keyed-by-account.js'

/**
 * A published target's delay goes first to a journal, as its rollup changes do (migration 23),
 * and the journal is folded into publish_delays DELAY_FOLD_AT rows at a time, in key order. The
 * delays of a year's outcomes arriving out of order fall at random places in a tree far bigger
 * than the page cache: written one by one, nearly every entry read a page and wrote it back (to
 * the savepoint's journal and to the log); written in key order, a fold visits each page of the
 * tree once for all its rows that fall in it, and an entry costs an append.
 *
 * The journal holds only delays the tree does not (its rows are added, never taken back): every
 * write that takes a delay away (a target no longer published, a post moved, cancelled or
 * deleted) first folds the journal, when the target or post it changes has a published target,
 * then drops the delay from the tree as before. Such writes are rare and a fold takes tens of
 * milliseconds (about 60 ms of CPU at 100,000 posts), while a report then reads the journal's delays beside the tree's, by value, with
 * nothing to cancel (daemon/store/sqlite/analytics.ts). A delay is added, never changed in place,
 * so the journal never names a key twice.
 *
 * The triggers that write delays (27's, in force) are made again, word for word but for where
 * they add a delay and the fold before they drop one.
 *
 * (docs/benchmarks.md, "What analytics bookkeeping costs".)
 */

/** The journal's size at which it is folded into publish_delays. */
export const DELAY_FOLD_AT = 16_384

const KEY = 'workspace_id, account_id, scheduled_at, post_id, platform'

/** Folds the journal into the tree, in key order, when `when` holds (SQL; constant for the statement). */
export const foldDelays = (when = 'true') => `
      INSERT INTO publish_delays (${KEY}, delay) SELECT ${KEY}, delay FROM publish_delays_pending WHERE ${when} ORDER BY 1, 2, 3, 4, 5;
      DELETE FROM publish_delays_pending WHERE ${when};`

const PUBLISHED_TARGET = (post: string) => `EXISTS (SELECT 1 FROM post_targets t WHERE t.post_id = ${post} AND t.status = 'published')`
// Which of the triggers' delays a change can take away, for the fold before it drops them.
const DROPS: Record<string, string> = {
  analytics_target_update: "old.status = 'published'",
  analytics_target_delete: "old.status = 'published'",
  analytics_post_moved: PUBLISHED_TARGET('old.id'),
  analytics_post_delete: PUBLISHED_TARGET('old.id'),
}
const ADD = 'INSERT INTO publish_delays (workspace_id, scheduled_at, post_id, platform, account_id, delay)'

const TRIGGERS = ['analytics_target_insert', ...Object.keys(DROPS)].map((name) => {
  const trigger = triggerOf(delaysKeyedByAccount.sql, name, 29)
  const drop = DROPS[name]
  const journaled = trigger
    .replaceAll(ADD, 'INSERT INTO publish_delays_pending (workspace_id, scheduled_at, post_id, platform, account_id, delay)')
    .replace(/DELETE FROM publish_delays WHERE/g, (statement) => (drop ? `${foldDelays(drop).trim()}\n      ${statement}` : statement))
  const drops = (journaled.match(/DELETE FROM publish_delays WHERE/g) ?? []).length
  if (journaled.includes(ADD) || (drop ? drops !== 1 || !journaled.includes(foldDelays(drop).trim()) : drops !== 0)) throw new Error(`Migration 29 could not rewrite ${name}.`)
  return [name, journaled] as const
})

export const delaysJournaled: Migration = {
  version: 29,
  name: 'publish delays journaled and folded into their tree in key order',
  sql: `
    CREATE TABLE publish_delays_pending (
      workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
      account_id TEXT NOT NULL,
      scheduled_at INTEGER NOT NULL,
      post_id TEXT NOT NULL,
      platform TEXT NOT NULL,
      delay INTEGER NOT NULL
    );

    CREATE TRIGGER analytics_delays_fold AFTER INSERT ON publish_delays_pending WHEN new.rowid >= ${DELAY_FOLD_AT} BEGIN
      ${foldDelays().trim()}
    END;

    ${TRIGGERS.map(([name]) => `DROP TRIGGER ${name};`).join('\n    ')}

    ${TRIGGERS.map(([, sql]) => sql).join('\n\n    ')}
  `,
}
