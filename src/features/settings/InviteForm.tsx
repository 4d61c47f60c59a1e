import { Button, Callout, Checkbox, FormGroup, H3, InputGroup, Intent } from '@blueprintjs/core'
import { useState } from 'react'
import { appConfig } from '../../shared/config'
import type { OrganizationClient } from './organizationApi'

/**
 * Invite a member: an e-mail with a link to set their password goes out at once; their first
 * sign-in asks for an SMS code, on the phone given here or on one they enrol then.
 */
export function InviteForm({ client, onInvited }: { client: OrganizationClient; onInvited: () => void }) {
  const [email, setEmail] = useState('')
  const [name, setName] = useState('')
  const [phone, setPhone] = useState('')
  const [roles, setRoles] = useState<readonly string[]>(appConfig.identity.rbac.defaultRoles ?? [])
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<{ intent: Intent; text: string; parameter?: string } | null>(null)

  async function invite() {
    setBusy(true)
    setMessage(null)
    try {
      const { member, emailSent } = await client.invite({ email, name, phone, roles })
      setMessage(
        emailSent
          ? { intent: Intent.SUCCESS, text: `Invitation sent to ${member.email}.` }
          : {
              intent: Intent.WARNING,
              text: `${member.email} was added, but the e-mail could not be sent; use Reset password to send the link again.`,
            },
      )
      setEmail('')
      setName('')
      setPhone('')
      onInvited()
    } catch (e) {
      const parameter = (e as { parameter?: unknown }).parameter
      setMessage({
        intent: Intent.DANGER,
        text: e instanceof Error ? e.message : String(e),
        parameter: typeof parameter === 'string' ? parameter : undefined,
      })
    } finally {
      setBusy(false)
    }
  }

  const invalid = (parameter: string) => (message?.parameter === parameter ? Intent.DANGER : undefined)
  return (
    <form
      className="emberline-org-invite"
      aria-labelledby="org-invite-title"
      onSubmit={(event) => {
        event.preventDefault()
        void invite()
      }}
    >
      <H3 id="org-invite-title">Invite a member</H3>
      <FormGroup label="E-mail" labelFor="org-invite-email" intent={invalid('email')}>
        <InputGroup
          id="org-invite-email"
          type="email"
          required
          value={email}
          intent={invalid('email')}
          onChange={(event) => setEmail(event.target.value)}
        />
      </FormGroup>
      <FormGroup label="Name" labelFor="org-invite-name" labelInfo="(optional)">
        <InputGroup id="org-invite-name" value={name} onChange={(event) => setName(event.target.value)} />
      </FormGroup>
      <FormGroup
        label="SMS phone"
        labelFor="org-invite-phone"
        labelInfo="(optional)"
        helperText="Without one, the member enrols their phone with an SMS code at first sign-in."
        intent={invalid('phone')}
      >
        <InputGroup
          id="org-invite-phone"
          type="tel"
          value={phone}
          intent={invalid('phone')}
          onChange={(event) => setPhone(event.target.value)}
        />
      </FormGroup>
      <fieldset className="emberline-org-fieldset">
        <legend>Roles</legend>
        {appConfig.identity.rbac.roles.map((role) => (
          <Checkbox
            key={role.role_id}
            label={`${role.role_id} — ${role.description}`}
            checked={roles.includes(role.role_id)}
            onChange={(event) =>
              setRoles(
                event.currentTarget.checked
                  ? [...roles, role.role_id]
                  : roles.filter((r) => r !== role.role_id),
              )
            }
          />
        ))}
      </fieldset>
      {message ? (
        <Callout intent={message.intent} role="status">
          {message.text}
        </Callout>
      ) : null}
      <Button type="submit" intent={Intent.PRIMARY} text="Send invitation" loading={busy} />
    </form>
  )
}
