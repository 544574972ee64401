import type { Migration } from '../../migrations.js'

/** SQLite's 0022 on PostgreSQL: review links, kept by the SHA-256 of their token. */
export const reviewLinks: Migration = {
  version: 15,
  name: 'review links to posts, kept by the hash of their token',
  sql: `
    CREATE TABLE review_links (
      id TEXT PRIMARY KEY,
      post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
      token_hash TEXT NOT NULL UNIQUE,
      created_by TEXT,
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL,
      revoked_at BIGINT
    );
    CREATE INDEX review_links_post ON review_links(post_id, id);
  `,
}
