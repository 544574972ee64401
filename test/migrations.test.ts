import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { MigrationChangedError, migrationChecksum } from '../daemon/store/migrations.js'
import { openDatabase } from '../daemon/store/sqlite/db.js'
import { migrations } from '../daemon/store/sqlite/schema.js'

let dir = ''
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})
const file = () => {
  dir = mkdtempSync(join(tmpdir(), 'smm-migrations-'))
  return join(dir, 'smm.db')
}

describe('migrations are history', () => {
  // A landed migration is never edited: a new one is a new numbered file, and its checksum a new
  // line here. Changing a line below means an operator's database and this code disagree.
  it('every landed migration still has the text it landed with', () => {
    expect(Object.fromEntries(migrations.map((m) => [m.version, migrationChecksum(m)]))).toEqual({
      1: '18aeed2e79db10e6805db52a7ca2369a3882dea9faf7b6523dc275d7d072cc80', // users, api keys, rate limits, idempotency
      2: 'e685c8f7da8dadc465a9695e71fde6397d3e123972b0a365bbb1108792f29343', // event outbox
      3: '53ba0909b1a9fc9b0c281e71d647683adaad39614b4a4e397a802680c75aa155', // accounts, connections, posts, targets, feed items
      4: '6df3961bc40adc2890b412814ecea97989e208090c459ea00a160bbc933a55f9', // webhook endpoints, deliveries and attempts
      5: '09eea3f26ed891b3e88648466b01d7bf5e3e5ff6b5b57c92e7588e444289f62c', // metric snapshots, latest metrics per target, collection schedule
      6: 'db78856d406e62de839632f3239369d23b36fcdeaeb22925318a1fb70fb65287', // analytics rollups by UTC hour and publish delays, kept by triggers
      7: '71c6cfc576b64b34f71b090a95d3c88fe22f69b103c8f5fb7f5ddbc626525b98', // attempt counts kept across retries
      8: 'a2622c5cf6fd52b09fec5292dc0898a51d307ef5b100c64023993efd9647d38f', // when an attempt of unknown outcome was first sent
      9: '774bda8c6ab43c2a0d3f2c7a8a80b4f42249fc51499111395a7799839484e1e8', // OAuth apps, pending grants and refresh claims
      10: 'cb570ed65cf89ab2088f17310cbc9016d031dd5d6699f4f49071adb9b9107711', // drafts (nullable scheduled_at, status draft), queue slots
      11: 'eb7694ce05c8cc8bd8928e126f3e2384239d5616a3e94d375fb0a8983ac567ed', // threads, first comments and per-platform versions
      12: 'ff216a5254b122e2648585e30a92b24bc19ebb86d8cc369f8b702deecc011fe6', // recurring post series
      13: '572e11a690b8d6e6c91bcd4a403f906d7dc6c97c24127ce9dc17997b5117e864', // rollup trigger on targets fires only on changes it counts
      14: 'd1578b0d4f428d6677a0853cf437d02e7245d89ce4593767a1eab1c561651f64', // indexes for the posts list by status and account, and for start-up and hourly upkeep
      15: 'cfb1fdc796c5c4a5f6da7b8b0248aae12975703141c86ab4b56e64a5b04e582a', // rollups of the latest counts summed per batch of snapshots by the store, not per row by triggers
      16: '782cf0d58dffd020400b666736cca9d4e904c6216ba30999c888e4b034ffae15', // rollups of a batch of outcomes summed per batch
      17: '11988b32dd13b2a5f6996921175437300f543b52760fa15d1c802047e210ebbe', // events still to dispatch listed in a table of their own
      18: '7cb5d389dc3730189aa341cd662d0f0c304ca3c89fbee31e420de714b8eff487', // a fencing token on each target, bumped by every claim
      19: '9bd941b17c077bd940fa9b9a12919811729b7d75b2b7816e5784ccae74946de1', // media objects, the posts that use them, resumable uploads
      20: 'e4ba6f7efe617d7cc6be36f909498878fef49c44c7c69d06382c7d281e303af3', // workspaces and members; accounts, posts, series, webhooks, events and analytics per workspace
      21: '6203f0343730e2620f0451a14e1b09507652d2750776b826bc2d6be7059cb49c', // approval states of posts, comments, and the actor of every event
      22: 'ddb722cab2193d1693efe484090c9a25a10588a8a2c710a7dd7a436ae0de653c', // review links to posts, kept by the hash of their token
      23: '3c017c5c6662f235cb4714245cda3aef4cdfa62e882933a58f26fa04a4ef3684', // rollup changes journaled per target and folded into the rollups in batches
      24: '213d7c6cb05b58bef6b188bad3fac1570dbcd859ee3c365d80b8daa6a8018bc1', // the ranking without its index by time, no rollups of an account on all platforms
      25: '0613924b755d2a51552640fd7fb811cd99ebfe462b265821c715658751beca69', // the rollup journal folded in two parts, a target's counts and its metrics, each row as it is
      26: 'c795543add147d952d90990ca74994aa2734b0f4169f7916c340059f07aae47a', // rollup rows keyed by a numbered scope and the hour
      27: '8c20c2fb33a6266f85e31966d2f20d9c9a09a158a71f9b879841fab3fe3b947f', // publish delays in one tree keyed by workspace, account and time
      28: 'd35cc83c3aa3c2b78f6965d919bc2fdc9923f85ad06f558044b684a8bf1a910d', // two rollup rows per target: no rollups of all accounts on all platforms
      29: '325cc2abfdc1141bb51553ecb60a0fa8de6ab3fd62d451bbc2431be615a5d5dd', // publish delays journaled and folded into their tree in key order
      30: '108ee904e5d3c3bbcddddfd6ed338ca5d0a773caa5f9b47badccc6c28098aa03', // the ranking of targets in one tree keyed by rank
      31: 'c06365d5e6a46e831c5a561c72a04aad202827aa0a76c405fd16220e9baaf4ff', // a target's counts rolled up apart from its metrics, in a narrow table
    })
  })

  it('records each migration when it applies it, and refuses to start when one applied has since changed', () => {
    const path = file()
    openDatabase(path).close()
    const raw = new Database(path)
    const rows = raw.prepare('SELECT version, checksum FROM schema_migrations ORDER BY version').all()
    raw.close()
    expect(rows).toEqual(migrations.map((m) => ({ version: m.version, checksum: migrationChecksum(m) })))

    const edited = migrations.map((m) => (m.version === 3 ? { ...m, sql: `${m.sql}\n-- an edit after landing` } : m))
    expect(() => openDatabase(path, edited)).toThrow(MigrationChangedError)
    expect(() => openDatabase(path, edited)).toThrow(/^Migration 0003 \(accounts, connections, posts, targets, feed items\) is not the one applied to .*smm\.db/)
    // The untouched list still opens it.
    openDatabase(path).close()
  })

  it('adopts a database from before checksums as it is, then guards it', () => {
    const path = file()
    openDatabase(path).close()
    const raw = new Database(path)
    raw.exec('DROP TABLE schema_migrations')
    raw.close()
    openDatabase(path).close()
    const edited = migrations.map((m) => (m.version === 1 ? { ...m, sql: `${m.sql} ` } : m))
    expect(() => openDatabase(path, edited)).toThrow(MigrationChangedError)
  })

  it('applies only the migrations a database lacks, recording each', () => {
    const path = file()
    openDatabase(path, migrations.filter((m) => m.version < 4)).close()
    const db = openDatabase(path)
    expect(db.prepare('SELECT count(*) AS n FROM schema_migrations').get()).toEqual({ n: migrations.length })
    db.close()
  })

  it('migration 17 lists the events still to dispatch, and not those dispatched', () => {
    const path = file()
    const old = openDatabase(path, migrations.filter((m) => m.version < 17))
    old.exec(`
      INSERT INTO users (id, name, created_at) VALUES ('usr_1', 'Ada', 0);
      INSERT INTO events (id, user_id, type, data, created_at, dispatched_at) VALUES ('msg_1', 'usr_1', 'post.scheduled', '{}', 0, 10), ('msg_2', 'usr_1', 'post.updated', '{}', 20, NULL);
    `)
    old.close()
    const db = openDatabase(path)
    try {
      expect(db.prepare('SELECT event_id FROM outbox ORDER BY event_id').pluck().all()).toEqual(['msg_2'])
    } finally {
      db.close()
    }
  })

  it('migration 10 rebuilds posts for drafts without losing a target, a metric or a feed item', () => {
    const path = file()
    const old = openDatabase(path, migrations.filter((m) => m.version < 10))
    old.exec(`
      INSERT INTO users (id, name, created_at) VALUES ('usr_1', 'Ada', 0);
      INSERT INTO accounts (id, user_id, name, created_at) VALUES ('acc_1', 'usr_1', 'Brand', 0);
      INSERT INTO posts (id, user_id, account_id, content, media_urls, platforms, scheduled_at, status, version, created_at, updated_at, published_at)
        VALUES ('pst_1', 'usr_1', 'acc_1', 'Hello', '[]', '["feed","mastodon"]', 3600000, 'published', 3, 0, 3600000, 3601000),
               ('pst_2', 'usr_1', 'acc_1', 'Later', '[]', '["feed"]', 7200000, 'scheduled', 1, 0, 0, NULL);
      INSERT INTO post_targets (post_id, platform, status, attempts, published_at) VALUES ('pst_1', 'feed', 'published', 1, 3601000), ('pst_1', 'mastodon', 'published', 1, 3602000);
      INSERT INTO post_targets (post_id, platform, status) VALUES ('pst_2', 'feed', 'pending');
      INSERT INTO target_metrics (post_id, platform, taken_at, likes, engagements) VALUES ('pst_1', 'mastodon', 4000000, 4, 4);
      INSERT INTO metric_snapshots (post_id, platform, taken_at, likes) VALUES ('pst_1', 'mastodon', 4000000, 4);
      INSERT INTO feed_items (account_id, post_id, content, media_urls, published_at) VALUES ('acc_1', 'pst_1', 'Hello', '[]', 3601000);
    `)
    const counts = (db: Database.Database) =>
      Object.fromEntries(['posts', 'post_targets', 'target_metrics', 'metric_snapshots', 'feed_items', 'publish_delays', 'top_targets'].map((t) => [t, (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n]))
    const before = counts(old)
    const rollups = old.prepare('SELECT * FROM analytics_hours ORDER BY 1, 2, 3, 4').all()
    old.close()

    const db = openDatabase(path, migrations.filter((m) => m.version <= 10))
    try {
      expect(counts(db)).toEqual(before)
      expect(before).toMatchObject({ posts: 2, post_targets: 3, target_metrics: 1, metric_snapshots: 1, feed_items: 1 })
      expect(db.prepare('SELECT * FROM analytics_hours ORDER BY 1, 2, 3, 4').all()).toEqual(rollups)
      expect(db.pragma('foreign_key_check')).toEqual([])
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
      // Drafts fit now, and the cascades still hold: deleting a post takes its targets with it.
      db.exec(`INSERT INTO posts (id, user_id, account_id, content, media_urls, platforms, scheduled_at, status, version, created_at, updated_at)
               VALUES ('pst_3', 'usr_1', 'acc_1', 'Idea', '[]', '["feed"]', NULL, 'draft', 1, 0, 0)`)
      expect(() => db.exec(`UPDATE posts SET status = 'scheduled' WHERE id = 'pst_3'`)).toThrow(/CHECK constraint failed/)
      db.exec(`DELETE FROM posts WHERE id = 'pst_1'`)
      expect(db.prepare(`SELECT count(*) AS n FROM post_targets WHERE post_id = 'pst_1'`).get()).toEqual({ n: 0 })
    } finally {
      db.close()
    }
  })

  it('migration 20 gives every user a personal workspace that takes over their accounts, posts, series, webhooks, events and rollups', () => {
    const path = file()
    const old = openDatabase(path, migrations.filter((m) => m.version < 20))
    const everyScope = 'profile:read profile:write accounts:read accounts:write posts:read posts:write analytics:read ai:generate webhooks:read webhooks:write keys:write'
    old.exec(`
      INSERT INTO users (id, name, timezone, created_at) VALUES ('usr_01J0000000000000000000ADA0', 'Ada', 'Europe/Paris', 5), ('usr_01J0000000000000000000B0B0', 'Bob', 'UTC', 6);
      INSERT INTO api_keys (id, user_id, name, prefix, hash, scopes, created_at) VALUES
        ('key_all', 'usr_01J0000000000000000000ADA0', 'all', 'smm_a', 'h1', '${everyScope}', 0),
        ('key_some', 'usr_01J0000000000000000000ADA0', 'some', 'smm_b', 'h2', 'posts:read posts:write', 0);
      INSERT INTO accounts (id, user_id, name, created_at) VALUES ('acc_1', 'usr_01J0000000000000000000ADA0', 'Brand', 0), ('acc_2', 'usr_01J0000000000000000000B0B0', 'Other', 0);
      INSERT INTO posts (id, user_id, account_id, content, media_urls, platforms, scheduled_at, status, version, created_at, updated_at, published_at)
        VALUES ('pst_1', 'usr_01J0000000000000000000ADA0', 'acc_1', 'Hello', '[]', '["feed"]', 3600000, 'published', 3, 0, 3600000, 3601000),
               ('pst_2', 'usr_01J0000000000000000000B0B0', 'acc_2', 'Later', '[]', '["feed"]', 7200000, 'scheduled', 1, 0, 0, NULL);
      INSERT INTO post_targets (post_id, platform, status, attempts, published_at) VALUES ('pst_1', 'feed', 'published', 1, 3601000);
      INSERT INTO post_targets (post_id, platform, status) VALUES ('pst_2', 'feed', 'pending');
      INSERT INTO post_series (id, user_id, account_id, template, last_occurrence, created_at)
        VALUES ('ser_1', 'usr_01J0000000000000000000B0B0', 'acc_2', '{"user_id":"usr_01J0000000000000000000B0B0","account_id":"acc_2"}', 1, 0);
      INSERT INTO webhooks (id, user_id, url, events, secret, created_at, updated_at) VALUES ('whk_1', 'usr_01J0000000000000000000ADA0', 'https://h.example', '["*"]', 's', 0, 0);
      INSERT INTO events (id, user_id, type, data, created_at) VALUES ('msg_1', 'usr_01J0000000000000000000B0B0', 'post.scheduled', '{}', 0);
      INSERT INTO outbox (event_id) VALUES ('msg_1');
    `)
    const rollups = old.prepare('SELECT * FROM analytics_hours ORDER BY 1, 2, 3, 4').all() as Record<string, unknown>[]
    expect(rollups.length).toBeGreaterThan(0)
    old.close()

    // Opened at 20, the step it is about: 24 drops an account's rollups on all platforms.
    const db = openDatabase(path, migrations.filter((m) => m.version <= 20))
    try {
      const ada = 'wsp_01J0000000000000000000ADA0'
      const bob = 'wsp_01J0000000000000000000B0B0'
      expect(db.prepare('SELECT id, name, personal_of, approval_required, timezone, created_at FROM workspaces ORDER BY id').all()).toEqual([
        { id: ada, name: 'Personal', personal_of: 'usr_01J0000000000000000000ADA0', approval_required: 0, timezone: 'Europe/Paris', created_at: 5 },
        { id: bob, name: 'Personal', personal_of: 'usr_01J0000000000000000000B0B0', approval_required: 0, timezone: 'UTC', created_at: 6 },
      ])
      expect(db.prepare('SELECT workspace_id, user_id, role FROM workspace_members ORDER BY 1').all()).toEqual([
        { workspace_id: ada, user_id: 'usr_01J0000000000000000000ADA0', role: 'owner' },
        { workspace_id: bob, user_id: 'usr_01J0000000000000000000B0B0', role: 'owner' },
      ])
      const workspaceOf = (table: string) => db.prepare(`SELECT id, workspace_id FROM ${table} ORDER BY id`).all()
      expect(workspaceOf('accounts')).toEqual([{ id: 'acc_1', workspace_id: ada }, { id: 'acc_2', workspace_id: bob }])
      expect(workspaceOf('posts')).toEqual([{ id: 'pst_1', workspace_id: ada }, { id: 'pst_2', workspace_id: bob }])
      expect(workspaceOf('webhooks')).toEqual([{ id: 'whk_1', workspace_id: ada }])
      expect(workspaceOf('events')).toEqual([{ id: 'msg_1', workspace_id: bob }])
      expect(db.prepare('SELECT event_id FROM outbox').pluck().all()).toEqual(['msg_1'])
      // The series' next occurrence is made from its template: the workspace is in it.
      expect(db.prepare('SELECT workspace_id, template FROM post_series').get()).toEqual({ workspace_id: bob, template: JSON.stringify({ user_id: 'usr_01J0000000000000000000B0B0', account_id: 'acc_2', workspace_id: bob }) })
      // Posts keep their author; the rollups are the same figures, by workspace.
      expect(db.prepare("SELECT user_id FROM posts WHERE id = 'pst_1'").pluck().get()).toBe('usr_01J0000000000000000000ADA0')
      const personal = (userId: unknown) => `wsp_${String(userId).slice(4)}`
      expect(db.prepare('SELECT * FROM analytics_hours ORDER BY 1, 2, 3, 4').all()).toEqual(rollups.map(({ user_id, ...rest }) => ({ workspace_id: personal(user_id), ...rest })))
      // A key that held every scope holds every scope still; one that held some, the same.
      expect(db.prepare('SELECT scopes FROM api_keys ORDER BY id').pluck().all()).toEqual([`${everyScope} workspaces:read workspaces:write posts:approve`, 'posts:read posts:write'])
      expect(db.pragma('foreign_key_check')).toEqual([])
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
      // A deleted post still takes its targets with it.
      db.exec(`DELETE FROM posts WHERE id = 'pst_1'`)
      expect(db.prepare(`SELECT count(*) AS n FROM post_targets WHERE post_id = 'pst_1'`).get()).toEqual({ n: 0 })
    } finally {
      db.close()
    }
  })

  it('migration 21 rebuilds posts for the approval states, keeping every post, target, metric and rollup; events before it have no actor', () => {
    const path = file()
    const old = openDatabase(path, migrations.filter((m) => m.version < 21))
    const ws = 'wsp_01J0000000000000000000ADA0'
    old.exec(`
      INSERT INTO users (id, name, created_at) VALUES ('usr_01J0000000000000000000ADA0', 'Ada', 0);
      INSERT INTO workspaces (id, name, personal_of, created_at) VALUES ('${ws}', 'Personal', 'usr_01J0000000000000000000ADA0', 0);
      INSERT INTO workspace_members (workspace_id, user_id, role, created_at) VALUES ('${ws}', 'usr_01J0000000000000000000ADA0', 'owner', 0);
      INSERT INTO accounts (id, workspace_id, user_id, name, created_at) VALUES ('acc_1', '${ws}', 'usr_01J0000000000000000000ADA0', 'Brand', 0);
      INSERT INTO posts (id, workspace_id, user_id, account_id, content, media_urls, platforms, scheduled_at, status, version, created_at, updated_at, published_at, thread, first_comment, overrides)
        VALUES ('pst_1', '${ws}', 'usr_01J0000000000000000000ADA0', 'acc_1', 'Hello', '["https://example.com/a.png"]', '["feed"]', 3600000, 'published', 3, 0, 3600000, 3601000, '[{"content":"2"}]', 'first', '{"feed":{"content":"f"}}'),
               ('pst_2', '${ws}', 'usr_01J0000000000000000000ADA0', 'acc_1', 'Later', '[]', '["feed"]', 7200000, 'scheduled', 1, 0, 0, NULL, '[]', NULL, '{}'),
               ('pst_3', '${ws}', 'usr_01J0000000000000000000ADA0', 'acc_1', 'Idea', '[]', '["feed"]', NULL, 'draft', 1, 0, 0, NULL, '[]', NULL, '{}');
      INSERT INTO post_targets (post_id, platform, status, attempts, published_at) VALUES ('pst_1', 'feed', 'published', 1, 3601000);
      INSERT INTO post_targets (post_id, platform, status) VALUES ('pst_2', 'feed', 'pending'), ('pst_3', 'feed', 'pending');
      INSERT INTO target_metrics (post_id, platform, taken_at, likes, reposts, replies, impressions, engagements) VALUES ('pst_1', 'feed', 3700000, 4, 1, 0, 90, 5);
      INSERT INTO top_targets (workspace_id, engagements, post_id, platform, scheduled_at, account_id) VALUES ('${ws}', 5, 'pst_1', 'feed', 3600000, 'acc_1');
      INSERT INTO events (id, workspace_id, type, data, created_at) VALUES ('msg_1', '${ws}', 'post.scheduled', '{}', 0);
      INSERT INTO media (id, user_id, status, content_type, bytes, token, url, created_at, updated_at)
        VALUES ('med_1', 'usr_01J0000000000000000000ADA0', 'ready', 'image/png', 10, 'tok', 'https://smm.example/media/tok.png', 0, 0);
      UPDATE posts SET media = '[{"id":"med_1","alt_text":"A cat"}]' WHERE id = 'pst_2';
      INSERT INTO post_media (post_id, media_id) VALUES ('pst_2', 'med_1');
    `)
    const posts = old.prepare('SELECT * FROM posts ORDER BY id').all()
    expect(posts).toContainEqual(expect.objectContaining({ id: 'pst_2', media: '[{"id":"med_1","alt_text":"A cat"}]' }))
    const rollups = old.prepare('SELECT * FROM analytics_hours ORDER BY 1, 2, 3, 4').all()
    const top = old.prepare('SELECT * FROM top_targets ORDER BY 1, 2, 3').all()
    expect(rollups.length).toBeGreaterThan(0)
    expect(top.length).toBeGreaterThan(0)
    old.close()

    const db = openDatabase(path, migrations.filter((m) => m.version <= 21))
    try {
      expect(db.prepare('SELECT * FROM posts ORDER BY id').all()).toEqual(posts)
      expect(db.prepare('SELECT * FROM analytics_hours ORDER BY 1, 2, 3, 4').all()).toEqual(rollups)
      expect(db.prepare('SELECT * FROM top_targets ORDER BY 1, 2, 3').all()).toEqual(top)
      expect(db.prepare('SELECT count(*) FROM post_targets').pluck().get()).toBe(3)
      expect(db.prepare('SELECT post_id, media_id FROM post_media').all()).toEqual([{ post_id: 'pst_2', media_id: 'med_1' }])
      expect(db.prepare('SELECT actor FROM events').pluck().all()).toEqual([null])
      expect(db.prepare('SELECT awaiting_approval FROM post_series').pluck().all()).toEqual([])
      // The new states are taken; the triggers made again still keep the rollups: a post waiting counts nowhere.
      const hours = () => db.prepare('SELECT * FROM analytics_hours ORDER BY 1, 2, 3, 4').all()
      const statusOf = (status: string) => (db.exec(`UPDATE posts SET status = '${status}' WHERE id = 'pst_2'`), hours())
      const uncounted = statusOf('cancelled')
      expect(uncounted).not.toEqual(rollups)
      expect(statusOf('pending_approval')).toEqual(uncounted)
      expect(statusOf('rejected')).toEqual(uncounted)
      expect(statusOf('scheduled')).toEqual(rollups)
      expect(() => db.exec("UPDATE posts SET status = 'waiting' WHERE id = 'pst_2'")).toThrow(/CHECK constraint/)
      expect(() => db.exec("UPDATE posts SET scheduled_at = NULL, status = 'pending_approval' WHERE id = 'pst_2'")).toThrow(/CHECK constraint/)
      expect(() => db.exec("UPDATE posts SET workspace_id = NULL WHERE id = 'pst_2'")).toThrow(/NOT NULL/)
      db.exec("INSERT INTO post_comments (id, post_id, author, body, decision, created_at) VALUES ('cmt_1', 'pst_2', NULL, 'hm', 'rejected', 1)")
      expect(db.pragma('foreign_key_check')).toEqual([])
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
      // A deleted post takes its targets, its comments, its media links and its rollups with it.
      db.exec("DELETE FROM posts WHERE id IN ('pst_1', 'pst_2')")
      expect(db.prepare('SELECT count(*) FROM post_targets').pluck().get()).toBe(1)
      expect(db.prepare('SELECT count(*) FROM post_media').pluck().get()).toBe(0)
      expect(db.prepare('SELECT count(*) FROM post_comments').pluck().get()).toBe(0)
      expect(db.prepare('SELECT count(*) FROM top_targets').pluck().get()).toBe(0)
    } finally {
      db.close()
    }
  })
})
