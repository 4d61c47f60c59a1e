import { H1, H2, HTMLTable } from '@blueprintjs/core'
import { appConfig, screenTitle } from '../../shared/config'
import './docs.css'
import { keyboardMap } from './keyboardMap'

/** /Help: getting started, signing in, password reset, the map, tables, keyboard and contact. */
export function HelpScreen() {
  const { brand, identity, session, topBar, contact, routes, documentation } = appConfig
  const docsTitle = screenTitle('/Documentation')
  const settingsTitle = screenTitle('/Settings')
  const hours = Math.round(session.loginMinutes / 60)
  return (
    <main className="emberline-help bp6-running-text" aria-labelledby="help-title">
      <H1 id="help-title">{screenTitle('/Help')}</H1>
      <section>
        <H2>Getting started</H2>
        <p>
          {brand.name} shows wildfire risk, weather, power-shutoff and utility asset layers on one map. After
          you sign in you land on <a href={topBar.primaryTab.path}>{topBar.primaryTab.label}</a>: the map with
          the PSPS and EPSS layers and the forecast of the fire risk score for the coming days.
        </p>
        <p>
          The three-dot button ({topBar.moreOptionsLabel}) in the top bar opens this help and signs you out.
          The <a href="/Documentation">{docsTitle}</a> page explains every layer, legend and table column;{' '}
          <a href="/Settings">{settingsTitle}</a> holds your profile, password and display preferences.
        </p>
        <p>{documentation.intro}</p>
      </section>
      <section>
        <H2>Signing in and the SMS step</H2>
        <ol>
          <li>Open {brand.name} and enter your work e-mail address and password.</li>
          <li>
            We send a {identity.otp.digits}-digit code by SMS to the phone number on your account. Enter it
            within {identity.otp.expiryMinutes} minutes. If it does not arrive, choose Resend code.
          </li>
          <li>
            You stay signed in for up to {hours} hours. When fewer than {session.expiringSoonMinutes} minutes
            remain, {settingsTitle} shows the session as expiring soon.
          </li>
        </ol>
        <p>
          After {identity.throttle.maxFailures} failed attempts sign-in is locked for{' '}
          {identity.throttle.lockMinutes} minutes.
        </p>
        <p>
          Invited by an administrator? Open the link in the invitation e-mail (valid{' '}
          {Math.round((identity.inviteExpiryMinutes ?? 10_080) / 1440)} days) and choose your password. If
          your account has no phone number yet, you are asked for your mobile number before the SMS step; the
          code goes there and the number is kept for your next sign-ins.
        </p>
      </section>
      <section>
        <H2>Resetting a password</H2>
        <p>
          On the sign-in page choose Forgot password? and enter your e-mail address. The e-mail holds a link
          to <code>{routes.public.find((p) => /reset/i.test(p)) ?? '/login/Reset'}</code>, valid for{' '}
          {identity.resetTokenExpiryMinutes} minutes; choose a new password there. Signed in already? Change
          it on {settingsTitle}, where you can also sign out of all sessions on every device.
        </p>
      </section>
      <section>
        <H2>Administering members</H2>
        <p>
          Members whose roles allow it (the <code>stytch_admin</code> role by default) see an Organization
          section on {settingsTitle}; other members do not. There you can:
        </p>
        <ul>
          <li>find members by e-mail or name and filter them by status;</li>
          <li>
            invite a member: they receive an e-mail with a link to set their password, and must pass the SMS
            step (on the phone you enter, or one they enrol) before their first session;
          </li>
          <li>
            with Manage: change their roles, set or remove their SMS phone, reset their password (a new link
            is e-mailed), sign them out of every session, or disable them — a disabled member is signed out at
            once and cannot sign in until enabled again;
          </li>
          <li>read the audit log, filtered by who acted, the action, the member and a time range.</li>
        </ul>
        <p>Every action is checked by the server against your roles and recorded in the audit log.</p>
      </section>
      <section>
        <H2>Reading the map</H2>
        <p>
          The sidebar lists the layers by category. Switch a layer on or off with its checkbox, expand it for
          its legend and opacity, and use the info button for what it shows. PSPS offers a choice of hourly
          fields (the risk score, fire consequence and the weather behind them); only the selected one is
          drawn.
        </p>
        <p>Click a line or feature on the map for its popup with the key attributes.</p>
        <p>
          The panels beneath the map (the forecast, the operations views and the tables) can be hidden with
          the arrow at their right and resized by dragging their bar; the map keeps at least half the window
          unless you make a panel taller. On a phone the layer list opens from the Layers button on the map.
        </p>
      </section>
      <section>
        <H2>Tables and filters</H2>
        <p>
          Layers with data records have a table button. Tables open in the panel below the map, one tab each,
          with {appConfig.tables.itemsPerPage} rows a page. Add filters to narrow the rows: number columns
          compare (equal, greater than, less than…), text columns match any part of the text. The map button
          in a row zooms to that feature.
        </p>
      </section>
      <section>
        <H2>Shift briefing and alert messages</H2>
        <p>
          <a href="/Briefing">{screenTitle('/Briefing')}</a> (in the {topBar.moreOptionsLabel} menu and above
          every operations panel) prints the map view you are on with its legends, data times, the forecast,
          the open alerts, the next PSPS event and your handover notes: choose Print / Save as PDF.
        </p>
        <p>
          In {settingsTitle}, Alert subscriptions choose which alerts reach you by SMS or e-mail, and quiet
          hours. Each new alert is sent once; acknowledging it in Alerts stops the reminders.
        </p>
      </section>
      <section>
        <H2>Keyboard use</H2>
        <p>
          Everything works from the keyboard alone. Turning a layer on or off is announced to screen readers
          (&ldquo;Red Flag Warnings turned on&rdquo;).
        </p>
        <HTMLTable compact className="emberline-keyboard-map">
          <thead>
            <tr>
              <th scope="col">Where</th>
              <th scope="col">Keys</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {keyboardMap.map(({ area, keys, action }) => (
              <tr key={`${area} ${keys}`}>
                <td>{area}</td>
                <td>
                  <kbd>{keys}</kbd>
                </td>
                <td>{action}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </section>
      <section aria-labelledby="help-contact">
        <H2 id="help-contact">Who to contact</H2>
        <p>
          {contact.name}: <a href={`mailto:${contact.email}`}>{contact.email}</a>,{' '}
          <a href={`tel:${contact.phone.replace(/\s+/g, '')}`}>{contact.phone}</a>.
        </p>
      </section>
    </main>
  )
}
