import { routes } from '../../src/contract.js'
import type { Role } from '../../src/api/workspaces.js'
import { conflict, invalidField, notFound, validationFailed } from '../../src/errors.js'
import { afterId, toPage } from '../../src/pagination.js'
import { accessOf, type Access } from '../access.js'
import type { AppDeps } from '../context.js'
import { workspaceEventOf, type MemberChange, type WorkspaceRecord } from '../store/index.js'
import type { Workspace } from '../../src/api/workspaces.js'
import { bind, type ApiRouter } from './bind.js'

/** A workspace as one of its members sees it: as its events carry it, with their role. */
export function workspaceView(record: WorkspaceRecord, role: Role): Workspace {
  const { created_at, ...rest } = workspaceEventOf(record)
  return { ...rest, role, created_at }
}

const LAST_OWNER = 'A workspace always keeps an owner: make another member owner first.'

/** Only an owner makes owners, or changes or removes one: an admin manages everyone else. */
function ownerOnly(access: Access, workspaceId: string, roles: (Role | undefined)[]): void {
  access.require(workspaceId, roles.includes('owner') ? 'manage_owners' : 'manage_members')
}

/** A member change the store refused, as the API says it. */
function refused(change: Exclude<MemberChange, { kind: 'ok' }>, workspaceId: string, userId?: string): never {
  switch (change.kind) {
    case 'not_found':
      throw notFound(userId ? `member ${userId} of workspace` : 'workspace', workspaceId)
    case 'unknown_user':
      throw new Error('unreachable: an unknown user is answered where it is named')
    case 'already_member':
      throw conflict('already_member', `${change.member.name} (${change.member.user_id}) is a member of workspace ${workspaceId} already, as ${change.member.role}; change their role with PATCH.`)
    case 'last_owner':
      throw conflict('last_owner', LAST_OWNER)
    case 'personal':
      throw conflict('personal_workspace', `Workspace ${workspaceId} is a personal workspace: its user is its one member. Create a workspace (POST /v1/workspaces) to share accounts.`)
  }
}

export function workspaceRoutes(router: ApiRouter, deps: AppDeps): void {
  const { store, clock } = deps

  /** The workspace as a member sees it, read afresh. */
  async function view(workspaceId: string, role: Role) {
    const record = await store.workspaces.get(workspaceId)
    if (!record) throw notFound('workspace', workspaceId)
    return workspaceView(record, role)
  }

  bind(router, routes.listWorkspaces, async (ctx, { query, principal }) => {
    const rows = await store.workspaces.listFor(principal.user.id, afterId(query.cursor), query.limit + 1)
    ctx.body = toPage(
      rows.map((r) => workspaceView(r, r.role)),
      query.limit,
    )
  })

  bind(router, routes.createWorkspace, async (ctx, { body, principal }) => {
    const record = await store.workspaces.create(
      principal.user.id,
      { name: body.name, approvalRequired: body.approval_required ?? false, timezone: body.timezone ?? principal.user.timezone },
      clock.now(),
    )
    ctx.status = 201
    ctx.set('Location', `/v1/workspaces/${record.id}`)
    ctx.body = workspaceView(record, 'owner')
  })

  bind(router, routes.getWorkspace, async (ctx, { params, principal }) => {
    const membership = accessOf(principal).workspace(params.id, 'read')
    ctx.body = await view(params.id, membership.role)
  })

  bind(router, routes.updateWorkspace, async (ctx, { params, body, principal }) => {
    const access = accessOf(principal)
    const membership = access.workspace(params.id, 'manage_workspace')
    if (body.timezone !== undefined && membership.personal) {
      throw conflict('personal_workspace', `Workspace ${params.id} is your personal workspace: its time zone is yours. Change it with PATCH /v1/me.`)
    }
    await store.workspaces.update(params.id, { name: body.name, approvalRequired: body.approval_required, timezone: body.timezone }, clock.now(), access.actor)
    ctx.body = await view(params.id, membership.role)
  })

  bind(router, routes.deleteWorkspace, async (ctx, { params, principal }) => {
    accessOf(principal).workspace(params.id, 'delete_workspace')
    const result = await store.workspaces.delete(params.id)
    if (result.kind === 'not_found') throw notFound('workspace', params.id)
    if (result.kind === 'personal') throw conflict('personal_workspace', `Workspace ${params.id} is your personal workspace; it is never deleted.`)
    if (result.kind === 'has_accounts') {
      throw conflict('workspace_has_accounts', `Workspace ${params.id} still has ${result.count} account${result.count === 1 ? '' : 's'}; nothing was deleted. Delete them first (DELETE /v1/accounts/{id}).`)
    }
    ctx.status = 204
  })

  bind(router, routes.listMembers, async (ctx, { params, query, principal }) => {
    accessOf(principal).workspace(params.id, 'read')
    ctx.body = toPage(await store.workspaces.members(params.id, afterId(query.cursor), query.limit + 1), query.limit, (m) => [m.user_id])
  })

  bind(router, routes.addMember, async (ctx, { params, body, principal }) => {
    const access = accessOf(principal)
    access.workspace(params.id, 'manage_members')
    if ((body.user_id === undefined) === (body.email === undefined)) {
      const detail = 'give the user to add as user_id or as email: one of them'
      throw validationFailed([{ pointer: body.user_id === undefined ? '#/user_id' : '#/email', code: body.user_id === undefined ? 'required' : 'conflict', detail }])
    }
    ownerOnly(access, params.id, [body.role])
    const who = body.user_id !== undefined ? { userId: body.user_id } : { email: body.email! }
    const change = await store.workspaces.addMember(params.id, who, body.role, clock.now(), access.actor)
    if (change.kind === 'unknown_user') {
      throw 'userId' in who ? invalidField('#/user_id', `no user has the id ${who.userId}`, 'not_found') : invalidField('#/email', `no user has the email ${who.email}`, 'not_found')
    }
    if (change.kind !== 'ok') refused(change, params.id)
    ctx.status = 201
    ctx.set('Location', `/v1/workspaces/${params.id}/members/${change.member.user_id}`)
    ctx.body = change.member
  })

  bind(router, routes.updateMember, async (ctx, { params, body, principal }) => {
    const access = accessOf(principal)
    access.workspace(params.id, 'manage_members')
    const current = await store.workspaces.member(params.id, params.user_id)
    if (!current) throw notFound(`member ${params.user_id} of workspace`, params.id)
    ownerOnly(access, params.id, [current.role, body.role])
    const change = await store.workspaces.setRole(params.id, params.user_id, body.role, clock.now(), access.actor)
    if (change.kind !== 'ok') refused(change, params.id, params.user_id)
    ctx.body = change.member
  })

  bind(router, routes.removeMember, async (ctx, { params, principal }) => {
    const access = accessOf(principal)
    // Anyone may leave; removing someone else is managing the members.
    const leaving = params.user_id === principal.user.id
    access.workspace(params.id, leaving ? 'read' : 'manage_members')
    const current = await store.workspaces.member(params.id, params.user_id)
    if (!current) throw notFound(`member ${params.user_id} of workspace`, params.id)
    if (!leaving) ownerOnly(access, params.id, [current.role])
    const change = await store.workspaces.removeMember(params.id, params.user_id, clock.now(), access.actor)
    if (change.kind !== 'ok') refused(change, params.id, params.user_id)
    ctx.status = 204
  })
}
