import { describe, expect, it } from 'vitest'
import type { Alert } from '../alerts'
import { composeMessage } from './composeMessage'
import { alertFields, alertLink, renderTemplate, viewOfBbox } from './messageFields'

const alert: Alert = {
  id: 'young-hotspot-near-distribution:42',
  ruleId: 'young-hotspot-near-distribution',
  ruleTitle: 'Hotspot near a line',
  severity: 'warning',
  hazard: { dataset: 'thermal_hot_spots', id: 42, label: 'N20 hotspot, 12 MW', time: '2026-11-22T18:05:00Z' },
  assets: ['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((label, i) => ({
    dataset: 'distribution_lines',
    id: i,
    label,
    distanceMiles: i * 0.1,
  })),
  nearestMiles: 0,
  time: '2026-11-22T18:05:00Z',
  bbox: [-106.6, 35.0, -106.5, 35.1],
}

const templates = {
  sms: '{severityLabel}: {hazard} — {assetCount} assets within {nearestMiles} mi ({assets}) {link}',
  emailSubject: '{severityLabel}: {hazard}',
  email: '{ruleTitle} at {time}',
  digestLine: '{hazard}',
  digestSms: '{count} new: {lines} {link}',
  digestEmailSubject: '{count} new alerts',
  digestEmail: '{lines}',
  reminderPrefix: 'Reminder: ',
}

const fields = alertFields(alert, {
  severityLabel: 'Warning',
  baseUrl: 'https://e.example/',
  timeZone: 'America/Denver',
})

describe('alert messages', () => {
  it('fills every alert field; five asset names, then a count', () => {
    expect(renderTemplate(templates.sms, fields)).toBe(
      'Warning: N20 hotspot, 12 MW — 7 assets within 0.00 mi (A, B, C, D, E and 2 more) ' +
        'https://e.example/Alerts?alert=young-hotspot-near-distribution%3A42&c=-106.55000,35.05000&z=11',
    )
    expect(fields.time).toBe('Nov 22, 11:05 MST')
  })

  it('leaves an unknown placeholder as written', () => {
    expect(renderTemplate('{hazard} {nope}', fields)).toBe('N20 hotspot, 12 MW {nope}')
  })

  it('links to the alert with a view that frames its bbox', () => {
    expect(viewOfBbox([-106.6, 35.0, -106.5, 35.1])).toEqual([-106.55, 35.05, 11])
    expect(viewOfBbox([-106.5, 35.0, -106.5, 35.0])[2]).toBe(16)
    expect(alertLink('http://h:1', alert)).toMatch(/^http:\/\/h:1\/Alerts\?alert=/)
  })

  it('one alert uses the alert templates, several a digest, a reminder the prefix', () => {
    const one = composeMessage(templates, [{ alertId: alert.id, fields }], {
      reminder: false,
      alertsUrl: 'u',
    })
    expect(one.kind).toBe('alert')
    expect(one.link).toBe(fields.link)
    const three = [1, 2, 3].map((n) => ({ alertId: `a${n}`, fields: { ...fields, hazard: `H${n}` } }))
    const digest = composeMessage(templates, three, { reminder: false, alertsUrl: 'https://e/Alerts' })
    expect(digest).toMatchObject({
      kind: 'digest',
      alertIds: ['a1', 'a2', 'a3'],
      sms: '3 new: H1; H2; H3 https://e/Alerts',
      email: 'H1\nH2\nH3',
      subject: '3 new alerts',
    })
    const reminder = composeMessage(templates, [{ alertId: alert.id, fields }], {
      reminder: true,
      alertsUrl: 'u',
    })
    expect(reminder.kind).toBe('reminder')
    expect(reminder.subject).toBe('Reminder: Warning: N20 hotspot, 12 MW')
  })
})
