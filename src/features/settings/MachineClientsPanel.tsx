import {
  Alert,
  Button,
  Callout,
  Checkbox,
  FormGroup,
  H3,
  HTMLTable,
  InputGroup,
  Intent,
  Tag,
} from '@blueprintjs/core'
import { useCallback, useMemo, useState } from 'react'
import {
  MACHINE_SCOPES,
  machineClientsApi,
  type MachineClientsApi,
  type MachineClientView,
} from './machineClientsApi'
import { useLoad } from './useLoad'

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—')

/**
 * Settings → Organization → Machine clients (issue #32): the systems that call the data API with
 * an access token of their own (docs/identity.md "Machine clients"). An administrator creates one
 * with its scopes, sees its secret once, and rotates or revokes it; what the member's permissions
 * (`m2m_clients`) do not grant is not offered, and the server checks every action again.
 */
export function MachineClientsPanel({
  actions,
  api: given,
}: {
  /** The member's `m2m_clients` actions (read, create, update, delete). */
  actions: readonly string[]
  api?: MachineClientsApi
}) {
  const api = useMemo(() => given ?? machineClientsApi(), [given])
  const [error, setError] = useState<string | null>(null)
  const [name, setName] = useState('')
  const [scopes, setScopes] = useState<readonly string[]>(['data:read'])
  const [busy, setBusy] = useState(false)
  const [invalid, setInvalid] = useState<string | null>(null)
  const [secret, setSecret] = useState<{ clientId: string; secret: string } | null>(null)
  const [revoking, setRevoking] = useState<MachineClientView | null>(null)

  const list = useCallback(() => api.list(), [api])
  const [loaded, setLoaded] = useLoad(list)
  const clients = loaded.state === 'ready' ? loaded.value : null
  const reload = async () => setLoaded(await api.list())

  async function act(work: () => Promise<void>) {
    setBusy(true)
    setError(null)
    setInvalid(null)
    try {
      await work()
      await reload()
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
      const parameter = (e as { parameter?: unknown }).parameter
      setInvalid(typeof parameter === 'string' ? parameter : null)
    } finally {
      setBusy(false)
    }
  }

  const create = () =>
    act(async () => {
      const made = await api.create(name, scopes)
      setSecret({ clientId: made.client.client_id, secret: made.client_secret })
      setName('')
    })
  const rotate = (c: MachineClientView) =>
    act(async () => {
      const made = await api.rotate(c.client_id)
      setSecret({ clientId: made.client.client_id, secret: made.client_secret })
    })
  const revoke = (c: MachineClientView) =>
    act(async () => {
      await api.revoke(c.client_id)
      setSecret((s) => (s?.clientId === c.client_id ? null : s))
    })

  return (
    <section
      className="emberline-org-machines"
      aria-labelledby="org-machines-title"
      data-testid="org-machine-clients"
    >
      <H3 id="org-machines-title">Machine clients</H3>
      <p>
        Systems that call the data API with a token of their own (client credentials at{' '}
        <code>/v1/public/&lt;project&gt;/oauth2/token</code>), limited to their scopes.
      </p>
      {loaded.state === 'failed' ? (
        <Callout intent={Intent.DANGER} role="alert">
          {loaded.message}
        </Callout>
      ) : null}
      {error ? (
        <Callout intent={Intent.DANGER} role="alert">
          {error}
        </Callout>
      ) : null}
      {secret ? (
        <Callout intent={Intent.WARNING} role="status" title="Copy the secret now: it is shown only once">
          <div>
            Client ID: <code data-testid="m2m-client-id">{secret.clientId}</code>
          </div>
          <div>
            Client secret: <code data-testid="m2m-client-secret">{secret.secret}</code>
          </div>
          <Button small text="Done" onClick={() => setSecret(null)} />
        </Callout>
      ) : null}
      {clients === null ? null : clients.length === 0 ? (
        <p>No machine clients yet.</p>
      ) : (
        <div className="emberline-org-table" tabIndex={0} role="region" aria-label="Machine clients">
          <HTMLTable compact striped>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Client ID</th>
                <th scope="col">Scopes</th>
                <th scope="col">Status</th>
                <th scope="col">Secret</th>
                <th scope="col">Last token</th>
                <th scope="col">
                  <span className="bp6-text-muted">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {clients.map((c) => (
                <tr key={c.client_id}>
                  <td>{c.client_name}</td>
                  <td>
                    <code>{c.client_id}</code>
                  </td>
                  <td>{c.scopes.join(', ')}</td>
                  <td>
                    <Tag minimal intent={c.status === 'active' ? Intent.SUCCESS : Intent.NONE}>
                      {c.status}
                    </Tag>
                  </td>
                  <td>…{c.client_secret_last_four}</td>
                  <td>{when(c.last_token_at)}</td>
                  <td>
                    {c.status === 'active' && actions.includes('update') ? (
                      <Button
                        small
                        text="Rotate secret"
                        aria-label={`Rotate the secret of ${c.client_name}`}
                        disabled={busy}
                        onClick={() => void rotate(c)}
                      />
                    ) : null}{' '}
                    {c.status === 'active' && actions.includes('delete') ? (
                      <Button
                        small
                        intent={Intent.DANGER}
                        text="Revoke"
                        aria-label={`Revoke ${c.client_name}`}
                        disabled={busy}
                        onClick={() => setRevoking(c)}
                      />
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </div>
      )}
      {actions.includes('create') ? (
        <form
          aria-labelledby="org-machines-new"
          onSubmit={(event) => {
            event.preventDefault()
            void create()
          }}
        >
          <H3 id="org-machines-new">New machine client</H3>
          <FormGroup
            label="Name"
            labelFor="org-machine-name"
            intent={invalid === 'name' ? Intent.DANGER : undefined}
          >
            <InputGroup
              id="org-machine-name"
              required
              value={name}
              intent={invalid === 'name' ? Intent.DANGER : undefined}
              onChange={(event) => setName(event.target.value)}
            />
          </FormGroup>
          <fieldset className="emberline-org-fieldset">
            <legend>Scopes</legend>
            {MACHINE_SCOPES.map(({ scope, label }) => (
              <Checkbox
                key={scope}
                label={label}
                checked={scopes.includes(scope)}
                onChange={(event) =>
                  setScopes(
                    event.currentTarget.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope),
                  )
                }
              />
            ))}
          </fieldset>
          <Button
            type="submit"
            intent={Intent.PRIMARY}
            text="Create machine client"
            loading={busy}
            disabled={scopes.length === 0}
          />
        </form>
      ) : null}
      <Alert
        isOpen={revoking !== null}
        intent={Intent.DANGER}
        cancelButtonText="Keep"
        confirmButtonText="Revoke"
        onCancel={() => setRevoking(null)}
        onConfirm={() => {
          if (revoking) void revoke(revoking)
          setRevoking(null)
        }}
      >
        Revoke {revoking?.client_name}? Its tokens are refused at once and it cannot get new ones.
      </Alert>
    </section>
  )
}
