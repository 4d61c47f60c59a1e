import type { IdentityContext } from '../identity/context'
import { newId, newToken, sha256 } from '../identity/crypto'
import { checkRoles } from '../identity/memberAdmin'
import { MemberFieldError, normalizeEmail, normalizeName, normalizePhone } from '../identity/memberFields'
import { resetLink, resetLinkBase } from '../identity/passwordFlows'
import { isAuthorized } from '../identity/rbac'
import type { MemberRecord, MemberStatus } from '../store/identityStore'
import type { AuditFilter, AuditRecord, MemberSearch } from '../store/memberAdminStore'
import { adminErrors } from './adminError'
import { requirePermission, type Actor } from './permission'

/** A member field checked by `check` (memberFields), or 400 naming `parameter` with the problem. */
function field<T>(parameter: string, check: () => T): T {
  try {
    return check()
  } catch (err) {
    if (err instanceof MemberFieldError) throw adminErrors.badRequest(parameter, err.message)
    throw err
  }
}

/**
 * Member administration (issue #22 item 3), HTTP-free: every action checks the actor's roles
 * against the configured policy first (403 otherwise), then acts and writes one audit event that
 * names the actor. The SDK-compatible routes (sdkMemberRoutes) and the /api/admin routes
 * (adminRoutes) are thin layers over these.
 */
export function memberActions(ctx: IdentityContext) {
  const store = ctx.members
  const policy = ctx.settings.rbac

  async function memberOf(memberId: string, parameter = 'member_id'): Promise<MemberRecord> {
    const member = await ctx.members.memberById(memberId)
    if (!member || member.organizationId !== ctx.settings.organizationId)
      throw adminErrors.memberNotFound(parameter)
    return member
  }

  /** Refuses a change after which no active member could administer members any more. */
  async function keepAnAdministrator(memberId: string, next: { roles?: string[]; status?: MemberStatus }) {
    const remains = (await ctx.members.listMembers()).some((m) => {
      const roles = m.memberId === memberId ? (next.roles ?? m.roles) : m.roles
      const status = m.memberId === memberId ? (next.status ?? m.status) : m.status
      return status === 'active' && isAuthorized(policy, roles, 'members', 'update')
    })
    if (!remains) throw noAdministratorLeft()
  }

  const noAdministratorLeft = () =>
    adminErrors.conflict('This would leave no active member who can administer members.')
  /** The roles that may administer members (members:update). */
  const adminRoles = policy.roles
    .map((r) => r.role_id)
    .filter((role) => isAuthorized(policy, [role], 'members', 'update'))

  /**
   * Applies a change that may remove an administrator, atomically refused (409) when afterwards
   * none would be left — also when another server removes the other administrator at the same time.
   */
  async function updateKeepingAdministrator(
    memberId: string,
    patch: Parameters<IdentityContext['members']['updateMember']>[1],
    at: number,
  ) {
    if (!(await ctx.members.updateMemberKeepingAdmin(memberId, patch, at, adminRoles)))
      throw noAdministratorLeft()
  }

  async function audit(event: string, actor: Actor, memberId: string, detail?: Record<string, unknown>) {
    await ctx.audit(event, { actorId: actor.memberId, memberId, ip: actor.ip, detail })
  }

  /** A set-password link (invitation or administrator's reset): no PKCE, so any browser may open it. */
  function linkBase(requestOrigin: string): string {
    const base = resetLinkBase(ctx, requestOrigin)
    if (!base)
      throw adminErrors.conflict(
        'Links cannot be built for this address: set EMBERLINE_PUBLIC_URL (or EMBERLINE_ALLOWED_HOSTS).',
      )
    return base
  }

  async function sendSetPasswordLink(
    member: MemberRecord,
    base: string,
    kind: 'invite' | 'reset',
  ): Promise<boolean> {
    const now = ctx.now()
    const token = newToken()
    const minutes = ctx.settings.inviteExpiryMinutes
    await ctx.tokens.insertResetToken(sha256(token), member.memberId, null, now, now + minutes * 60_000)
    const link = resetLink(ctx, base, null, token)
    const days = Math.round((minutes / 1440) * 10) / 10
    const validity = minutes >= 1440 ? `${days} day${days === 1 ? '' : 's'}` : `${minutes} minutes`
    const text =
      kind === 'invite'
        ? `You are invited to ${ctx.settings.productName} (${ctx.settings.organizationName}). Set your password: ${link} (valid ${validity}). Signing in also asks for a code sent by SMS to your phone.`
        : `An administrator reset your ${ctx.settings.productName} password. Set a new one: ${link} (valid ${validity}).`
    try {
      await ctx.delivery.email({ to: member.email, memberId: member.memberId, token, link, text })
      return true
    } catch (err) {
      await ctx.audit(`${kind === 'invite' ? 'member.invite' : 'member.password_link'}_delivery_failed`, {
        memberId: member.memberId,
        detail: { error: String(err) },
      })
      return false
    }
  }

  return {
    async searchMembers(actor: Actor, q: MemberSearch): Promise<{ members: MemberRecord[]; total: number }> {
      requirePermission(policy, actor, 'members', 'read')
      return store.searchMembers(q)
    },

    async getMember(actor: Actor, memberId: string): Promise<MemberRecord> {
      requirePermission(policy, actor, 'members', 'read')
      return memberOf(memberId)
    },

    async invite(
      actor: Actor,
      input: { email: string; name?: string; roles?: string[]; phone?: string | null },
      requestOrigin: string,
    ): Promise<{ member: MemberRecord; emailSent: boolean }> {
      requirePermission(policy, actor, 'members', 'create')
      const email = field('email', () => normalizeEmail(input.email))
      const name = field('name', () => normalizeName(input.name ?? ''))
      if (await ctx.members.memberByEmail(email))
        throw adminErrors.conflict(`A member with e-mail ${email} already exists.`)
      let roles: string[]
      try {
        roles = checkRoles(ctx.settings, input.roles ?? ctx.settings.rbac.defaultRoles)
      } catch (err) {
        throw adminErrors.badRequest('roles', (err as Error).message)
      }
      const phone = input.phone ? field('phone', () => normalizePhone(input.phone ?? '')) : null
      const now = ctx.now()
      const member: MemberRecord = {
        memberId: newId('member'),
        organizationId: ctx.settings.organizationId,
        email,
        name: name || (email.split('@')[0] ?? ''),
        phone,
        roles,
        status: 'active',
        // No password until the member opens the link; signing in is impossible until then.
        passwordHash: null,
        passwordId: null,
        createdAt: now,
        updatedAt: now,
      }
      // The link's base is checked before the member exists, so a refusal leaves nothing behind.
      const base = linkBase(requestOrigin)
      try {
        await ctx.members.insertMember(member)
      } catch (err) {
        // Two invites of one address at once (two servers): the e-mail's unique key refuses the
        // second insert — the same conflict as the check above.
        if (await ctx.members.memberByEmail(email))
          throw adminErrors.conflict(`A member with e-mail ${email} already exists.`)
        throw err
      }
      await audit('member.invited', actor, member.memberId, { roles, phone: phone !== null })
      const emailSent = await sendSetPasswordLink(member, base, 'invite')
      return { member, emailSent }
    },

    async update(
      actor: Actor,
      memberId: string,
      patch: { name?: string; roles?: string[]; phone?: string },
    ): Promise<MemberRecord> {
      requirePermission(policy, actor, 'members', 'update')
      const member = await memberOf(memberId)
      const changes: Partial<Pick<MemberRecord, 'name' | 'roles' | 'phone'>> = {}
      const detail: Record<string, unknown> = {}
      const name = patch.name === undefined ? undefined : field('name', () => normalizeName(patch.name ?? ''))
      if (name !== undefined && name !== member.name) {
        changes.name = name
        detail.name = true
      }
      if (patch.roles !== undefined) {
        let roles: string[]
        try {
          roles = checkRoles(ctx.settings, patch.roles)
        } catch (err) {
          throw adminErrors.badRequest('roles', (err as Error).message)
        }
        if ([...roles].sort().join() !== [...member.roles].sort().join()) {
          await keepAnAdministrator(memberId, { roles })
          changes.roles = roles
          detail.roles = { from: member.roles, to: roles }
        }
      }
      if (patch.phone !== undefined) {
        const phone = field('mfa_phone_number', () => normalizePhone(patch.phone ?? ''))
        if (phone !== member.phone) {
          changes.phone = phone
          detail.phone = member.phone ? 'changed' : 'set'
        }
      }
      if (Object.keys(changes).length === 0) return member
      if (changes.roles) await updateKeepingAdministrator(memberId, changes, ctx.now())
      else await ctx.members.updateMember(memberId, changes, ctx.now())
      if (detail.roles) await audit('member.roles_changed', actor, memberId, { roles: detail.roles })
      if (detail.phone) await audit('member.phone_changed', actor, memberId, { phone: detail.phone })
      if (detail.name) await audit('member.renamed', actor, memberId)
      return memberOf(memberId)
    },

    /** Disables a member: every session of theirs ends at once, and sign-in is refused. */
    async disable(
      actor: Actor,
      memberId: string,
    ): Promise<{ member: MemberRecord; revokedSessions: number }> {
      requirePermission(policy, actor, 'members', 'delete')
      const member = await memberOf(memberId)
      if (memberId === actor.memberId) throw adminErrors.conflict('You cannot disable your own membership.')
      if (member.status === 'active') await keepAnAdministrator(memberId, { status: 'inactive' })
      const now = ctx.now()
      if (member.status === 'active') await updateKeepingAdministrator(memberId, { status: 'inactive' }, now)
      else await ctx.members.updateMember(memberId, { status: 'inactive' }, now)
      const revokedSessions = await ctx.members.revokeMemberSessions(memberId, now)
      await ctx.tokens.useMemberResetTokens(memberId, now)
      await audit('member.disabled', actor, memberId, { revokedSessions })
      return { member: await memberOf(memberId), revokedSessions }
    },

    async enable(actor: Actor, memberId: string): Promise<MemberRecord> {
      requirePermission(policy, actor, 'members', 'update')
      const member = await memberOf(memberId)
      if (member.status !== 'active') {
        await ctx.members.updateMember(memberId, { status: 'active' }, ctx.now())
        await audit('member.enabled', actor, memberId)
      }
      return memberOf(memberId)
    },

    /** Removes a member's password (by its password id): their sessions end; a link sets a new one. */
    async deletePassword(actor: Actor, passwordId: string): Promise<MemberRecord> {
      requirePermission(policy, actor, 'members', 'update')
      const member = await store.memberByPasswordId(passwordId)
      if (!member) throw adminErrors.memberNotFound('password_id')
      const now = ctx.now()
      await ctx.members.updateMember(member.memberId, { passwordHash: null, passwordId: null }, now)
      const revokedSessions = await ctx.members.revokeMemberSessions(member.memberId, now)
      await audit('member.password_deleted', actor, member.memberId, { revokedSessions })
      return memberOf(member.memberId)
    },

    /**
     * Resets a member's password: the old one stops working, their sessions and outstanding links
     * end, and a set-password link is e-mailed (also how an invitation is sent again).
     */
    async resetPassword(
      actor: Actor,
      memberId: string,
      requestOrigin: string,
    ): Promise<{ member: MemberRecord; revokedSessions: number; emailSent: boolean }> {
      requirePermission(policy, actor, 'members', 'update')
      const member = await memberOf(memberId)
      if (member.status !== 'active')
        throw adminErrors.conflict('The member is disabled; enable them before resetting the password.')
      const base = linkBase(requestOrigin)
      const now = ctx.now()
      await ctx.members.updateMember(memberId, { passwordHash: null, passwordId: null }, now)
      const revokedSessions = await ctx.members.revokeMemberSessions(memberId, now)
      await ctx.tokens.useMemberResetTokens(memberId, now)
      await audit('member.password_reset', actor, memberId, { revokedSessions })
      const emailSent = await sendSetPasswordLink(member, base, 'reset')
      return { member: await memberOf(memberId), revokedSessions, emailSent }
    },

    /** Removes a member's SMS phone: their sessions end, and the next sign-in enrols a new one. */
    async deletePhone(actor: Actor, memberId: string): Promise<MemberRecord> {
      requirePermission(policy, actor, 'members', 'update')
      await memberOf(memberId)
      const now = ctx.now()
      await ctx.members.updateMember(memberId, { phone: null }, now)
      const revokedSessions = await ctx.members.revokeMemberSessions(memberId, now)
      await audit('member.phone_deleted', actor, memberId, { revokedSessions })
      return memberOf(memberId)
    },

    /** Ends every session of a member at once (data API, tiles and the SDK's refresh included). */
    async revokeSessions(actor: Actor, memberId: string): Promise<number> {
      requirePermission(policy, actor, 'sessions', 'revoke')
      await memberOf(memberId)
      const revoked = await ctx.members.revokeMemberSessions(memberId, ctx.now())
      await audit('session.revoked_by_admin', actor, memberId, { revoked })
      return revoked
    },

    async auditLog(
      actor: Actor,
      filter: AuditFilter,
    ): Promise<{ entries: AuditRecord[]; total: number; events: string[] }> {
      requirePermission(policy, actor, 'audit', 'read')
      return { ...(await store.auditPage(filter)), events: await store.auditEvents() }
    },

    /** The e-mail addresses of members, for naming actors and members in the audit log. */
    async emails(ids: (string | null)[]): Promise<Record<string, string>> {
      const out: Record<string, string> = {}
      for (const id of new Set(ids)) {
        const m = id ? await ctx.members.memberById(id) : null
        if (id && m) out[id] = m.email
      }
      return out
    },
  }
}

export type MemberActions = ReturnType<typeof memberActions>
