import type { Plan } from '../../../src/api/common.js'
import type { Limits, User } from '../../../src/api/users.js'
import { newId } from '../../../src/ids.js'
import type { NewUser, UsersStore } from '../port.js'
import { userFromRow, type UserRow } from '../rows.js'
import type { Queryable, Sql } from './connect.js'
import { createPersonalWorkspace } from './workspaces.js'

/** Creates a user and their personal workspace on `q`: the transaction of a larger unit of work, or one of their own. */
export async function createUser(q: Queryable, input: NewUser, now: number): Promise<User> {
  const [row] = await q<UserRow[]>`
    INSERT INTO users (id, name, email, plan, timezone, is_owner, created_at)
    VALUES (${newId('usr', now)}, ${input.name}, ${input.email ?? null}, ${input.plan ?? 'standard'},
            ${input.timezone ?? 'UTC'}, ${input.isOwner ? 1 : 0}, ${now})
    RETURNING *`
  await createPersonalWorkspace(q, row!.id, now)
  return userFromRow(row!)
}

export function usersStore(sql: Sql): UsersStore {
  const one = (rows: UserRow[]) => (rows[0] ? userFromRow(rows[0]) : undefined)
  return {
    create: (input, now) => sql.begin((tx) => createUser(tx, input, now)),
    async get(id) {
      return one(await sql<UserRow[]>`SELECT * FROM users WHERE id = ${id}`)
    },
    async owner() {
      return one(await sql<UserRow[]>`SELECT * FROM users WHERE is_owner = 1 ORDER BY id LIMIT 1`)
    },
    async list() {
      return (await sql<UserRow[]>`SELECT * FROM users ORDER BY id`).map(userFromRow)
    },
    async count() {
      const [row] = await sql<{ n: number }[]>`SELECT count(*)::bigint AS n FROM users`
      return row!.n
    },
    async update(id, changes) {
      return one(
        await sql<UserRow[]>`
          UPDATE users SET name = coalesce(${changes.name ?? null}, name), timezone = coalesce(${changes.timezone ?? null}, timezone)
           WHERE id = ${id} RETURNING *`,
      )
    },
    async setPlan(id: string, plan: Plan, custom: Partial<Limits> = {}) {
      const keep = plan === 'enterprise'
      const limit = (value: number | undefined) => (keep ? (value ?? null) : null)
      return one(
        await sql<UserRow[]>`
          UPDATE users SET plan = ${plan}, custom_per_minute = ${limit(custom.per_minute)},
                 custom_per_hour = ${limit(custom.per_hour)}, custom_per_day = ${limit(custom.per_day)}
           WHERE id = ${id} RETURNING *`,
      )
    },
  }
}
