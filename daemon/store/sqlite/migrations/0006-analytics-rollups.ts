import type { Migration } from './index.js'

/**
 * What GET /v1/analytics sums, kept summed by UTC hour; the publish delays its medians are taken
 * from, kept narrow and in time order; and the targets with engagements, ranked, for top_posts.
 *
 * UTC hours, not the user's local days: any local day, week or month in a whole-hour zone is a
 * run of whole UTC hours, so a timezone change costs nothing; a zone on a half or quarter hour
 * reads its bucket edges from the raw rows (daemon/store/analytics.ts).
 *
 * Triggers keep both tables, so every write that changes a figure (a post created, moved,
 * cancelled or retried, its platforms redrawn, a target settled, a snapshot recorded, a row
 * deleted by a cascade) updates them in its own transaction, whatever code path made it. A
 * target's figures come in two independent parts, each kept by the table it lives in: its
 * counts (post_targets) and its latest metrics (target_metrics); a post's own triggers move
 * both when the post moves to another hour, is cancelled or is deleted.
 */

export const HOUR_MS = 3_600_000

/** The UTC hour an instant falls in (floor, also before 1970). */
const hourOf = (ms: string) => `((${ms} - ((${ms} % ${HOUR_MS}) + ${HOUR_MS}) % ${HOUR_MS}) / ${HOUR_MS})`

const METRICS = ['impressions', 'likes', 'reposts', 'replies', 'quotes', 'clicks', 'engagements'] as const

/** Every summed column, each count beside the sum of a nullable metric: 0 of them is "none reported". */
export const ROLLUP_COLUMNS = [
  'scheduled',
  'published',
  'failed',
  'impressions',
  'impressions_n',
  'likes',
  'likes_n',
  'reposts',
  'reposts_n',
  'replies',
  'replies_n',
  'quotes',
  'quotes_n',
  'clicks',
  'clicks_n',
  'engagements',
  'engagements_n',
  'rated_engagements',
  'rated_impressions',
  'rated_n',
] as const

const FOUR_ROWS = '(SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) s'
const scopeOf = (account: string) => `CASE WHEN s.k & 1 THEN '*' ELSE ${account} END`
const platformOf = (platform: string) => `CASE WHEN s.k & 2 THEN '*' ELSE ${platform} END`

/** A target's counts, times `sign`, from its status expression. */
function targetPart(sign: string, status: string): Record<string, string> {
  return { scheduled: sign, published: `${sign} * (${status} = 'published')`, failed: `${sign} * (${status} = 'failed')` }
}

/** A target's metrics, times `sign`, from the alias of its target_metrics row (NULLs where it has none). */
function metricsPart(sign: string, m: string): Record<string, string> {
  const part: Record<string, string> = {}
  for (const k of METRICS) {
    part[k] = `${sign} * coalesce(${m}.${k}, 0)`
    part[`${k}_n`] = `${sign} * (${m}.${k} IS NOT NULL)`
  }
  const rated = `(${m}.impressions IS NOT NULL AND ${m}.engagements IS NOT NULL)`
  part.rated_engagements = `${sign} * CASE WHEN ${rated} THEN ${m}.engagements ELSE 0 END`
  part.rated_impressions = `${sign} * CASE WHEN ${rated} THEN ${m}.impressions ELSE 0 END`
  part.rated_n = `${sign} * ${rated}`
  return part
}

/**
 * Adds `values` to the rollup rows of the post `p` (an alias with user_id, account_id and
 * scheduled_at) on `platform`: four rows, for its account and for all accounts ('*'), each for
 * its platform and for all platforms ('*').
 */
function addToRollup(p: string, platform: string, from: string, where: string, values: Record<string, string>[]): string {
  const merged: Record<string, string> = {}
  for (const part of values) Object.assign(merged, part)
  const columns = ROLLUP_COLUMNS.filter((c) => merged[c] !== undefined)
  return `
    INSERT INTO analytics_hours (user_id, account_scope, platform, hour, ${columns.join(', ')})
    SELECT ${p}.user_id, ${scopeOf(`${p}.account_id`)}, ${platformOf(platform)}, ${hourOf(`${p}.scheduled_at`)}, ${columns.map((c) => merged[c]).join(', ')}
      FROM ${from}, ${FOUR_ROWS}
     WHERE ${where}
    ON CONFLICT (user_id, account_scope, platform, hour) DO UPDATE SET ${columns.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')};`
}

/** Moves all of post `p`'s targets in or out of the rollups (`sign` 1 or -1). */
const wholePost = (p: 'old' | 'new', sign: string) =>
  addToRollup(
    p,
    't.platform',
    'post_targets t LEFT JOIN target_metrics m ON m.post_id = t.post_id AND m.platform = t.platform',
    `t.post_id = ${p}.id AND ${p}.status <> 'cancelled'`,
    [targetPart(sign, 't.status'), metricsPart(sign, 'm')],
  )

const delaysOfPost = (p: 'new') => `
    INSERT INTO publish_delays (user_id, scheduled_at, post_id, platform, account_id, delay)
    SELECT ${p}.user_id, ${p}.scheduled_at, t.post_id, t.platform, ${p}.account_id, t.published_at - ${p}.scheduled_at
      FROM post_targets t
     WHERE t.post_id = ${p}.id AND ${p}.status <> 'cancelled' AND t.status = 'published' AND t.published_at IS NOT NULL;`

const delayOfTarget = `
    INSERT INTO publish_delays (user_id, scheduled_at, post_id, platform, account_id, delay)
    SELECT p.user_id, p.scheduled_at, new.post_id, new.platform, p.account_id, new.published_at - p.scheduled_at
      FROM posts p
     WHERE p.id = new.post_id AND p.status <> 'cancelled' AND new.status = 'published' AND new.published_at IS NOT NULL;`

const ofLivePost = (postId: string) => `p.id = ${postId} AND p.status <> 'cancelled'`

/** A post's figures change place when it changes hour, account or owner, or is cancelled. */
const POST_MOVED = `${hourOf('old.scheduled_at')} <> ${hourOf('new.scheduled_at')} OR old.scheduled_at <> new.scheduled_at
  OR old.account_id <> new.account_id OR old.user_id <> new.user_id OR (old.status = 'cancelled') <> (new.status = 'cancelled')`

/** The rollup rows, computed from the raw rows: the backfill, and what the store checks the rollups against. */
export const EXPECTED_HOURS = `
    SELECT p.user_id, ${scopeOf('p.account_id')} AS account_scope, ${platformOf('t.platform')} AS platform, ${hourOf('p.scheduled_at')} AS hour,
           ${ROLLUP_COLUMNS.map((c) => `sum(${{ ...targetPart('1', 't.status'), ...metricsPart('1', 'm') }[c]}) AS ${c}`).join(', ')}
      FROM posts p
      JOIN post_targets t ON t.post_id = p.id
      LEFT JOIN target_metrics m ON m.post_id = t.post_id AND m.platform = t.platform
      CROSS JOIN ${FOUR_ROWS}
     WHERE p.status <> 'cancelled'
     GROUP BY 1, 2, 3, 4`

/** The publish delays, computed from the raw rows. */
export const EXPECTED_DELAYS = `
    SELECT p.user_id, p.scheduled_at, t.post_id, t.platform, p.account_id, t.published_at - p.scheduled_at AS delay
      FROM posts p JOIN post_targets t ON t.post_id = p.id
     WHERE p.status <> 'cancelled' AND t.status = 'published' AND t.published_at IS NOT NULL`

/** The ranked targets, computed from the raw rows. */
export const EXPECTED_TOP = `
    SELECT p.user_id, m.engagements, m.post_id, m.platform, p.scheduled_at, p.account_id
      FROM posts p JOIN target_metrics m ON m.post_id = p.id
     WHERE p.status <> 'cancelled' AND m.engagements IS NOT NULL`

const rankOfTarget = `
    INSERT INTO top_targets (user_id, engagements, post_id, platform, scheduled_at, account_id)
    SELECT p.user_id, new.engagements, new.post_id, new.platform, p.scheduled_at, p.account_id
      FROM posts p
     WHERE p.id = new.post_id AND p.status <> 'cancelled' AND new.engagements IS NOT NULL;`

export const analyticsRollups: Migration = {
  version: 6,
  name: 'analytics rollups by UTC hour and publish delays, kept by triggers',
  sql: `
    CREATE TABLE analytics_hours (
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      -- The account these figures are of, or '*' for all the user's accounts; the platform, or
      -- '*' for all: a series reads one row per hour, a platform's total one run of rows.
      account_scope TEXT NOT NULL,
      platform TEXT NOT NULL,
      hour INTEGER NOT NULL,
      ${ROLLUP_COLUMNS.map((c) => `${c} INTEGER NOT NULL DEFAULT 0`).join(',\n      ')},
      PRIMARY KEY (user_id, account_scope, platform, hour)
    ) WITHOUT ROWID;

    -- Published targets of live posts: the medians read only this, by time.
    CREATE TABLE publish_delays (
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      scheduled_at INTEGER NOT NULL,
      post_id TEXT NOT NULL,
      platform TEXT NOT NULL,
      account_id TEXT NOT NULL,
      delay INTEGER NOT NULL,
      PRIMARY KEY (user_id, scheduled_at, post_id, platform)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX publish_delays_target ON publish_delays(post_id, platform);
    CREATE INDEX publish_delays_account ON publish_delays(user_id, account_id, scheduled_at, platform, delay);

    -- Targets with reported engagements, ranked per user: top_posts reads the first few in range.
    CREATE TABLE top_targets (
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      engagements INTEGER NOT NULL,
      post_id TEXT NOT NULL,
      platform TEXT NOT NULL,
      scheduled_at INTEGER NOT NULL,
      account_id TEXT NOT NULL,
      PRIMARY KEY (post_id, platform)
    ) WITHOUT ROWID;
    CREATE INDEX top_targets_rank ON top_targets(user_id, engagements DESC, post_id, platform, scheduled_at, account_id);
    CREATE INDEX top_targets_time ON top_targets(user_id, scheduled_at, engagements, account_id);

    CREATE TRIGGER analytics_target_insert AFTER INSERT ON post_targets BEGIN
      ${addToRollup('p', 'new.platform', 'posts p', ofLivePost('new.post_id'), [targetPart('1', 'new.status')])}
      ${delayOfTarget}
    END;

    CREATE TRIGGER analytics_target_update AFTER UPDATE OF status, published_at ON post_targets
    WHEN old.status IS NOT new.status OR old.published_at IS NOT new.published_at BEGIN
      ${addToRollup('p', 'new.platform', 'posts p', ofLivePost('new.post_id'), [
        {
          published: `(new.status = 'published') - (old.status = 'published')`,
          failed: `(new.status = 'failed') - (old.status = 'failed')`,
        },
      ])}
      DELETE FROM publish_delays WHERE post_id = old.post_id AND platform = old.platform;
      ${delayOfTarget}
    END;

    CREATE TRIGGER analytics_target_delete AFTER DELETE ON post_targets BEGIN
      ${addToRollup('p', 'old.platform', 'posts p', ofLivePost('old.post_id'), [targetPart('-1', 'old.status')])}
      DELETE FROM publish_delays WHERE post_id = old.post_id AND platform = old.platform;
    END;

    CREATE TRIGGER analytics_metrics_insert AFTER INSERT ON target_metrics BEGIN
      ${addToRollup('p', 'new.platform', 'posts p', ofLivePost('new.post_id'), [metricsPart('1', 'new')])}
      ${rankOfTarget}
    END;

    CREATE TRIGGER analytics_metrics_update AFTER UPDATE ON target_metrics BEGIN
      ${addToRollup('p', 'new.platform', 'posts p', ofLivePost('new.post_id'), [
        Object.fromEntries(Object.entries(metricsPart('1', 'new')).map(([k, v]) => [k, `(${v}) - (${metricsPart('1', 'old')[k]})`])),
      ])}
      DELETE FROM top_targets WHERE post_id = old.post_id AND platform = old.platform;
      ${rankOfTarget}
    END;

    CREATE TRIGGER analytics_metrics_delete AFTER DELETE ON target_metrics BEGIN
      ${addToRollup('p', 'old.platform', 'posts p', ofLivePost('old.post_id'), [metricsPart('-1', 'old')])}
      DELETE FROM top_targets WHERE post_id = old.post_id AND platform = old.platform;
    END;

    CREATE TRIGGER analytics_post_moved AFTER UPDATE OF scheduled_at, status, account_id, user_id ON posts
    WHEN ${POST_MOVED} BEGIN
      ${wholePost('old', '-1')}
      ${wholePost('new', '1')}
      DELETE FROM publish_delays WHERE post_id = old.id;
      ${delaysOfPost('new')}
      DELETE FROM top_targets WHERE post_id = old.id;
      INSERT INTO top_targets (user_id, engagements, post_id, platform, scheduled_at, account_id)
      SELECT new.user_id, m.engagements, m.post_id, m.platform, new.scheduled_at, new.account_id
        FROM target_metrics m WHERE m.post_id = new.id AND new.status <> 'cancelled' AND m.engagements IS NOT NULL;
    END;

    -- Before: a cascade deletes the targets after the post, when their triggers no longer find it.
    CREATE TRIGGER analytics_post_delete BEFORE DELETE ON posts BEGIN
      ${wholePost('old', '-1')}
      DELETE FROM publish_delays WHERE post_id = old.id;
      DELETE FROM top_targets WHERE post_id = old.id;
    END;

    -- The data already there.
    INSERT INTO analytics_hours (user_id, account_scope, platform, hour, ${ROLLUP_COLUMNS.join(', ')}) ${EXPECTED_HOURS};
    INSERT INTO publish_delays (user_id, scheduled_at, post_id, platform, account_id, delay) ${EXPECTED_DELAYS};
    INSERT INTO top_targets (user_id, engagements, post_id, platform, scheduled_at, account_id) ${EXPECTED_TOP};
  `,
}
