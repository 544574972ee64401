// How a post looks in the calendar: a status colour, and a glyph that tells the statuses apart
// without colour too (NO_COLOR terminals, colour-blind users, test frames).

import type { Post, PostStatus } from './calendar-source.js'
import { formatTime } from '../zoned-time.js'
import { clipToWidth, printable } from '../display-width.js'

/** The colour (an Ink colour name) and glyph of each post status. */
export const STATUS_STYLE: Record<PostStatus, { glyph: string; color: string }> = {
  draft: { glyph: '✎', color: 'blue' },
  pending_approval: { glyph: '?', color: 'yellow' },
  rejected: { glyph: '↺', color: 'red' },
  scheduled: { glyph: '○', color: 'cyan' },
  publishing: { glyph: '◐', color: 'yellow' },
  published: { glyph: '●', color: 'green' },
  partially_published: { glyph: '◑', color: 'magenta' },
  failed: { glyph: '✗', color: 'red' },
  cancelled: { glyph: '⊘', color: 'gray' },
}

const STATUS_WORDS: Record<PostStatus, string> = {
  draft: 'draft',
  pending_approval: 'waiting for approval',
  rejected: 'rejected',
  scheduled: 'scheduled',
  publishing: 'publishing',
  published: 'published',
  partially_published: 'partially published',
  failed: 'failed',
  cancelled: 'cancelled',
}

/** A status as the calendar says it. */
export function statusWord(status: PostStatus): string {
  return STATUS_WORDS[status]
}

/** The grid's mark for a day's free queue slots, before their number (◇2). */
export const FREE_SLOT_GLYPH = '◇'

/** `text` cut to `width` terminal cells with an ellipsis (posts are one line in the grid). */
export function clip(text: string, width: number): string {
  // Measured in columns by grapheme: an emoji with a skin tone is one cluster two columns wide.
  return clipToWidth(text, width)
}

/** The post's text on one line: newlines become spaces, other control characters visible symbols. */
export function oneLine(text: string): string {
  return printable(text.replace(/\s*\n\s*/g, ' ').trim())
}

/**
 * Where the calendar places a post: at its time, or a draft with none yet at its creation, as
 * the API lists it (so the month's list brings exactly the posts of the month's days).
 */
export function placedAt(post: Post): number {
  return Date.parse(post.scheduled_at ?? post.created_at)
}

/** 'HH:MM' of the post in the user's zone; a draft with no time yet shows none. */
export function postTime(post: Post, timeZone: string): string {
  return post.scheduled_at === null ? '--:--' : formatTime(placedAt(post), timeZone)
}

/** Posts that can still be changed or cancelled: scheduled ones, drafts, and those waiting for (or refused) approval. */
export function isEditable(post: Post): boolean {
  return post.status === 'scheduled' || post.status === 'draft' || post.status === 'pending_approval' || post.status === 'rejected'
}
