import { Button, Callout, FormGroup, H3, HTMLSelect, HTMLTable, InputGroup } from '@blueprintjs/core'
import { useEffect, useState } from 'react'
import { PageNav } from './PageNav'
import { formatDate } from '../../shared/format'
import type { AuditPage, AuditQuery, OrgMember, OrganizationClient } from './organizationApi'

const PAGE_SIZE = 50
const EMPTY: AuditQuery = {
  actor: '',
  action: '',
  member: '',
  from: '',
  to: '',
  page: 1,
  pageSize: PAGE_SIZE,
}

/** The identity audit log, newest first, filtered by actor, action, member and time range, paged. */
export function AuditLogPanel({ client, version }: { client: OrganizationClient; version: number }) {
  const [draft, setDraft] = useState<AuditQuery>(EMPTY)
  const [query, setQuery] = useState<AuditQuery>(EMPTY)
  const [page, setPage] = useState<AuditPage | null>(null)
  const [members, setMembers] = useState<readonly OrgMember[]>([])
  const [error, setError] = useState<string | null>(null)
  const [reloads, setReloads] = useState(0)

  useEffect(() => {
    let live = true
    client.search({ text: '', status: 'all', page: 1, pageSize: 1000 }).then(
      (p) => live && setMembers(p.members),
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [client, version])

  useEffect(() => {
    let live = true
    client.audit(query).then(
      (p) => {
        if (!live) return
        setPage(p)
        setError(null)
      },
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    )
    return () => {
      live = false
    }
  }, [client, query, version, reloads])

  const memberOptions = [
    { value: '', label: 'Anyone' },
    ...members.map((m) => ({ value: m.memberId, label: m.email })),
  ]
  const pages = page ? Math.max(1, Math.ceil(page.total / PAGE_SIZE)) : 1
  return (
    <div className="emberline-org-audit">
      <H3>
        Audit log{' '}
        <Button
          variant="minimal"
          icon="refresh"
          aria-label="Refresh the audit log"
          onClick={() => setReloads((n) => n + 1)}
        />
      </H3>
      <form
        className="emberline-org-audit-filters"
        aria-label="Audit log filters"
        onSubmit={(event) => {
          event.preventDefault()
          setQuery({ ...draft, page: 1 })
        }}
      >
        <FormGroup label="Actor" labelFor="org-audit-actor">
          <HTMLSelect
            id="org-audit-actor"
            value={draft.actor}
            options={memberOptions}
            onChange={(event) => setDraft({ ...draft, actor: event.target.value })}
          />
        </FormGroup>
        <FormGroup label="Action" labelFor="org-audit-action">
          <HTMLSelect
            id="org-audit-action"
            value={draft.action}
            options={[
              { value: '', label: 'Any action' },
              { value: 'member.', label: 'Member administration (member.*)' },
              { value: 'login.', label: 'Sign-in (login.*)' },
              ...(page?.events ?? []).map((e) => ({ value: e, label: e })),
            ]}
            onChange={(event) => setDraft({ ...draft, action: event.target.value })}
          />
        </FormGroup>
        <FormGroup label="Member" labelFor="org-audit-member">
          <HTMLSelect
            id="org-audit-member"
            value={draft.member}
            options={memberOptions}
            onChange={(event) => setDraft({ ...draft, member: event.target.value })}
          />
        </FormGroup>
        <FormGroup label="From" labelFor="org-audit-from">
          <InputGroup
            id="org-audit-from"
            type="datetime-local"
            value={draft.from}
            onChange={(event) => setDraft({ ...draft, from: event.target.value })}
          />
        </FormGroup>
        <FormGroup label="To" labelFor="org-audit-to">
          <InputGroup
            id="org-audit-to"
            type="datetime-local"
            value={draft.to}
            onChange={(event) => setDraft({ ...draft, to: event.target.value })}
          />
        </FormGroup>
        <div className="emberline-settings-actions">
          <Button type="submit" text="Apply filters" />
          <Button
            text="Clear"
            onClick={() => {
              setDraft(EMPTY)
              setQuery(EMPTY)
            }}
          />
        </div>
      </form>
      {error ? <Callout intent="danger">{error}</Callout> : null}
      {page === null ? null : page.entries.length === 0 ? (
        <p className="bp6-text-muted">No event matches.</p>
      ) : (
        // Scrolls sideways on phones and holds no control: focusable so the keyboard can scroll it.
        <div className="emberline-org-table" tabIndex={0} role="region" aria-label="Audit log events">
          <HTMLTable compact striped data-testid="org-audit">
            <caption className="bp6-text-muted">
              {page.total} event{page.total === 1 ? '' : 's'}
            </caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Action</th>
                <th scope="col">Actor</th>
                <th scope="col">Member</th>
                <th scope="col">Address</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {page.entries.map((e) => (
                <tr key={e.id}>
                  <td>{formatDate(e.at)}</td>
                  <td>{e.event}</td>
                  <td>{e.actorEmail ?? '—'}</td>
                  <td>{e.memberEmail ?? e.memberId ?? '—'}</td>
                  <td>{e.ip ?? '—'}</td>
                  <td className="emberline-org-detail">{e.detail}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <PageNav
            label="Audit log pages"
            page={query.page}
            pages={pages}
            onPage={(page) => setQuery({ ...query, page })}
          />
        </div>
      )}
    </div>
  )
}
