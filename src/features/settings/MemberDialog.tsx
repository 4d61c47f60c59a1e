import {
  Alert,
  Button,
  Callout,
  Checkbox,
  Dialog,
  DialogBody,
  FormGroup,
  InputGroup,
  Intent,
} from '@blueprintjs/core'
import { useState } from 'react'
import { appConfig } from '../../shared/config'
import type { OrgMember, OrganizationClient } from './organizationApi'

interface Confirm {
  readonly label: string
  readonly text: string
  readonly run: () => Promise<OrgMember | null>
  readonly done: string
}

/**
 * Manage one member: roles, SMS phone (set or remove), password reset by e-mail, sign out of all
 * sessions, disable / enable. Actions that end sessions ask first. The server refuses what the
 * administrator's roles do not grant, disabling oneself and leaving no administrator.
 */
export function MemberDialog({
  client,
  member,
  isSelf,
  canUpdate,
  canDisable,
  canRevoke,
  onChanged,
  onClose,
}: {
  client: OrganizationClient
  member: OrgMember
  isSelf: boolean
  canUpdate: boolean
  canDisable: boolean
  canRevoke: boolean
  onChanged: (member: OrgMember | null) => void
  onClose: () => void
}) {
  const [roles, setRoles] = useState<readonly string[]>(member.roles)
  const [phone, setPhone] = useState(member.phone ?? '')
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<{ intent: Intent; text: string } | null>(null)
  const [confirm, setConfirm] = useState<Confirm | null>(null)
  const active = member.status === 'active'

  async function act(work: () => Promise<OrgMember | null>, done: string) {
    setBusy(true)
    setMessage(null)
    try {
      const next = await work()
      onChanged(next)
      if (next) {
        setRoles(next.roles)
        setPhone(next.phone ?? '')
      }
      setMessage({ intent: Intent.SUCCESS, text: done })
    } catch (e) {
      setMessage({ intent: Intent.DANGER, text: e instanceof Error ? e.message : String(e) })
    } finally {
      setBusy(false)
      setConfirm(null)
    }
  }

  return (
    <Dialog isOpen title={`Manage ${member.email}`} onClose={onClose} className="bp6-dark">
      <DialogBody>
        <p>
          {member.name} ·{' '}
          {active ? (member.passwordSet ? 'Active' : 'Invited (no password yet)') : 'Disabled'}
          {isSelf ? ' · you' : ''}
        </p>
        {message ? (
          <Callout intent={message.intent} role="status">
            {message.text}
          </Callout>
        ) : null}
        {canUpdate ? (
          <>
            <fieldset className="emberline-org-fieldset">
              <legend>Roles</legend>
              {appConfig.identity.rbac.roles.map((role) => (
                <Checkbox
                  key={role.role_id}
                  label={`${role.role_id} — ${role.description}`}
                  checked={roles.includes(role.role_id)}
                  disabled={busy}
                  onChange={(event) =>
                    setRoles(
                      event.currentTarget.checked
                        ? [...roles, role.role_id]
                        : roles.filter((r) => r !== role.role_id),
                    )
                  }
                />
              ))}
              <Button
                text="Save roles"
                disabled={busy}
                onClick={() => void act(() => client.setRoles(member.memberId, roles), 'Roles saved.')}
              />
            </fieldset>
            <fieldset className="emberline-org-fieldset">
              <legend>SMS phone</legend>
              <FormGroup
                label="Phone number for sign-in codes"
                labelFor="org-member-phone"
                helperText="E.164, e.g. +15055550123. Removing it ends the member's sessions; their next sign-in enrols a new number."
              >
                <InputGroup
                  id="org-member-phone"
                  type="tel"
                  value={phone}
                  disabled={busy}
                  onChange={(event) => setPhone(event.target.value)}
                />
              </FormGroup>
              <div className="emberline-settings-actions">
                <Button
                  text="Save phone"
                  disabled={busy || phone.trim() === ''}
                  onClick={() =>
                    void act(() => client.setPhone(member.memberId, phone.trim()), 'Phone saved.')
                  }
                />
                <Button
                  text="Remove phone"
                  disabled={busy || !member.phone}
                  onClick={() =>
                    setConfirm({
                      label: 'Remove phone',
                      text: `Remove ${member.email}'s SMS phone? Their sessions end, and their next sign-in asks for a new number.`,
                      run: () => client.removePhone(member.memberId),
                      done: 'Phone removed; sessions ended.',
                    })
                  }
                />
              </div>
            </fieldset>
          </>
        ) : null}
        <div className="emberline-settings-actions">
          {canUpdate && active ? (
            <Button
              text="Reset password"
              disabled={busy}
              onClick={() =>
                setConfirm({
                  label: 'Reset password',
                  text: `Reset ${member.email}'s password? The current one stops working, their sessions end, and a link to set a new one is e-mailed to them.`,
                  run: async () => {
                    const { emailSent } = await client.resetPassword(member.memberId)
                    if (!emailSent)
                      throw new Error('The password was reset, but the e-mail could not be sent.')
                    return null
                  },
                  done: 'Password reset; a link was e-mailed.',
                })
              }
            />
          ) : null}
          {canRevoke ? (
            <Button
              text="Sign out everywhere"
              disabled={busy}
              onClick={() =>
                setConfirm({
                  label: 'Sign out everywhere',
                  text: `End every session of ${member.email} now?`,
                  run: async () => {
                    await client.revokeSessions(member.memberId)
                    return null
                  },
                  done: 'All sessions ended.',
                })
              }
            />
          ) : null}
          {canDisable && active ? (
            <Button
              intent={Intent.DANGER}
              text="Disable member"
              disabled={busy || isSelf}
              title={isSelf ? 'You cannot disable yourself' : undefined}
              onClick={() =>
                setConfirm({
                  label: 'Disable member',
                  text: `Disable ${member.email}? Every session of theirs ends at once and they cannot sign in until enabled again.`,
                  run: async () => {
                    await client.disable(member.memberId)
                    return { ...member, status: 'inactive' }
                  },
                  done: 'Member disabled; sessions ended.',
                })
              }
            />
          ) : null}
          {canUpdate && !active ? (
            <Button
              intent={Intent.PRIMARY}
              text="Enable member"
              disabled={busy}
              onClick={() => void act(() => client.enable(member.memberId), 'Member enabled.')}
            />
          ) : null}
        </div>
      </DialogBody>
      <Alert
        isOpen={confirm !== null}
        intent={Intent.DANGER}
        confirmButtonText={confirm?.label ?? 'Confirm'}
        cancelButtonText="Cancel"
        loading={busy}
        onConfirm={() => {
          if (confirm) void act(confirm.run, confirm.done)
        }}
        onCancel={() => setConfirm(null)}
        className="bp6-dark"
      >
        <p>{confirm?.text}</p>
      </Alert>
    </Dialog>
  )
}
