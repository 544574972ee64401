import * as v from 'valibot'
import { IdParams, listOf, Name, PageQueryEntries, Timestamp } from './common.js'
import { route } from './route.js'
import { TimeZoneName } from './users.js'

/** What a member may do, from most to least: each role may do everything the ones below it may. */
export const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const
export type Role = (typeof ROLES)[number]

const RoleName = v.pipe(
  v.picklist(ROLES, `must be one of: ${ROLES.join(', ')}`),
  v.description('owner: everything, and there is always one; admin: accounts, connections, webhooks, members, approving; editor: writes posts (which wait for approval where the workspace asks for it); viewer: reads and comments'),
)

/** A workspace as one of its members sees it. */
export const Workspace = v.pipe(
  v.object({
    id: v.string(),
    name: v.string(),
    approval_required: v.pipe(v.boolean(), v.description("true: an editor's posts wait (status pending_approval) until an admin or owner approves them")),
    personal: v.pipe(v.boolean(), v.description('The workspace every user has for themselves: never shared, never deleted')),
    timezone: v.pipe(v.string(), v.description('The IANA zone its queue slots, series and review links keep wall-clock time in; a personal workspace follows its user’s (PATCH /v1/me)')),
    role: v.pipe(v.picklist(ROLES), v.description('Your role in it')),
    created_at: Timestamp,
  }),
  v.title('Workspace'),
)
export type Workspace = v.InferOutput<typeof Workspace>

export const WorkspaceCreate = v.strictObject({
  name: Name,
  approval_required: v.optional(v.boolean()),
  timezone: v.optional(v.pipe(TimeZoneName, v.description('Default: your own (GET /v1/me)'))),
})
export type WorkspaceCreate = v.InferOutput<typeof WorkspaceCreate>

export const WorkspaceUpdate = v.strictObject({
  name: v.optional(Name),
  approval_required: v.optional(v.boolean()),
  timezone: v.optional(v.pipe(TimeZoneName, v.description('Not for a personal workspace, which follows your own (PATCH /v1/me)'))),
})
export type WorkspaceUpdate = v.InferOutput<typeof WorkspaceUpdate>

/** A member of a workspace, with their role. */
export const Member = v.pipe(
  v.object({
    user_id: v.string(),
    name: v.string(),
    email: v.nullable(v.string()),
    role: v.picklist(ROLES),
    created_at: v.pipe(Timestamp, v.description('When they joined')),
  }),
  v.title('Member'),
)
export type Member = v.InferOutput<typeof Member>

export const MemberCreate = v.pipe(
  v.strictObject({
    user_id: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
    email: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
    role: RoleName,
  }),
  v.description('The user to add, by user_id or by email (one of them), and their role'),
)
export type MemberCreate = v.InferOutput<typeof MemberCreate>

export const MemberUpdate = v.strictObject({ role: RoleName })

export const MemberParams = v.object({ id: v.string(), user_id: v.string() })

/** `workspace_id` in a body that creates something: where it goes. */
export const WorkspaceIdInput = v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.description('The workspace it belongs to (default: your personal workspace)')))

/** `?workspace_id=` on a list: only what one workspace holds (default: every workspace you belong to). */
export const WorkspaceFilter = {
  workspace_id: v.optional(v.pipe(v.string(), v.description('Only this workspace’s (default: every workspace you belong to)'))),
}

const forbiddenBy = 'forbidden: your role in the workspace does not allow this'

/** The 404 of a route that takes `workspace_id` in its body or query. */
export const unknownWorkspace = { 404: '`not_found`: workspace_id names a workspace you are not a member of' } as const

export const workspaceRoutes = {
  listWorkspaces: route({
    method: 'GET',
    path: '/v1/workspaces',
    summary: 'List the workspaces you belong to, each with your role',
    tag: 'workspaces',
    scope: 'workspaces:read',
    query: v.strictObject({ ...PageQueryEntries }),
    status: 200,
    response: listOf(Workspace),
  }),
  createWorkspace: route({
    method: 'POST',
    path: '/v1/workspaces',
    summary: 'Create a workspace to share accounts with others; you are its owner',
    tag: 'workspaces',
    scope: 'workspaces:write',
    body: WorkspaceCreate,
    status: 201,
    response: Workspace,
  }),
  getWorkspace: route({
    method: 'GET',
    path: '/v1/workspaces/{id}',
    summary: 'Get a workspace you belong to',
    tag: 'workspaces',
    scope: 'workspaces:read',
    params: IdParams,
    status: 200,
    response: Workspace,
  }),
  updateWorkspace: route({
    method: 'PATCH',
    path: '/v1/workspaces/{id}',
    summary: 'Rename a workspace, require approval of editors’ posts, or change its time zone (owner, admin)',
    tag: 'workspaces',
    scope: 'workspaces:write',
    params: IdParams,
    body: WorkspaceUpdate,
    status: 200,
    response: Workspace,
    problems: { 403: forbiddenBy, 409: '`personal_workspace`: a personal workspace’s time zone is its user’s (PATCH /v1/me)' },
  }),
  deleteWorkspace: route({
    method: 'DELETE',
    path: '/v1/workspaces/{id}',
    summary: 'Delete a workspace with its webhooks and members (owner); refused while it has accounts',
    tag: 'workspaces',
    scope: 'workspaces:write',
    params: IdParams,
    status: 204,
    problems: {
      403: forbiddenBy,
      409: '`personal_workspace`: a personal workspace is never deleted; `workspace_has_accounts`: delete its accounts first (DELETE /v1/accounts/{id})',
    },
  }),
  listMembers: route({
    method: 'GET',
    path: '/v1/workspaces/{id}/members',
    summary: 'List a workspace’s members and their roles',
    tag: 'workspaces',
    scope: 'workspaces:read',
    params: IdParams,
    query: v.strictObject({ ...PageQueryEntries }),
    status: 200,
    response: listOf(Member),
  }),
  addMember: route({
    method: 'POST',
    path: '/v1/workspaces/{id}/members',
    summary: 'Add a user to a workspace with a role (owner, admin; only an owner makes owners)',
    tag: 'workspaces',
    scope: 'workspaces:write',
    params: IdParams,
    body: MemberCreate,
    status: 201,
    response: Member,
    problems: {
      403: forbiddenBy,
      409: '`already_member`: the user is a member already (change their role with PATCH); `personal_workspace`: a personal workspace has no other members',
    },
  }),
  updateMember: route({
    method: 'PATCH',
    path: '/v1/workspaces/{id}/members/{user_id}',
    summary: 'Change a member’s role (owner, admin; only an owner makes or unmakes owners)',
    tag: 'workspaces',
    scope: 'workspaces:write',
    params: MemberParams,
    body: MemberUpdate,
    status: 200,
    response: Member,
    problems: { 403: forbiddenBy, 409: '`last_owner`: a workspace always keeps an owner' },
  }),
  removeMember: route({
    method: 'DELETE',
    path: '/v1/workspaces/{id}/members/{user_id}',
    summary: 'Remove a member, who loses access at once (owner, admin; only an owner removes owners); anyone may leave',
    tag: 'workspaces',
    scope: 'workspaces:write',
    params: MemberParams,
    status: 204,
    problems: { 403: forbiddenBy, 409: '`last_owner`: a workspace always keeps an owner' },
  }),
}
