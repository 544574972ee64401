import type { Migration } from './index.js'

/**
 * Media a user uploads. A row is made before the first byte is stored (`uploading`, its size
 * reserved against the user's quota), becomes `ready` once the bytes are whole and checked, and
 * `deleting` while the cleanup removes its bytes: a crash at any point leaves a row that says
 * what to clean. `release_at` is when an unreferenced media may go (24 h after its upload, or at
 * once when the account that used it is deleted); a post that names it clears it, and
 * `post_media` lists which posts name which media (the post itself, its thread, its overrides).
 * `lease_expires_at` and `claimed_by` are the cleanup's claim. `uploads` are tus 1.0 uploads in
 * progress, each the future of one `uploading` media row; `parts` counts the stored pieces.
 *
 * Keys created with every scope (the default) get the two new scopes too: they were made to hold
 * all of them.
 */
export const media: Migration = {
  version: 19,
  name: 'media objects, the posts that use them, resumable uploads',
  sql: `
    CREATE TABLE media (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      status TEXT NOT NULL CHECK (status IN ('uploading', 'ready', 'deleting')),
      content_type TEXT NOT NULL,
      bytes INTEGER NOT NULL,
      sha256 TEXT,
      width INTEGER,
      height INTEGER,
      duration_ms INTEGER,
      alt_text TEXT,
      token TEXT NOT NULL UNIQUE,
      -- The public URL, fixed when the upload began: what posts and platforms were given.
      url TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      release_at INTEGER,
      lease_expires_at INTEGER,
      claimed_by TEXT
    );
    CREATE INDEX media_user ON media(user_id, id);
    CREATE INDEX media_release ON media(release_at) WHERE release_at IS NOT NULL;
    CREATE INDEX media_unfinished ON media(status, created_at) WHERE status <> 'ready';

    CREATE TABLE post_media (
      post_id TEXT NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
      media_id TEXT NOT NULL REFERENCES media(id) ON DELETE CASCADE,
      PRIMARY KEY (post_id, media_id)
    ) WITHOUT ROWID;
    CREATE INDEX post_media_media ON post_media(media_id);

    -- JSON: [{id, alt_text}], as the post gave them.
    ALTER TABLE posts ADD COLUMN media TEXT NOT NULL DEFAULT '[]';

    CREATE TABLE uploads (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      media_id TEXT NOT NULL REFERENCES media(id) ON DELETE CASCADE,
      length INTEGER NOT NULL,
      upload_offset INTEGER NOT NULL DEFAULT 0,
      parts INTEGER NOT NULL DEFAULT 0,
      content_type TEXT NOT NULL,
      alt_text TEXT,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      lease_expires_at INTEGER,
      claimed_by TEXT
    );
    CREATE INDEX uploads_expiry ON uploads(expires_at);

    UPDATE api_keys SET scopes = scopes || ' media:read media:write'
     WHERE scopes = 'profile:read profile:write accounts:read accounts:write posts:read posts:write analytics:read ai:generate webhooks:read webhooks:write keys:write';
  `,
}
