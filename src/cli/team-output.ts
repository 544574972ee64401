import type { Actor, Comment } from '../api/approval.js'
import type { Member, Workspace } from '../api/workspaces.js'
import { details, localTime, table } from './output.js'

/** Workspaces as an aligned table: what `workspaces list` prints. */
export function workspaceTable(workspaces: readonly Workspace[]): string {
  return table(workspaces, [
    { header: 'ID', value: (w) => w.id },
    { header: 'NAME', value: (w) => (w.personal ? `${w.name} (personal)` : w.name) },
    { header: 'ROLE', value: (w) => w.role },
    { header: 'APPROVAL', value: (w) => (w.approval_required ? 'required' : '-') },
    { header: 'TIME ZONE', value: (w) => w.timezone },
  ])
}

/** One workspace, field by field: what `workspaces show`, `create` and `update` print. */
export function workspaceDetails(w: Workspace): string {
  return details([
    ['Workspace', `${w.name} (${w.id})${w.personal ? ', personal' : ''}`],
    ['Your role', w.role],
    ['Approval', w.approval_required ? "required: editors' posts wait until an admin or owner approves them" : 'not required'],
    ['Time zone', w.timezone],
    ['Created', localTime(w.created_at)],
  ])
}

/** A workspace's members as an aligned table. */
export function memberTable(members: readonly Member[]): string {
  return table(members, [
    { header: 'USER', value: (m) => m.user_id },
    { header: 'NAME', value: (m) => m.name },
    { header: 'EMAIL', value: (m) => m.email ?? '-' },
    { header: 'ROLE', value: (m) => m.role },
    { header: 'JOINED', value: (m) => localTime(m.created_at) },
  ])
}

/** Who an actor is, in words: "Ana", "Carla (via review link)", "smm". */
export function actorWords(actor: Actor): string {
  if (actor.type === 'user') return actor.name
  if (actor.type === 'review_link') return `${actor.name ?? 'someone'} (via review link)`
  return 'smm'
}

const DECIDED = { approved: 'approved', rejected: 'asked for changes' } as const

/** A post's comments, oldest first, each under its author, time and decision. */
export function commentList(comments: readonly Comment[]): string {
  return comments
    .map((c) => `${actorWords(c.author)}${c.decision ? ` ${DECIDED[c.decision]}` : ''}, ${localTime(c.created_at)}:\n${c.body.replace(/^/gm, '  ')}`)
    .join('\n\n')
}
