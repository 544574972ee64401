import type { Role } from '../../../src/api/workspaces.js'
import { newId, personalWorkspaceId } from '../../../src/ids.js'
import type { MemberChange, WorkspaceDeletion, WorkspacesStore } from '../port.js'
import { appendEvent } from './events.js'
import { memberOf, membershipOf, workspaceEventOf, workspaceRecordOf, type MemberRow, type MembershipRow, type WorkspaceRow } from '../rows.js'
import type { Queryable, Sql } from './connect.js'

/** A user's memberships, as a principal carries them. */
export async function membershipRows(q: Queryable, userId: string): Promise<MembershipRow[]> {
  return q<MembershipRow[]>`
    SELECT m.workspace_id, m.role, w.personal_of, w.approval_required
      FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id WHERE m.user_id = ${userId}`
}

/** A user's personal workspace, made with them, on `q` (the transaction that creates the user). */
export async function createPersonalWorkspace(q: Queryable, userId: string, now: number): Promise<void> {
  const id = personalWorkspaceId(userId)
  await q`INSERT INTO workspaces (id, name, personal_of, created_at) VALUES (${id}, 'Personal', ${userId}, ${now})`
  await q`INSERT INTO workspace_members (workspace_id, user_id, role, created_at) VALUES (${id}, ${userId}, 'owner', ${now})`
}

async function workspaceRow(q: Queryable, id: string, lock = false): Promise<WorkspaceRow | undefined> {
  const [row] = lock
    ? await q<WorkspaceRow[]>`
        SELECT w.id, w.name, w.personal_of, w.approval_required, coalesce(u.timezone, w.timezone) AS zone, w.created_at
          FROM workspaces w LEFT JOIN users u ON u.id = w.personal_of WHERE w.id = ${id} FOR UPDATE OF w`
    : await q<WorkspaceRow[]>`
        SELECT w.id, w.name, w.personal_of, w.approval_required, coalesce(u.timezone, w.timezone) AS zone, w.created_at
          FROM workspaces w LEFT JOIN users u ON u.id = w.personal_of WHERE w.id = ${id}`
  return row
}

async function memberRow(q: Queryable, id: string, userId: string): Promise<MemberRow | undefined> {
  const [row] = await q<MemberRow[]>`
    SELECT m.user_id, u.name, u.email, m.role, m.created_at FROM workspace_members m JOIN users u ON u.id = m.user_id
     WHERE m.workspace_id = ${id} AND m.user_id = ${userId}`
  return row
}

/** Whether taking `current`'s owner role away leaves none: the change is refused then. */
async function lastOwner(q: Queryable, id: string, current: MemberRow): Promise<boolean> {
  if (current.role !== 'owner') return false
  const [row] = await q<{ n: number }[]>`SELECT count(*)::int AS n FROM workspace_members WHERE workspace_id = ${id} AND role = 'owner'`
  return row!.n <= 1
}

export function workspacesStore(sql: Sql): WorkspacesStore {
  const record = async (q: Queryable, id: string) => {
    const row = await workspaceRow(q, id)
    return row && workspaceRecordOf(row)
  }
  // Every change to a workspace's members locks the workspace's row first: two owners demoting
  // each other at once, on one node or two, take turns, and the second finds it would leave none.
  const locked = <T>(id: string, work: (tx: Queryable, found: WorkspaceRow) => Promise<T>, missing: T) =>
    sql.begin(async (tx) => {
      const found = await workspaceRow(tx, id, true)
      return found ? work(tx, found) : missing
    })
  return {
    async create(ownerId, input, now) {
      return sql.begin(async (tx) => {
        const id = newId('wsp', now)
        await tx`INSERT INTO workspaces (id, name, approval_required, timezone, created_at) VALUES (${id}, ${input.name}, ${input.approvalRequired ? 1 : 0}, ${input.timezone}, ${now})`
        await tx`INSERT INTO workspace_members (workspace_id, user_id, role, created_at) VALUES (${id}, ${ownerId}, 'owner', ${now})`
        return (await record(tx, id))!
      })
    },
    get: (id) => record(sql, id),
    async listFor(userId, after, limit) {
      const rows = await sql<(WorkspaceRow & { role: Role })[]>`
        SELECT w.id, w.name, w.personal_of, w.approval_required, coalesce(u.timezone, w.timezone) AS zone, w.created_at, m.role
          FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id LEFT JOIN users u ON u.id = w.personal_of
         WHERE m.user_id = ${userId} AND m.workspace_id > ${after} ORDER BY m.workspace_id LIMIT ${limit}`
      return rows.map((row) => ({ ...workspaceRecordOf(row), role: row.role }))
    },
    async memberships(userId) {
      return (await membershipRows(sql, userId)).map(membershipOf)
    },
    async update(id, changes, now, by) {
      const approval = changes.approvalRequired === undefined ? null : changes.approvalRequired ? 1 : 0
      return locked(
        id,
        async (tx) => {
          await tx`
            UPDATE workspaces SET name = coalesce(${changes.name ?? null}, name), approval_required = coalesce(${approval}::int, approval_required),
                   timezone = coalesce(${changes.timezone ?? null}, timezone)
             WHERE id = ${id}`
          const after = (await record(tx, id))!
          await appendEvent(tx, id, 'workspace.updated', workspaceEventOf(after), now, by)
          return after
        },
        undefined,
      )
    },
    async delete(id) {
      return locked<WorkspaceDeletion>(
        id,
        async (tx, found) => {
          if (found.personal_of !== null) return { kind: 'personal' }
          const [row] = await tx<{ n: number }[]>`SELECT count(*)::int AS n FROM accounts WHERE workspace_id = ${id}`
          if (row!.n > 0) return { kind: 'has_accounts', count: row!.n }
          await tx`DELETE FROM workspaces WHERE id = ${id}`
          return { kind: 'ok' }
        },
        { kind: 'not_found' },
      )
    },
    async members(id, after, limit) {
      const rows = await sql<MemberRow[]>`
        SELECT m.user_id, u.name, u.email, m.role, m.created_at FROM workspace_members m JOIN users u ON u.id = m.user_id
         WHERE m.workspace_id = ${id} AND m.user_id > ${after} ORDER BY m.user_id LIMIT ${limit}`
      return rows.map(memberOf)
    },
    async member(id, userId) {
      const row = await memberRow(sql, id, userId)
      return row && memberOf(row)
    },
    async addMember(id, who, role, now, by) {
      return locked<MemberChange>(
        id,
        async (tx, found) => {
          if (found.personal_of !== null) return { kind: 'personal' }
          const [user] = 'userId' in who ? await tx<{ id: string }[]>`SELECT id FROM users WHERE id = ${who.userId}` : await tx<{ id: string }[]>`SELECT id FROM users WHERE email = ${who.email}`
          if (!user) return { kind: 'unknown_user' }
          const existing = await memberRow(tx, id, user.id)
          if (existing) return { kind: 'already_member', member: memberOf(existing) }
          await tx`INSERT INTO workspace_members (workspace_id, user_id, role, created_at) VALUES (${id}, ${user.id}, ${role}, ${now})`
          const added = memberOf((await memberRow(tx, id, user.id))!)
          await appendEvent(tx, id, 'workspace.member_added', { workspace_id: id, ...added }, now, by)
          return { kind: 'ok', member: added }
        },
        { kind: 'not_found' },
      )
    },
    async setRole(id, userId, role, now, by) {
      return locked<MemberChange>(
        id,
        async (tx) => {
          const current = await memberRow(tx, id, userId)
          if (!current) return { kind: 'not_found' }
          if (role !== 'owner' && (await lastOwner(tx, id, current))) return { kind: 'last_owner' }
          await tx`UPDATE workspace_members SET role = ${role} WHERE workspace_id = ${id} AND user_id = ${userId}`
          const changed = memberOf((await memberRow(tx, id, userId))!)
          await appendEvent(tx, id, 'workspace.member_updated', { workspace_id: id, ...changed, previous_role: current.role }, now, by)
          return { kind: 'ok', member: changed }
        },
        { kind: 'not_found' },
      )
    },
    async removeMember(id, userId, now, by) {
      return locked<MemberChange>(
        id,
        async (tx, found) => {
          const current = await memberRow(tx, id, userId)
          if (!current) return { kind: 'not_found' }
          if (found.personal_of !== null) return { kind: 'personal' }
          if (await lastOwner(tx, id, current)) return { kind: 'last_owner' }
          await tx`DELETE FROM workspace_members WHERE workspace_id = ${id} AND user_id = ${userId}`
          const removed = memberOf(current)
          await appendEvent(tx, id, 'workspace.member_removed', { workspace_id: id, ...removed }, now, by)
          return { kind: 'ok', member: removed }
        },
        { kind: 'not_found' },
      )
    },
  }
}
