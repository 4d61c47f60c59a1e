import { Button, Callout, H3, HTMLSelect, HTMLTable, InputGroup, Tag } from '@blueprintjs/core'
import { useCallback, useEffect, useState } from 'react'
import { MemberDialog } from './MemberDialog'
import { PageNav } from './PageNav'
import type { MemberQuery, OrgMember, OrganizationClient } from './organizationApi'

const PAGE_SIZE = 25

/** The organization's members: search by e-mail or name, filter by status, page, manage one. */
export function MembersPanel({
  client,
  selfId,
  version,
  canUpdate,
  canDisable,
  canRevoke,
}: {
  client: OrganizationClient
  selfId: string
  version: number
  canUpdate: boolean
  canDisable: boolean
  canRevoke: boolean
}) {
  const [text, setText] = useState('')
  const [query, setQuery] = useState<MemberQuery>({ text: '', status: 'all', page: 1, pageSize: PAGE_SIZE })
  const [members, setMembers] = useState<readonly OrgMember[] | null>(null)
  const [total, setTotal] = useState(0)
  const [error, setError] = useState<string | null>(null)
  const [managing, setManaging] = useState<OrgMember | null>(null)
  const [reloads, setReloads] = useState(0)

  useEffect(() => {
    let live = true
    client.search(query).then(
      (page) => {
        if (!live) return
        setMembers(page.members)
        setTotal(page.total)
        setError(null)
      },
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    )
    return () => {
      live = false
    }
  }, [client, query, version, reloads])

  const reload = useCallback(() => setReloads((n) => n + 1), [])
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE))

  return (
    <div className="emberline-org-members">
      <H3>Members</H3>
      <form
        className="emberline-org-filters"
        role="search"
        aria-label="Search members"
        onSubmit={(event) => {
          event.preventDefault()
          setQuery({ ...query, text, page: 1 })
        }}
      >
        <InputGroup
          type="search"
          leftIcon="search"
          placeholder="E-mail or name"
          aria-label="Search members by e-mail or name"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <HTMLSelect
          aria-label="Member status"
          value={query.status}
          onChange={(event) =>
            setQuery({ ...query, status: event.target.value as MemberQuery['status'], page: 1 })
          }
          options={[
            { value: 'all', label: 'All members' },
            { value: 'active', label: 'Active' },
            { value: 'inactive', label: 'Disabled' },
          ]}
        />
        <Button type="submit" text="Search" />
      </form>
      {error ? <Callout intent="danger">{error}</Callout> : null}
      {members === null ? null : members.length === 0 ? (
        <p className="bp6-text-muted">No member matches.</p>
      ) : (
        <div className="emberline-org-table">
          <HTMLTable compact striped data-testid="org-members">
            <caption className="bp6-text-muted">
              {total} member{total === 1 ? '' : 's'}
            </caption>
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Roles</th>
                <th scope="col">Phone</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="bp6-text-muted">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.map((m) => (
                <tr key={m.memberId} data-member={m.email}>
                  <td>
                    <div>{m.email}</div>
                    <div className="bp6-text-muted bp6-text-small">{m.name}</div>
                  </td>
                  <td>
                    {m.roles.map((r) => (
                      <Tag key={r} minimal className="emberline-settings-role">
                        {r}
                      </Tag>
                    ))}
                  </td>
                  <td>{m.phone ?? '—'}</td>
                  <td>{m.status === 'active' ? (m.passwordSet ? 'Active' : 'Invited') : 'Disabled'}</td>
                  <td>
                    {canUpdate || canDisable || canRevoke ? (
                      <Button
                        size="small"
                        text="Manage"
                        aria-label={`Manage ${m.email}`}
                        onClick={() => setManaging(m)}
                      />
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          {pages > 1 ? (
            <PageNav
              label="Members pages"
              page={query.page}
              pages={pages}
              onPage={(page) => setQuery({ ...query, page })}
            />
          ) : null}
        </div>
      )}
      {managing ? (
        <MemberDialog
          client={client}
          member={managing}
          isSelf={managing.memberId === selfId}
          canUpdate={canUpdate}
          canDisable={canDisable}
          canRevoke={canRevoke}
          onChanged={(next) => {
            if (next) setManaging(next)
            reload()
          }}
          onClose={() => setManaging(null)}
        />
      ) : null}
    </div>
  )
}
