import type { Migration } from './index.js'

/**
 * Review links: a URL that lets someone without an account see a post and approve it or ask for
 * changes. Only the SHA-256 of the URL's token is kept, so reading the database gives no link.
 * A link belongs to its post (and goes with it); `created_by` is the member who made it, as
 * events keep an actor (JSON). A revoked link keeps its row, so the page can say it was revoked.
 */
export const reviewLinks: Migration = {
  version: 22,
  name: 'review links to posts, kept by the hash of their token',
  sql: `
    CREATE TABLE review_links (
      id TEXT PRIMARY KEY,
      post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
      token_hash TEXT NOT NULL UNIQUE,
      created_by TEXT,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      revoked_at INTEGER
    );
    CREATE INDEX review_links_post ON review_links(post_id, id);
  `,
}
