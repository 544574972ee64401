import { ROLES, type Role } from '../src/api/workspaces.js'
import { ApiError, notFound } from '../src/errors.js'
import type { Membership, Principal, UserActor, WorkspaceScope } from './store/index.js'

/**
 * Who may do what in a workspace: the one place that says it. Every route asks here, and hands
 * the store the workspaces it answers (a scope), so a row of any other workspace is as absent as
 * a missing one: 404, never 403. A member whose role does not allow an action gets 403 naming
 * their role and the one it needs. The memberships come with the principal, which every node
 * forgets on any change to a workspace or its members: a member removed is refused at once.
 */

/** The least role that may do each thing; each role may do what the roles below it may. */
const LEAST = {
  /** See a workspace's accounts, posts, analytics and members. */
  read: 'viewer',
  comment: 'viewer',
  /** Create, edit, schedule, cancel and retry posts. */
  write_posts: 'editor',
  /** Approve or reject posts, and send review links (which approve without an account). */
  approve: 'admin',
  /** Accounts, their connections and queue slots. */
  manage_accounts: 'admin',
  /** Webhooks, reading them too: their URLs and deliveries carry what receivers answered. */
  manage_webhooks: 'admin',
  manage_members: 'admin',
  /** Make a member an owner, or change or remove an owner. */
  manage_owners: 'owner',
  /** Rename it, require approval, change its zone; read its audit log. */
  manage_workspace: 'admin',
  delete_workspace: 'owner',
} as const satisfies Record<string, Role>

export type Action = keyof typeof LEAST

const WHAT: Record<Action, string> = {
  read: 'seeing it',
  comment: 'commenting',
  write_posts: 'writing posts',
  approve: 'approving posts',
  manage_accounts: 'managing its accounts',
  manage_webhooks: 'managing its webhooks',
  manage_members: 'managing its members',
  manage_owners: 'making, changing or removing owners',
  manage_workspace: 'changing it',
  delete_workspace: 'deleting it',
}

/** ROLES runs from most to least: a lower index is more. */
export const outranks = (role: Role, other: Role) => ROLES.indexOf(role) <= ROLES.indexOf(other)

export function allows(role: Role, action: Action): boolean {
  return outranks(role, LEAST[action])
}

/** The roles that may do `action`, for messages: "admin or owner". */
function rolesFor(action: Action): string {
  const roles = ROLES.filter((r) => allows(r, action)).reverse()
  return roles.length === 1 ? roles[0]! : `${roles.slice(0, -1).join(', ')} or ${roles.at(-1)}`
}

export function forbidden(membership: Membership, action: Action): ApiError {
  return new ApiError(
    403,
    'forbidden',
    `Your role in workspace ${membership.workspaceId} is ${membership.role}; ${WHAT[action]} needs ${rolesFor(action)}.`,
    { extensions: { workspace_id: membership.workspaceId, role: membership.role, required_role: LEAST[action] } },
  )
}

/** What one principal may do in each of its workspaces. */
export class Access {
  private readonly memberships: ReadonlyMap<string, Membership>

  constructor(readonly principal: Pick<Principal, 'memberships' | 'user'> & { key?: Pick<Principal['key'], 'id'> }) {
    this.memberships = principal.memberships
  }

  get userId(): string {
    return this.principal.user.id
  }

  /** Who the changes this principal makes are recorded as: the user, and the key they used. */
  get actor(): UserActor {
    return { userId: this.principal.user.id, keyId: this.principal.key?.id ?? null }
  }

  /** The workspaces where the user may `action`: the scope of a store call. */
  where(action: Action): WorkspaceScope {
    return [...this.memberships.values()].filter((m) => allows(m.role, action)).map((m) => m.workspaceId)
  }

  /** The user's personal workspace. */
  personal(): Membership {
    for (const m of this.memberships.values()) if (m.personal) return m
    throw new Error(`User ${this.userId} has no personal workspace`)
  }

  /** The user's membership of a workspace, if any. */
  membership(workspaceId: string): Membership | undefined {
    return this.memberships.get(workspaceId)
  }

  /**
   * A workspace a request names (or, with none, the personal one) for `action`: 404 if the user
   * is no member of it, 403 if their role does not allow the action.
   */
  workspace(id: string | undefined, action: Action): Membership {
    const membership = id === undefined ? this.personal() : this.memberships.get(id)
    if (!membership) throw notFound('workspace', id)
    return this.require(membership.workspaceId, action)
  }

  /**
   * The user's membership of the workspace of something they could read, if their role allows
   * `action` there; 403 if it does not (404 if they are no member at all, as for anything else).
   */
  require(workspaceId: string, action: Action): Membership {
    const membership = this.memberships.get(workspaceId)
    if (!membership) throw notFound('workspace', workspaceId)
    if (!allows(membership.role, action)) throw forbidden(membership, action)
    return membership
  }

  /**
   * Something looked up among what the user can read (404 `missing` if it is not there), once
   * their role allows `action` in its workspace (403 if not).
   */
  async find<T>(action: Action, lookUp: (scope: WorkspaceScope) => Promise<T | undefined>, workspaceOf: (found: T) => string, missing: () => ApiError): Promise<T> {
    const found = await lookUp(this.where('read'))
    if (found === undefined) throw missing()
    this.require(workspaceOf(found), action)
    return found
  }

  /** The scope for a list: the workspace a request names (404 or 403 as `workspace`), else every one where the user may `action`. */
  scope(id: string | undefined, action: Action): WorkspaceScope {
    return id === undefined ? this.where(action) : [this.workspace(id, action).workspaceId]
  }

  /** Whether what the user writes in a workspace waits for approval there: an editor's, where the workspace asks for it. */
  needsApproval(workspaceId: string): boolean {
    const membership = this.memberships.get(workspaceId)
    return membership !== undefined && membership.approvalRequired && !allows(membership.role, 'approve')
  }
}

const cache = new WeakMap<object, Access>()

/** The access of a request's principal (made once per principal). */
export function accessOf(principal: Pick<Principal, 'memberships' | 'user'> & { key?: Pick<Principal['key'], 'id'> }): Access {
  let access = cache.get(principal)
  if (!access) cache.set(principal, (access = new Access(principal)))
  return access
}
