import type { Member, Role } from '../../../src/api/workspaces.js'
import { newId } from '../../../src/ids.js'
import type { Actor, MemberChange, Membership, NewWorkspace, WorkspaceChanges, WorkspaceDeletion, WorkspaceRecord, WorkspacesStore } from '../port.js'
import { memberOf, membershipOf, workspaceRecordOf, type MemberRow, type MembershipRow, type WorkspaceRow } from '../rows.js'
import type { Db } from './db.js'
import type { eventsStore } from './events.js'
import { workspaceEventOf } from '../rows.js'

/** A workspace's columns, its zone resolved: a personal workspace's is its user's (`u`, joined on `personal_of`). */
const WORKSPACE_COLUMNS = 'w.id, w.name, w.personal_of, w.approval_required, coalesce(u.timezone, w.timezone) AS zone, w.created_at'

/** What a principal carries of each workspace its user belongs to (read with the key, on a cache miss). */
export function membershipsOf(db: Db) {
  const statement = db.prepare<[string], MembershipRow>(
    `SELECT m.workspace_id, m.role, w.personal_of, w.approval_required
       FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id WHERE m.user_id = ?`,
  )
  return (userId: string): MembershipRow[] => statement.all(userId)
}

export function workspacesStore(db: Db, events: ReturnType<typeof eventsStore>): WorkspacesStore {
  const insert = db.prepare<[string, string, number, string, number], void>(
    'INSERT INTO workspaces (id, name, approval_required, timezone, created_at) VALUES (?, ?, ?, ?, ?)',
  )
  const insertMember = db.prepare<[string, string, Role, number], void>('INSERT INTO workspace_members (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)')
  const byId = db.prepare<[string], WorkspaceRow>(`SELECT ${WORKSPACE_COLUMNS} FROM workspaces w LEFT JOIN users u ON u.id = w.personal_of WHERE w.id = ?`)
  const page = db.prepare<[string, string, number], WorkspaceRow & { role: Role }>(
    `SELECT ${WORKSPACE_COLUMNS}, m.role FROM workspace_members m CROSS JOIN workspaces w ON w.id = m.workspace_id LEFT JOIN users u ON u.id = w.personal_of
      WHERE m.user_id = ? AND m.workspace_id > ? ORDER BY m.workspace_id LIMIT ?`,
  )
  const memberships = membershipsOf(db)
  const update = db.prepare<{ id: string; name: string | null; approval: number | null; timezone: string | null }, void>(
    `UPDATE workspaces SET name = coalesce(@name, name), approval_required = coalesce(@approval, approval_required), timezone = coalesce(@timezone, timezone)
      WHERE id = @id`,
  )
  const accounts = db.prepare<[string], number>('SELECT count(*) FROM accounts WHERE workspace_id = ?').pluck()
  const remove = db.prepare<[string], void>('DELETE FROM workspaces WHERE id = ?')
  const memberColumns = 'm.user_id, u.name, u.email, m.role, m.created_at'
  const membersPage = db.prepare<[string, string, number], MemberRow>(
    `SELECT ${memberColumns} FROM workspace_members m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = ? AND m.user_id > ? ORDER BY m.user_id LIMIT ?`,
  )
  const member = db.prepare<[string, string], MemberRow>(`SELECT ${memberColumns} FROM workspace_members m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = ? AND m.user_id = ?`)
  const owners = db.prepare<[string], number>("SELECT count(*) FROM workspace_members WHERE workspace_id = ? AND role = 'owner'").pluck()
  const userById = db.prepare<[string], string>('SELECT id FROM users WHERE id = ?').pluck()
  const userByEmail = db.prepare<[string], string>('SELECT id FROM users WHERE email = ?').pluck()
  const setRole = db.prepare<[Role, string, string], void>('UPDATE workspace_members SET role = ? WHERE workspace_id = ? AND user_id = ?')
  const removeMember = db.prepare<[string, string], void>('DELETE FROM workspace_members WHERE workspace_id = ? AND user_id = ?')

  const record = (id: string): WorkspaceRecord | undefined => {
    const row = byId.get(id)
    return row && workspaceRecordOf(row)
  }

  const create = db.transaction((ownerId: string, input: NewWorkspace, now: number) => {
    const id = newId('wsp', now)
    insert.run(id, input.name, input.approvalRequired ? 1 : 0, input.timezone, now)
    insertMember.run(id, ownerId, 'owner', now)
    return record(id)!
  })

  const deleteTx = db.transaction((id: string): WorkspaceDeletion => {
    const found = record(id)
    if (!found) return { kind: 'not_found' }
    if (found.personalOf !== null) return { kind: 'personal' }
    const count = accounts.get(id)!
    if (count > 0) return { kind: 'has_accounts', count }
    remove.run(id)
    return { kind: 'ok' }
  })

  // Each change to the members is read and written in one immediate transaction: two owners
  // demoting each other at once cannot both succeed and leave the workspace without one.
  const changed = db.transaction((id: string, changes: WorkspaceChanges, now: number, by: Actor) => {
    if (!record(id)) return undefined
    update.run({
      id,
      name: changes.name ?? null,
      approval: changes.approvalRequired === undefined ? null : changes.approvalRequired ? 1 : 0,
      timezone: changes.timezone ?? null,
    })
    const after = record(id)!
    events.appendSync(id, 'workspace.updated', workspaceEventOf(after), now, by)
    return after
  })

  const add = db.transaction((id: string, who: { userId: string } | { email: string }, role: Role, now: number, by: Actor): MemberChange => {
    const found = record(id)
    if (!found) return { kind: 'not_found' }
    if (found.personalOf !== null) return { kind: 'personal' }
    const userId = 'userId' in who ? userById.get(who.userId) : userByEmail.get(who.email)
    if (userId === undefined) return { kind: 'unknown_user' }
    const existing = member.get(id, userId)
    if (existing) return { kind: 'already_member', member: memberOf(existing) }
    insertMember.run(id, userId, role, now)
    const added = memberOf(member.get(id, userId)!)
    events.appendSync(id, 'workspace.member_added', { workspace_id: id, ...added }, now, by)
    return { kind: 'ok', member: added }
  })

  /** Whether taking `userId`'s owner role away leaves none: the change is refused then. */
  const lastOwner = (id: string, current: MemberRow) => current.role === 'owner' && owners.get(id)! <= 1

  const changeRole = db.transaction((id: string, userId: string, role: Role, now: number, by: Actor): MemberChange => {
    const current = member.get(id, userId)
    if (!current) return { kind: 'not_found' }
    if (role !== 'owner' && lastOwner(id, current)) return { kind: 'last_owner' }
    setRole.run(role, id, userId)
    const changedMember = memberOf(member.get(id, userId)!)
    events.appendSync(id, 'workspace.member_updated', { workspace_id: id, ...changedMember, previous_role: current.role }, now, by)
    return { kind: 'ok', member: changedMember }
  })

  const drop = db.transaction((id: string, userId: string, now: number, by: Actor): MemberChange => {
    const current = member.get(id, userId)
    if (!current) return { kind: 'not_found' }
    if (record(id)!.personalOf !== null) return { kind: 'personal' }
    if (lastOwner(id, current)) return { kind: 'last_owner' }
    removeMember.run(id, userId)
    const removed = memberOf(current)
    events.appendSync(id, 'workspace.member_removed', { workspace_id: id, ...removed }, now, by)
    return { kind: 'ok', member: removed }
  })

  return {
    async create(ownerId, input, now) {
      return create.immediate(ownerId, input, now)
    },
    async get(id) {
      return record(id)
    },
    async listFor(userId, after, limit) {
      return page.all(userId, after, limit).map((row) => ({ ...workspaceRecordOf(row), role: row.role }))
    },
    async memberships(userId): Promise<Membership[]> {
      return memberships(userId).map(membershipOf)
    },
    async update(id, changes, now, by) {
      return changed.immediate(id, changes, now, by)
    },
    async delete(id) {
      return deleteTx.immediate(id)
    },
    async members(id, after, limit): Promise<Member[]> {
      return membersPage.all(id, after, limit).map(memberOf)
    },
    async member(id, userId) {
      const row = member.get(id, userId)
      return row && memberOf(row)
    },
    async addMember(id, who, role, now, by) {
      return add.immediate(id, who, role, now, by)
    },
    async setRole(id, userId, role, now, by) {
      return changeRole.immediate(id, userId, role, now, by)
    },
    async removeMember(id, userId, now, by) {
      return drop.immediate(id, userId, now, by)
    },
  }
}
