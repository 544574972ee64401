import { newId } from '../../../src/ids.js'
import { LATE_OCCURRENCE_MS, nextOccurrence, type SeriesEnd } from '../../../src/recurrence.js'
import type { PlatformName } from '../../platforms/types.js'
import type { Actor, NewRepeat } from '../port.js'
import { mediaIdsOf } from '../../../src/post-parts.js'
import { setPostMedia } from './media.js'
import { newRepeatRule, occurrenceRow, templateMedia, seriesRuleOf, seriesTemplateOf, type PostRow, type RepeatRule } from '../rows.js'
import type { Queryable } from './connect.js'
import { appendEvent } from './events.js'
import { recordOf } from './post-records.js'

// A series' steps, each run on the transaction of the change that causes it (creating its first
// post, an occurrence's final state, a cancel), so the step and that change commit together.
// The series row is locked (FOR UPDATE) before it is read: of several nodes settling or
// cancelling occurrences of one series at once, each sees what the one before it wrote.

interface SeriesRow {
  id: string
  template: string
  last_occurrence: number
  ended_at: number | null
  awaiting_approval: number
}

async function lockedSeries(tx: Queryable, id: string): Promise<SeriesRow | undefined> {
  const [row] = await tx<SeriesRow[]>`SELECT id, template, last_occurrence, ended_at, awaiting_approval FROM post_series WHERE id = ${id} FOR UPDATE`
  return row
}

async function ended(tx: Queryable, postId: string, workspaceId: string, reason: SeriesEnd, seriesId: string, now: number, by: Actor): Promise<void> {
  await tx`UPDATE post_series SET ended_at = ${now} WHERE id = ${seriesId}`
  await appendEvent(tx, workspaceId, 'post.series_ended', { ...(await recordOf(tx, postId))!.post, reason }, now, by)
}

/** One occurrence of a series was approved: the ones after it are scheduled as they come. */
export async function approveSeries(tx: Queryable, seriesId: string): Promise<void> {
  await tx`UPDATE post_series SET awaiting_approval = 0 WHERE id = ${seriesId}`
}

/** Makes a post just inserted the first occurrence of a new series, its template taken from its row. */
export async function startSeries(tx: Queryable, postId: string, repeat: NewRepeat, now: number): Promise<void> {
  const [row] = await tx<PostRow[]>`SELECT * FROM posts WHERE id = ${postId}`
  const seriesId = newId('ser', now)
  const rule = newRepeatRule(repeat, row!)
  const first = { ...row!, series_id: seriesId, occurrence: 1, repeat_rule: JSON.stringify(rule) }
  await tx`
    INSERT INTO post_series (id, workspace_id, user_id, account_id, template, last_occurrence, awaiting_approval, created_at)
    VALUES (${seriesId}, ${first.workspace_id}, ${first.user_id}, ${first.account_id}, ${seriesTemplateOf(first)}, 1, ${first.status === 'pending_approval' ? 1 : 0}, ${now})`
  await tx`UPDATE posts SET series_id = ${seriesId}, occurrence = 1, repeat_rule = ${first.repeat_rule} WHERE id = ${postId}`
}

/**
 * After an occurrence ended (its final state, or cancelled alone): creates the series' next
 * occurrence with `post.scheduled` (waiting for approval, with `post.approval_requested`, while
 * no occurrence of the series has been approved), or records its end with `post.series_ended`.
 * Only the occurrence created last moves its series on, so each step happens once, however
 * often an older occurrence is retried and however many nodes settle at once.
 */
export async function advanceSeries(tx: Queryable, row: PostRow, now: number, by: Actor): Promise<void> {
  if (!row.series_id || !row.repeat_rule || row.occurrence === null) return
  const series = await lockedSeries(tx, row.series_id)
  if (!series || series.ended_at !== null || series.last_occurrence !== row.occurrence) return
  const next = nextOccurrence(seriesRuleOf(JSON.parse(row.repeat_rule) as RepeatRule), row.occurrence, now, LATE_OCCURRENCE_MS)
  if ('end' in next) return ended(tx, row.id, row.workspace_id, next.end, series.id, now, by)
  const waiting = series.awaiting_approval === 1
  const occurrence = occurrenceRow(series.template, newId('pst', now), next.occurrence, next.at, now, waiting ? 'pending_approval' : 'scheduled')
  await tx`INSERT INTO posts ${tx(occurrence as Record<string, string | number | null>)}`
  const platforms = JSON.parse(occurrence.platforms) as PlatformName[]
  await tx`INSERT INTO post_targets ${tx(platforms.map((platform) => ({ post_id: occurrence.id, platform, status: 'pending' })))}`
  // The media the series names, those still there (a media named by a scheduled post cannot be deleted).
  await setPostMedia(tx, occurrence.id, mediaIdsOf(templateMedia(occurrence)), now)
  await tx`UPDATE post_series SET last_occurrence = ${next.occurrence} WHERE id = ${series.id}`
  await appendEvent(tx, row.workspace_id, waiting ? 'post.approval_requested' : 'post.scheduled', (await recordOf(tx, occurrence.id))!.post, now, by)
}

/** Stops a post's series: its occurrences still to go out cancelled (each with `post.cancelled`), then `post.series_ended`. */
export async function stopSeries(tx: Queryable, row: PostRow, now: number, by: Actor): Promise<void> {
  if (!row.series_id) return
  const series = await lockedSeries(tx, row.series_id)
  if (!series || series.ended_at !== null) return
  const cancelled = await tx<{ id: string }[]>`
    UPDATE posts SET status = 'cancelled', cancelled_at = ${now}, updated_at = ${now}, version = version + 1
     WHERE series_id = ${series.id} AND status IN ('scheduled', 'pending_approval', 'rejected')
    RETURNING id, occurrence`
  for (const { id } of [...cancelled].sort((a, b) => a.id.localeCompare(b.id))) {
    await appendEvent(tx, row.workspace_id, 'post.cancelled', (await recordOf(tx, id))!.post, now, by)
  }
  await ended(tx, row.id, row.workspace_id, 'cancelled', series.id, now, by)
}
