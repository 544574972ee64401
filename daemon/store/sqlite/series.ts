import { newId } from '../../../src/ids.js'
import { LATE_OCCURRENCE_MS, nextOccurrence, type SeriesEnd } from '../../../src/recurrence.js'
import type { Actor, NewRepeat } from '../port.js'
import { mediaIdsOf } from '../../../src/post-parts.js'
import { mediaReferences } from './media.js'
import { newRepeatRule, occurrenceRow, templateMedia, seriesRuleOf, seriesTemplateOf, type PostRow, type RepeatRule } from '../rows.js'
import type { Db } from './db.js'
import type { eventsStore } from './events.js'
import { postReader } from './post-reader.js'

interface SeriesRow {
  id: string
  template: string
  last_occurrence: number
  ended_at: number | null
  /** 1 until one of its occurrences is approved, for a series begun by a post waiting for approval. */
  awaiting_approval: number
}

/**
 * A post's targets, one per platform of its JSON array, in one statement. A target's row fires
 * the analytics trigger, so a statement that inserts targets keeps a statement journal: every
 * page it changes is copied there first (to a file, once a caller's savepoint holds more than
 * 64 KiB of them: a batch of posts, the analytics benchmark's seeding). One statement per post
 * copies the targets' pages once, where a statement per target copied them again for each.
 */
export const INSERT_TARGETS = "INSERT INTO post_targets (post_id, platform, status) SELECT ?, value, 'pending' FROM json_each(?)"

/**
 * A series' steps, each run inside the transaction of the change that causes it (creating its
 * first post, an occurrence's final state, a cancel), so the step and that change commit
 * together. Synchronous on purpose, like `appendSync`.
 */
export function seriesSteps(db: Db, events: ReturnType<typeof eventsStore>) {
  const reader = postReader(db)
  // Prepared on first use: a database from before media (a migration's own test) has no such tables.
  let references: ReturnType<typeof mediaReferences> | undefined
  const media = () => (references ??= mediaReferences(db))
  const insertSeries = db.prepare<[string, string, string, string, string, number, number], void>(
    'INSERT INTO post_series (id, workspace_id, user_id, account_id, template, last_occurrence, awaiting_approval, created_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?)',
  )
  const markFirst = db.prepare<[string, string, string], void>('UPDATE posts SET series_id = ?, occurrence = 1, repeat_rule = ? WHERE id = ?')
  const seriesById = db.prepare<[string], SeriesRow>('SELECT id, template, last_occurrence, ended_at, awaiting_approval FROM post_series WHERE id = ?')
  const approved = db.prepare<[string], void>('UPDATE post_series SET awaiting_approval = 0 WHERE id = ?')
  const setLast = db.prepare<[number, string], void>('UPDATE post_series SET last_occurrence = ? WHERE id = ?')
  const end = db.prepare<[number, string], void>('UPDATE post_series SET ended_at = ? WHERE id = ?')
  // One statement per set of columns (a template written before a column joined the list lacks it).
  const inserts = new Map<string, ReturnType<Db['prepare']>>()
  function insertOccurrence(row: Record<string, unknown>): void {
    const columns = Object.keys(row)
    const key = columns.join(',')
    let insert = inserts.get(key)
    if (!insert) inserts.set(key, (insert = db.prepare(`INSERT INTO posts (${key}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`)))
    insert.run(row)
  }
  const insertTargets = db.prepare<[string, string], void>(INSERT_TARGETS)
  // The occurrences still to go out: scheduled, or waiting for (or sent back from) approval.
  const upcoming = "('scheduled', 'pending_approval', 'rejected')"
  const scheduledOf = db.prepare<[string], { id: string }>(`SELECT id FROM posts WHERE series_id = ? AND status IN ${upcoming} ORDER BY occurrence`)
  const cancel = db.prepare<[number, number, string], void>(
    `UPDATE posts SET status = 'cancelled', cancelled_at = ?, updated_at = ?, version = version + 1 WHERE id = ? AND status IN ${upcoming}`,
  )

  function ended(row: PostRow, reason: SeriesEnd, seriesId: string, now: number, by: Actor): void {
    end.run(now, seriesId)
    events.appendSync(row.workspace_id, 'post.series_ended', { ...reader.recordFromRow(row).post, reason }, now, by)
  }

  return {
    /** Makes a post just inserted the first occurrence of a new series, its template taken from its row. */
    startSync(postId: string, repeat: NewRepeat, now: number): void {
      const row = reader.rowSync(postId)!
      const seriesId = newId('ser', now)
      const rule = newRepeatRule(repeat, row)
      const first = { ...row, series_id: seriesId, occurrence: 1, repeat_rule: JSON.stringify(rule) }
      insertSeries.run(seriesId, row.workspace_id, row.user_id, row.account_id, seriesTemplateOf(first), row.status === 'pending_approval' ? 1 : 0, now)
      markFirst.run(seriesId, first.repeat_rule, postId)
    },

    /**
     * After an occurrence ended (its final state, or cancelled alone): creates the series' next
     * occurrence with `post.scheduled` (waiting for approval, with `post.approval_requested`, while
     * no occurrence of the series has been approved), or records its end with
     * `post.series_ended`. Only the occurrence created last moves its series on, so each step
     * happens once, however often an older occurrence is retried.
     */
    advanceSync(postId: string, now: number, by: Actor): void {
      const row = reader.rowSync(postId)
      if (!row?.series_id || !row.repeat_rule) return
      const series = seriesById.get(row.series_id)
      if (!series || series.ended_at !== null || series.last_occurrence !== row.occurrence) return
      const next = nextOccurrence(seriesRuleOf(JSON.parse(row.repeat_rule) as RepeatRule), row.occurrence, now, LATE_OCCURRENCE_MS)
      if ('end' in next) return ended(row, next.end, series.id, now, by)
      const waiting = series.awaiting_approval === 1
      const occurrence = occurrenceRow(series.template, newId('pst', now), next.occurrence, next.at, now, waiting ? 'pending_approval' : 'scheduled')
      insertOccurrence(occurrence)
      insertTargets.run(occurrence.id, occurrence.platforms)
      // The media the series names, those still there (a media named by a scheduled post cannot be deleted).
      media().setSync(occurrence.id, mediaIdsOf(templateMedia(occurrence)), now)
      setLast.run(next.occurrence, series.id)
      events.appendSync(row.workspace_id, waiting ? 'post.approval_requested' : 'post.scheduled', reader.recordSync(occurrence.id)!.post, now, by)
    },

    /** One occurrence of a series was approved: the ones after it are scheduled as they come. */
    approveSync(seriesId: string): void {
      approved.run(seriesId)
    },

    /** Stops a post's series: its occurrences still to go out cancelled (each with `post.cancelled`), then `post.series_ended`. */
    stopSync(postId: string, now: number, by: Actor): void {
      const row = reader.rowSync(postId)
      if (!row?.series_id) return
      const series = seriesById.get(row.series_id)
      if (!series || series.ended_at !== null) return
      for (const { id } of scheduledOf.all(series.id)) {
        cancel.run(now, now, id)
        events.appendSync(row.workspace_id, 'post.cancelled', reader.recordSync(id)!.post, now, by)
      }
      ended(reader.rowSync(postId)!, 'cancelled', series.id, now, by)
    },
  }
}
