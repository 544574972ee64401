import type { Plan } from '../../../src/api/common.js'
import type { Limits, User } from '../../../src/api/users.js'
import { newId, personalWorkspaceId } from '../../../src/ids.js'
import type { Db } from './db.js'
import type { NewUser } from '../port.js'
import { userFromRow, type UserRow } from '../rows.js'



export function usersStore(db: Db) {
  const insert = db.prepare<[string, string, string | null, Plan, string, number, number], void>(
    'INSERT INTO users (id, name, email, plan, timezone, is_owner, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  )
  const byId = db.prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?')
  const all = db.prepare<[], UserRow>('SELECT * FROM users ORDER BY id')
  const owner = db.prepare<[], UserRow>('SELECT * FROM users WHERE is_owner = 1 ORDER BY id LIMIT 1')
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM users')
  const update = db.prepare<[string | null, string | null, string], void>(
    'UPDATE users SET name = coalesce(?, name), timezone = coalesce(?, timezone) WHERE id = ?',
  )
  const setPlan = db.prepare<[Plan, number | null, number | null, number | null, string], void>(
    'UPDATE users SET plan = ?, custom_per_minute = ?, custom_per_hour = ?, custom_per_day = ? WHERE id = ?',
  )

  const insertPersonal = db.prepare<[string, string, number], void>("INSERT INTO workspaces (id, name, personal_of, created_at) VALUES (?, 'Personal', ?, ?)")
  const insertOwner = db.prepare<[string, string, number], void>("INSERT INTO workspace_members (workspace_id, user_id, role, created_at) VALUES (?, ?, 'owner', ?)")

  // A user and their personal workspace are one unit of work: no user is ever without it.
  const createTx = db.transaction((input: NewUser, now: number): User => {
    const id = newId('usr', now)
    insert.run(id, input.name, input.email ?? null, input.plan ?? 'standard', input.timezone ?? 'UTC', input.isOwner ? 1 : 0, now)
    const workspaceId = personalWorkspaceId(id)
    insertPersonal.run(workspaceId, id, now)
    insertOwner.run(workspaceId, id, now)
    return userFromRow(byId.get(id)!)
  })
  const createSync = (input: NewUser, now: number): User => createTx(input, now)

  return {
    /** The synchronous core of `create`, for units of work that span tables. */
    createSync,
    async create(input: NewUser, now: number): Promise<User> {
      return createTx.immediate(input, now)
    },
    async get(id: string): Promise<User | undefined> {
      const row = byId.get(id)
      return row && userFromRow(row)
    },
    /** The user created at first start. */
    async owner(): Promise<User | undefined> {
      const row = owner.get()
      return row && userFromRow(row)
    },
    async list(): Promise<User[]> {
      return all.all().map(userFromRow)
    },
    async count(): Promise<number> {
      return count.get()!.n
    },
    /** Changes a user's name or IANA time zone (the one dates are shown and analytics bucketed in). */
    async update(id: string, changes: { name?: string; timezone?: string }): Promise<User | undefined> {
      update.run(changes.name ?? null, changes.timezone ?? null, id)
      const row = byId.get(id)
      return row && userFromRow(row)
    },
    /** Sets a user's plan; custom limits are kept only for enterprise. */
    async setPlan(id: string, plan: Plan, custom: Partial<Limits> = {}): Promise<User | undefined> {
      const keep = plan === 'enterprise'
      setPlan.run(
        plan,
        keep ? (custom.per_minute ?? null) : null,
        keep ? (custom.per_hour ?? null) : null,
        keep ? (custom.per_day ?? null) : null,
        id,
      )
      const row = byId.get(id)
      return row && userFromRow(row)
    },
  }
}
