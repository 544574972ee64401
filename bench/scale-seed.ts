/**
 * A data dir as a long-lived deployment leaves it: a million posts over three years on twenty
 * accounts, most of them published (their targets published, their feed items written, the
 * latest metrics of two thirds of their Mastodon and Bluesky targets kept, two outbox events
 * each, all dispatched), some failed or cancelled, and 5 % still to come (scheduled, or drafts).
 * For bench/scale.ts and its test.
 *
 * It is written by bulk SQL from one generated list, not through the store's functions one post
 * at a time (a million units of work would take many minutes). The schema is the daemon's own
 * (openSqliteStore runs the migrations); the analytics rollup triggers are set aside while the
 * rows go in and the three rollup tables are then computed from the raw rows with the very
 * queries the store checks them against (EXPECTED_* of migration 0020), so they are exact; the
 * triggers are put back as they were, word for word. No ANALYZE: a real deployment's file has
 * no planner statistics either, and the benchmark must see the plans the daemon gets.
 */
import { databaseFileOf, openDatabase, type Db } from '../daemon/store/sqlite/db.js'
import { openSqliteStore } from '../daemon/store/sqlite/index.js'
import { ROLLUP_COLUMNS } from '../daemon/store/sqlite/migrations/0006-analytics-rollups.js'
import { EXPECTED_DELAYS, EXPECTED_HOURS, EXPECTED_TOP } from '../daemon/store/sqlite/migrations/0020-workspaces.js'
import { COUNT_COLUMNS, METRIC_COLUMNS } from '../daemon/store/sqlite/migrations/0031-counts-apart-from-metrics.js'
import { createSecretBox, loadSecretKey } from '../daemon/secret-box.js'

const DAY = 86_400_000
const HOUR = 3_600_000
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/**
 * The time part of our ids (a ULID's first ten characters, Crockford base32 of the ms). A
 * seeded id is a prefix, this, and sixteen decimal digits of the row's number: the shape of
 * `newId`'s ids (digits are base32 characters too), unique per prefix, ordered by time.
 */
export function ulidTime(ms: number): string {
  let time = ''
  for (let i = 0, t = ms; i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32] + time
  return time
}

export interface ScaleSeed {
  userId: string
  /** The accounts the posts are spread over (each connected to feed, Mastodon and Bluesky). */
  accounts: string[]
  /**
   * Accounts connected to feed only, each with its burst of posts, created through the store and
   * scheduled a year ahead: `armBurst` brings one forward to the moment it is to go out.
   */
  burstAccounts: string[]
  /** How long each step took, ms. */
  phases: Record<string, number>
  /** CPU time the seeding took (this process, all threads, user and system), ms. */
  cpuMs: number
  rows: Record<'posts' | 'post_targets' | 'target_metrics' | 'feed_items' | 'events' | 'analytics_counts' | 'publish_delays' | 'top_targets', number>
  ms: number
}

const LOREM =
  'Our spring collection is here: linen shirts, wide trousers and the return of the canvas tote. ' +
  'Free shipping this week on orders over 50 euros, and every order plants a tree. Tell us what you think! ' +
  'Photos by the team at the studio; more on the blog tomorrow morning.'

const HOUR_COLUMNS = `workspace_id, account_scope, platform, hour, ${ROLLUP_COLUMNS.join(', ')}`
const DELAY_COLUMNS = 'workspace_id, scheduled_at, post_id, platform, account_id, delay'
const TOP_COLUMNS = 'workspace_id, engagements, post_id, platform, scheduled_at, account_id'

/**
 * Fills the rollups with the rows the store expects (EXPECTED_HOURS of migration 0020 less the
 * rows on all platforms, which migrations 24 and 28 keep no more), in steps: that query with
 * its cross join of four scopes reduced to the first gives the rows per account and platform; the
 * rows for all accounts on a platform are those rows summed. The same integers added in another
 * order, so the same rows; the single GROUP BY over the rows of every target takes twice as long
 * (45 s at a million posts on this 2-core machine).
 * Each row's scope is then numbered (migration 26) and the rows kept by number, its counts and its
 * metrics apart (migration 31).
 */
function expectedHoursInTwoSteps(): string {
  const scopes = (ks: number[]) => `(${ks.map((k, i) => (i === 0 ? `SELECT ${k} AS k` : `SELECT ${k}`)).join(' UNION ALL ')}) s`
  if (!EXPECTED_HOURS.includes(scopes([0, 1, 2, 3]))) throw new Error('EXPECTED_HOURS is no longer shaped as seedScale reads it')
  const sums = ROLLUP_COLUMNS.map((c) => `sum(${c})`).join(', ')
  return `
    CREATE TEMP TABLE fine AS ${EXPECTED_HOURS.replace(scopes([0, 1, 2, 3]), scopes([0]))};
    CREATE TEMP TABLE hours AS SELECT ${HOUR_COLUMNS} FROM temp.fine;
    CREATE TEMP TABLE platforms AS SELECT workspace_id, '*' AS account_scope, platform, hour, ${sums.split(', ').map((sum, i) => `${sum} AS ${ROLLUP_COLUMNS[i]}`).join(', ')} FROM temp.fine GROUP BY workspace_id, platform, hour;
    INSERT INTO temp.hours (${HOUR_COLUMNS}) SELECT ${HOUR_COLUMNS} FROM temp.platforms;
    INSERT INTO analytics_scopes (workspace_id, account_scope, platform)
    SELECT DISTINCT workspace_id, account_scope, platform FROM temp.hours WHERE true ORDER BY 1, 2, 3 ON CONFLICT DO NOTHING;
    ${(
      [
        ['analytics_counts', COUNT_COLUMNS],
        ['analytics_metrics', METRIC_COLUMNS],
      ] as const
    )
      .map(
        ([table, columns]) => `
    INSERT INTO ${table} (scope, hour, ${columns.join(', ')})
    SELECT c.id, h.hour, ${columns.map((col) => `h.${col}`).join(', ')}
      FROM temp.hours h JOIN analytics_scopes c ON c.workspace_id = h.workspace_id AND c.account_scope = h.account_scope AND c.platform = h.platform
     WHERE ${columns.map((col) => `h.${col} <> 0`).join(' OR ')}
     ORDER BY 1, 2;`,
      )
      .join('')}
    DROP TABLE temp.hours;
    DROP TABLE temp.platforms;
    DROP TABLE temp.fine;`
}

const iso = (ms: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${ms} / 1000.0, 'unixepoch')`

export interface SeedOptions {
  posts: number
  /** How many burst accounts, and how many posts each (for bench/scale.ts's bursts). Default none. */
  bursts?: number
  burstPosts?: number
  /** The present the data is laid around. */
  now?: number
}

/**
 * A burst: `count` feed posts of one account parked a year ahead, each with its pending target
 * and its post.scheduled event, as a create leaves them (with the rollup triggers in place,
 * which count them). Ids are numbered from `first`.
 */
function insertBurst(db: Db, b: { userId: string; workspaceId: string; accountId: string; count: number; first: number; now: number }): void {
  db.function('ulid_time', { deterministic: true }, (ms: unknown) => ulidTime(Number(ms)))
  const bound = { account: b.accountId, user: b.userId, workspace: b.workspaceId, now: BigInt(b.now), parked: BigInt(b.now + BURST_PARKED_MS), count: BigInt(b.count), first: BigInt(b.first) }
  db.prepare(`
    INSERT INTO posts (id, workspace_id, user_id, account_id, content, media_urls, platforms, scheduled_at, status, version, created_at, updated_at)
    WITH RECURSIVE n(i) AS (SELECT 0 WHERE @count > 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < @count)
    SELECT 'pst_' || ulid_time(@now) || printf('%016d', @first + i), @workspace, @user, @account,
           'Burst post ' || i || ': doors open at nine, the first hundred visitors get a tote.', '[]', '["feed"]',
           @parked, 'scheduled', 1, @now, @now
      FROM n`).run(bound)
  db.prepare("INSERT INTO post_targets (post_id, platform, status) SELECT id, 'feed', 'pending' FROM posts WHERE account_id = @account").run(bound)
  db.prepare(`
    INSERT INTO events (id, workspace_id, type, data, created_at, dispatched_at)
    SELECT 'msg_' || substr(id, 5, 10) || printf('%016d', 2 * (@first + row_number() OVER (ORDER BY id) - 1)), @workspace, 'post.scheduled',
           json_object('id', id, 'account_id', account_id, 'content', content, 'media_urls', json('[]'), 'platforms', json('["feed"]'),
                       'scheduled_at', ${iso('scheduled_at')}, 'status', 'scheduled', 'created_at', ${iso('created_at')}),
           @now, @now + 200
      FROM posts WHERE account_id = @account`).run(bound)
}

/** The owner's personal workspace, where the seeded accounts and posts go. */
const personalWorkspaceOf = (db: Db, userId: string) => db.prepare<[string], string>('SELECT id FROM workspaces WHERE personal_of = ?').pluck().get(userId)!

/** Where the burst posts wait until armed: a year ahead, after every other post. */
const BURST_PARKED_MS = 366 * DAY

/**
 * Seeds posts into the data dir of a daemon that has started once (its owner, key and secret key
 * exist) and is not running.
 */
export async function seedScale(dataDir: string, options: SeedOptions): Promise<ScaleSeed> {
  const { posts, bursts = 0, burstPosts = 0, now = Date.now() } = options
  const started = performance.now()
  const used = process.cpuUsage()
  const store = openSqliteStore(databaseFileOf(dataDir))
  const db = store.db
  try {
    const userId = db.prepare<[], string>('SELECT id FROM users WHERE is_owner = 1').pluck().get()
    if (!userId) throw new Error(`${dataDir}: no owner yet; start the daemon on it once first`)
    const workspaceId = personalWorkspaceOf(db, userId)
    const box = createSecretBox(loadSecretKey(dataDir))
    const connect = async (accountId: string, platform: 'feed' | 'mastodon' | 'bluesky') =>
      store.accounts.connect(
        [workspaceId],
        accountId,
        {
          platform,
          handle: platform === 'feed' ? 'feed' : `brand@${platform}.example`,
          displayName: platform,
          sealedCredentials: box.seal(platform === 'feed' ? {} : { instance: `https://${platform}.example`, token: 'seed' }, `${accountId}:${platform}`),
          settings: {},
        },
        now,
        null,
      )
    const accounts: string[] = []
    for (let i = 0; i < 20; i++) {
      const { id } = await store.accounts.create(workspaceId, userId, `Brand ${i + 1}`, now)
      for (const platform of ['feed', 'mastodon', 'bluesky'] as const) await connect(id, platform)
      accounts.push(id)
    }
    const burstAccounts: string[] = []
    for (let i = 0; i < bursts; i++) {
      const { id } = await store.accounts.create(workspaceId, userId, `Burst ${i + 1}`, now)
      await connect(id, 'feed')
      burstAccounts.push(id)
    }

    // The rollup triggers go aside while the rows go in; they come back exactly as they were.
    const triggers = db.prepare<[], { name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'analytics_%' ORDER BY name").all()
    db.pragma('foreign_keys = OFF')
    // Out of WAL: a transaction of gigabytes would go through the log, then be copied again. The
    // rollback journal holds only the pages that existed before (a few), since the rest are new.
    // WAL comes back at the end.
    if (db.pragma('journal_mode = DELETE', { simple: true }) !== 'delete') throw new Error('could not leave WAL mode for seeding')
    db.pragma('synchronous = OFF')
    db.pragma('cache_size = -524288')
    db.pragma('temp_store = MEMORY')
    // Worker threads for the large sorts (the rollups' GROUP BY).
    db.pragma('threads = 2')
    db.function('ulid_time', { deterministic: true }, (ms: unknown) => ulidTime(Number(ms)))

    const future = Math.ceil(posts / 20)
    const past = posts - future
    const start = now - 3 * 365 * DAY
    const params = {
      posts,
      past,
      start,
      step: Math.max(1, Math.floor((now - HOUR - start) / Math.max(1, past))),
      soon: now + HOUR,
      futureStep: Math.max(1, Math.floor((60 * DAY) / Math.max(1, future))),
      now,
      accounts: JSON.stringify(accounts),
      n_accounts: accounts.length,
      collectFrom: now - 30 * DAY,
    }

    // Bound as integers: better-sqlite3 binds a JS number as a REAL, which would make every time
    // and every index computed from it a REAL too.
    const bound = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'number' ? BigInt(v) : v]))
    const phases: Record<string, number> = {}
    const timed = (name: string, work: () => void) => {
      const at = performance.now()
      work()
      phases[name] = Math.round(performance.now() - at)
    }
    const step = (name: string, sql: string) => timed(name, () => db.exec(sql.replaceAll('@collectFrom', String(params.collectFrom)).replaceAll('@now', String(now))))
    // The post as the API shows it, which its events carry: built as text (the JSON functions
    // would parse and re-render every nested value: four times the time). Only the content needs
    // quoting; ids, names and times are plain.
    const quoted = (v: string) => `coalesce('"' || ${v} || '"', 'null')`
    const postJson = `'{"id":"' || s.id || '","account_id":"' || s.account_id || '","content":' || json_quote(s.content) || ',"media_urls":' || s.media_urls
        || ',"platforms":["' || s.p0 || coalesce('","' || s.p1, '') || '"],"thread":[],"first_comment":null,"overrides":{}'
        || ',"scheduled_at":' || ${quoted('s.scheduled_iso')} || ',"status":"' || s.status || '"'
        || ',"targets":[{"platform":"' || s.p0 || '","status":"' || CASE s.status WHEN 'published' THEN 'published' WHEN 'failed' THEN 'failed' ELSE 'pending' END
        || '","attempts":' || CASE WHEN s.status IN ('published', 'failed') THEN 1 ELSE 0 END || ',"published_at":' || ${quoted('s.published_iso')} || '}]'
        || ',"created_at":"' || s.created_iso || '","updated_at":"' || coalesce(s.changed_iso, s.published_iso, s.created_iso) || '"'
        || ',"published_at":' || ${quoted('s.published_iso')} || ',"cancelled_at":' || CASE WHEN s.status = 'cancelled' THEN '"' || s.changed_iso || '"' ELSE 'null' END
        || ',"series_id":null,"occurrence":null,"repeat":null'`
    if (posts > 0) db.transaction(() => {
      for (const { name } of triggers) db.exec(`DROP TRIGGER ${name}`)
      // One row per post: everything the tables below are derived from. Post i is the i-th in
      // time; kind (i % 10) picks its platforms: 5 in 10 feed, 3 Mastodon, 1 feed and Bluesky,
      // 1 Mastodon and Bluesky. In the past 1 in 100 failed and 1 in 100 was cancelled; of those
      // to come, 1 in 10 is a draft (every other one with no time yet) and 1 in 100 cancelled.
      db.exec('DROP TABLE IF EXISTS temp.seed')
      timed('posts (temporary)', () => db.prepare(`
        CREATE TEMP TABLE seed AS
        WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < @posts),
        base AS (
          SELECT i, i % 10 AS kind, @accounts ->> (i % @n_accounts) AS account_id,
                 CASE WHEN i < @past THEN @start + i * @step ELSE @soon + (i - @past) * @futureStep END AS at,
                 CASE WHEN i < @past THEN CASE i % 100 WHEN 7 THEN 'cancelled' WHEN 13 THEN 'failed' ELSE 'published' END
                      ELSE CASE WHEN i % 100 = 7 THEN 'cancelled' WHEN i % 10 = 3 THEN 'draft' ELSE 'scheduled' END END AS status,
                 300 + (i * 7919) % 4700 AS d0, 300 + (i * 7919 + 3571) % 4700 AS d1
            FROM n
        ),
        shaped AS (
          SELECT i, kind, account_id, status,
                 CASE WHEN status = 'draft' AND i % 2 = 0 THEN NULL ELSE at END AS scheduled_at,
                 at - ${DAY} + (i % 3600) * 1000 AS created_at,
                 CASE WHEN kind < 5 OR kind = 8 THEN 'feed' ELSE 'mastodon' END AS p0,
                 CASE WHEN kind >= 8 THEN 'bluesky' END AS p1,
                 d0, d1,
                 CASE WHEN status = 'published' THEN at + CASE WHEN kind >= 8 THEN max(d0, d1) ELSE d0 END END AS published_at,
                 -- When it was last changed: published, failed (its first target's outcome), cancelled, or created.
                 CASE status WHEN 'published' THEN at + CASE WHEN kind >= 8 THEN max(d0, d1) ELSE d0 END WHEN 'failed' THEN at + d0
                             WHEN 'cancelled' THEN at - ${DAY} + (i % 3600) * 1000 + 60000 ELSE at - ${DAY} + (i % 3600) * 1000 END AS updated_at,
                 'Post ' || i || ': ' || substr('${LOREM}', 1, 60 + (i * 37) % 200) AS content,
                 CASE WHEN i % 4 = 0 THEN json_array('https://cdn.example.com/media/' || i || '.jpg') ELSE '[]' END AS media_urls
            FROM base
        ),
        identified AS (
        SELECT *, 'pst_' || ulid_time(created_at) || printf('%016d', i) AS id,
               -- The events' time: the last change (both events of a published or failed post are written together).
               CASE WHEN updated_at = created_at THEN NULL ELSE ulid_time(updated_at) END AS event_time,
               ${iso('scheduled_at')} AS scheduled_iso, ${iso('created_at')} AS created_iso, ${iso('published_at')} AS published_iso,
               CASE status WHEN 'published' THEN NULL WHEN 'scheduled' THEN NULL WHEN 'draft' THEN NULL ELSE ${iso('updated_at')} END AS changed_iso
          FROM shaped
        )
        SELECT * FROM identified`).run(bound))

      step('posts', `
        INSERT INTO posts (id, workspace_id, user_id, account_id, content, media_urls, platforms, scheduled_at, status, version, created_at, updated_at, published_at, cancelled_at)
        SELECT id, '${workspaceId}', '${userId}', account_id, content, media_urls, CASE WHEN p1 IS NULL THEN json_array(p0) ELSE json_array(p0, p1) END,
               scheduled_at, status, CASE status WHEN 'published' THEN 3 WHEN 'failed' THEN 3 WHEN 'cancelled' THEN 2 ELSE 1 END,
               created_at, updated_at, published_at, CASE WHEN status = 'cancelled' THEN updated_at END
          FROM temp.seed ORDER BY i`)

      // Each post's targets, in the order of the posts (temp.seed's rows are in i order): a view, read twice.
      db.exec(`
        CREATE TEMP VIEW targets AS
        SELECT s.i, s.id AS post_id, s.account_id, s.status AS post_status, s.scheduled_at, s.content, s.media_urls, k.k,
               CASE k.k WHEN 0 THEN s.p0 ELSE s.p1 END AS platform,
               s.scheduled_at + CASE k.k WHEN 0 THEN s.d0 ELSE s.d1 END AS settled_at
          FROM temp.seed s JOIN (SELECT 0 AS k UNION ALL SELECT 1) k ON k.k = 0 OR s.p1 IS NOT NULL`)

      step('post_targets', `
        INSERT INTO post_targets (post_id, platform, status, attempts, next_attempt_at, lease_expires_at, platform_post_id, url, published_at,
                                  error_code, error_detail, metrics_due_at, metrics_failures)
        SELECT post_id, platform,
               CASE post_status WHEN 'published' THEN 'published' WHEN 'failed' THEN 'failed' ELSE 'pending' END,
               CASE WHEN post_status IN ('published', 'failed') THEN 1 ELSE 0 END, NULL, NULL,
               CASE WHEN post_status <> 'published' THEN NULL WHEN platform = 'feed' THEN post_id
                    WHEN platform = 'mastodon' THEN CAST(110000000000000000 + i * 2 + k AS TEXT)
                    ELSE 'at://did:plc:brand/app.bsky.feed.post/3l' || lower(substr(post_id, 5, 11)) END,
               CASE WHEN post_status <> 'published' THEN NULL WHEN platform = 'feed' THEN 'https://smm.example/feeds/' || account_id || '.html#' || post_id
                    WHEN platform = 'mastodon' THEN 'https://mastodon.example/@brand/' || (110000000000000000 + i * 2 + k)
                    ELSE 'https://bsky.app/profile/brand.bsky.social/post/3l' || lower(substr(post_id, 5, 11)) END,
               CASE WHEN post_status = 'published' THEN settled_at END,
               CASE WHEN post_status = 'failed' THEN 'platform_rejected' END,
               CASE WHEN post_status = 'failed' THEN 'The platform refused the post (HTTP 422): the media could not be fetched.' END,
               -- Read again within 30 days of publishing (feed reports no counts): not due during a benchmark.
               CASE WHEN post_status = 'published' AND platform <> 'feed' AND settled_at > @collectFrom THEN @now + ${HOUR} + (i % 86400) * 1000 END,
               0
          FROM temp.targets`)

      step('target_metrics', `
        INSERT INTO target_metrics (post_id, platform, taken_at, impressions, likes, reposts, replies, quotes, clicks, engagements)
        SELECT post_id, platform, min(settled_at + ${30 * DAY}, @now - 60000), NULL, likes, likes / 4, likes / 8,
               CASE WHEN platform = 'bluesky' THEN likes / 10 END, NULL,
               likes + likes / 4 + likes / 8 + CASE WHEN platform = 'bluesky' THEN likes / 10 ELSE 0 END
          FROM (SELECT *, (i * 31 + k * 17) % 200 AS likes FROM temp.targets)
         WHERE post_status = 'published' AND platform <> 'feed' AND i % 3 <> 2`)

      db.exec('DROP VIEW temp.targets')
      step('feed_items', `
        INSERT INTO feed_items (account_id, post_id, content, media_urls, published_at)
        SELECT s.account_id, s.id, s.content, s.media_urls, s.scheduled_at + s.d0 FROM temp.seed s WHERE s.status = 'published' AND s.p0 = 'feed' ORDER BY s.i`)

      // Read in the order of the posts (no sort): k = 0, the post's first event, k = 1 its final
      // one. A target's event is the post's with the target's platform added.
      step('events', `
        INSERT INTO events (id, workspace_id, type, data, created_at, dispatched_at)
        SELECT 'msg_' || coalesce(s.event_time, substr(s.id, 5, 10)) || printf('%016d', s.i * 2 + k.k), '${workspaceId}',
               CASE WHEN k.k = 1 THEN 'post.' || s.status
                    ELSE CASE s.status WHEN 'published' THEN 'post.target.published' WHEN 'failed' THEN 'post.target.failed'
                                       WHEN 'cancelled' THEN 'post.cancelled' WHEN 'draft' THEN 'post.drafted' ELSE 'post.scheduled' END END,
               ${postJson} || CASE WHEN k.k = 0 AND s.status IN ('published', 'failed') THEN ',"platform":"' || s.p0 || '"}' ELSE '}' END,
               s.updated_at, s.updated_at + 200
          FROM temp.seed s JOIN (SELECT 0 AS k UNION ALL SELECT 1) k ON k.k = 0 OR s.status IN ('published', 'failed')`)

      // The rollups, from the raw rows: what the triggers would have kept, row for row.
      step('analytics_counts', `DELETE FROM analytics_counts; DELETE FROM analytics_metrics; ${expectedHoursInTwoSteps()}`)
      step('publish_delays', `DELETE FROM publish_delays; INSERT INTO publish_delays (${DELAY_COLUMNS}) ${EXPECTED_DELAYS}`)
      step('top_targets', `DELETE FROM top_targets; INSERT INTO top_targets (${TOP_COLUMNS}) ${EXPECTED_TOP}`)
      db.exec('DROP TABLE temp.seed')
      for (const { sql } of triggers) db.exec(sql)
    })()
    const after = db.prepare<[], { name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'analytics_%' ORDER BY name").all()
    if (JSON.stringify(after) !== JSON.stringify(triggers)) throw new Error('the analytics triggers did not come back as they were')

    // The bursts: feed posts parked a year ahead, each with its pending target and its
    // post.scheduled event, as a create leaves them; the rollup triggers are back, and count them.
    timed('bursts', () =>
      db.transaction(() => burstAccounts.forEach((accountId, b) => insertBurst(db, { userId, workspaceId, accountId, count: burstPosts, first: posts + b * burstPosts, now })))(),
    )
    const rows = Object.fromEntries(
      (['posts', 'post_targets', 'target_metrics', 'feed_items', 'events', 'analytics_counts', 'publish_delays', 'top_targets'] as const).map((t) => [
        t,
        db.prepare<[], number>(`SELECT count(*) FROM ${t}`).pluck().get()!,
      ]),
    ) as ScaleSeed['rows']
    db.pragma('journal_mode = WAL')
    db.pragma('foreign_keys = ON')
    const { user, system } = process.cpuUsage(used)
    return { userId, accounts, burstAccounts, rows, phases, cpuMs: (user + system) / 1000, ms: performance.now() - started }
  } finally {
    await store.close()
  }
}

/**
 * Brings a seeded burst forward: every post of `accountId` still scheduled falls due at `at`
 * (the daemon not running; the rollup triggers move their figures as for any edit).
 */
export function armBurst(dataDir: string, accountId: string, at: number): number {
  const db = openDatabase(databaseFileOf(dataDir))
  try {
    return db
      .prepare<[number, number, string], void>("UPDATE posts SET scheduled_at = ?, updated_at = ?, version = version + 1 WHERE account_id = ? AND status = 'scheduled'")
      .run(at, Date.now(), accountId).changes
  } finally {
    db.close()
  }
}

/**
 * One more burst in a seeded data dir (the daemon not running), on a new account connected to
 * feed: for looking into a burst again after the benchmark's have gone out (BENCH_SCALE_KEEP).
 */
export async function addBurst(dataDir: string, count: number, now = Date.now()): Promise<string> {
  const store = openSqliteStore(databaseFileOf(dataDir))
  try {
    const userId = store.db.prepare<[], string>('SELECT id FROM users WHERE is_owner = 1').pluck().get()!
    const workspaceId = personalWorkspaceOf(store.db, userId)
    const { id } = await store.accounts.create(workspaceId, userId, `Burst at ${new Date(now).toISOString()}`, now)
    await store.accounts.connect([workspaceId], id, { platform: 'feed', handle: 'feed', displayName: 'feed', sealedCredentials: createSecretBox(loadSecretKey(dataDir)).seal({}, `${id}:feed`), settings: {} }, now, null)
    store.db.transaction(() => insertBurst(store.db, { userId, workspaceId, accountId: id, count, first: 0, now }))()
    return id
  } finally {
    await store.close()
  }
}
