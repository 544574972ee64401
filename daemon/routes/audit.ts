import type { AuditEntry } from '../../src/api/approval.js'
import { routes } from '../../src/contract.js'
import { afterId, toPage } from '../../src/pagination.js'
import { toIso } from '../../src/time.js'
import { accessOf } from '../access.js'
import type { AppDeps } from '../context.js'
import type { AuditRecord } from '../store/index.js'
import { actorView } from './approval.js'
import { bind, type ApiRouter } from './bind.js'

type Data = Record<string, unknown> & { id?: string; name?: string; platform?: string; status?: string; comment?: string | null }

const clip = (text: unknown, length = 80) => {
  const flat = String(text ?? '').replace(/\s+/g, ' ').trim()
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat
}

/** What an event was done to, and one line saying what happened, from its type and data. */
function described(type: AuditRecord['type'], data: Data): Pick<AuditEntry, 'object' | 'summary'> {
  const [family, what] = type.split(/\.(.*)/) as [string, string]
  const post = { type: 'post' as const, id: String(data.id ?? data.post_id) }
  switch (family) {
    case 'post': {
      const summaries: Record<string, string> = {
        drafted: 'drafted',
        scheduled: `scheduled for ${data.scheduled_at}`,
        approval_requested: `waits for approval, for ${data.scheduled_at}`,
        approved: `approved${data.comment ? `: ${clip(data.comment)}` : ''}`,
        rejected: `sent back: ${clip(data.comment)}`,
        updated: 'edited',
        cancelled: 'cancelled',
        published: 'published',
        partially_published: 'partly published',
        failed: 'failed',
        'target.published': `published on ${data.platform}`,
        'target.failed': `failed on ${data.platform}`,
        series_ended: 'its series ended',
        commented: `commented on: ${clip(data.body)}`,
        review_link_created: `given review link ${data.review_link_id}, until ${data.expires_at}`,
        review_link_revoked: `review link ${data.review_link_id} revoked`,
      }
      return { object: post, summary: `Post ${post.id} ${summaries[what] ?? what}` }
    }
    case 'account': {
      const summaries: Record<string, string> = {
        connected: `connected to ${data.platform}`,
        disconnected: `disconnected from ${data.platform}`,
        reauth_required: `must connect ${data.platform} again`,
        updated: `renamed ${clip(data.name)}`,
        deleted: 'deleted',
      }
      return { object: { type: 'account', id: String(data.id) }, summary: `Account ${clip(data.name, 40)} (${data.id}) ${summaries[what] ?? what}` }
    }
    case 'workspace': {
      if (what === 'updated') {
        return { object: { type: 'workspace', id: String(data.id) }, summary: `Workspace now "${clip(data.name, 40)}", approval ${data.approval_required ? 'required' : 'not required'}, time zone ${data.timezone}` }
      }
      const who = `${clip(data.name, 40)} (${data.user_id})`
      const summaries: Record<string, string> = {
        member_added: `${who} added as ${data.role}`,
        member_updated: `${who} made ${data.role}, was ${data.previous_role}`,
        member_removed: `${who} removed, was ${data.role}`,
      }
      return { object: { type: 'member', id: String(data.user_id) }, summary: summaries[what] ?? what }
    }
    case 'key':
      return { object: { type: 'key', id: String(data.id) }, summary: `API key "${clip(data.name, 40)}" (${data.prefix}…) created for ${data.user_id}` }
    default:
      return { object: { type: 'webhook', id: String(data.webhook_id) }, summary: `Webhook ${data.webhook_id} sent a test event` }
  }
}

export function auditEntry(record: AuditRecord): AuditEntry {
  const { object, summary } = described(record.type, record.data as Data)
  const actor = actorView(record.actor, record.actorName)
  // Said in the line too: a decision through a link was made by someone without an account.
  const via = actor.type === 'review_link' ? ` (via review link${actor.name ? `, by ${clip(actor.name, 40)}` : ''})` : ''
  return { id: record.id, kind: record.type, actor, object, summary: summary + via, created_at: toIso(record.createdAt) }
}

/** A workspace's audit log: its events, newest first, with who caused each. */
export function auditRoutes(router: ApiRouter, deps: AppDeps): void {
  bind(router, routes.getAuditLog, async (ctx, { params, query, principal }) => {
    accessOf(principal).workspace(params.id, 'manage_workspace')
    const filters = {
      ...(query.kind !== undefined ? { kinds: query.kind.split(',') } : {}),
      ...(query.from !== undefined ? { from: Date.parse(query.from) } : {}),
      ...(query.to !== undefined ? { to: Date.parse(query.to) } : {}),
    }
    const records = await deps.store.events.audit(params.id, filters, afterId(query.cursor), query.limit + 1)
    ctx.body = toPage(records.map(auditEntry), query.limit)
  })
}
