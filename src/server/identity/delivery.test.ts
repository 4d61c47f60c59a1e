import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createDelivery } from './delivery'

const dirs: string[] = []
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })))
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-outbox-'))
  dirs.push(d)
  return d
}

describe('outbox delivery', () => {
  it('appends JSON lines per channel and prints a console line', async () => {
    const dataDir = tmp()
    const printed: string[] = []
    const d = createDelivery({
      dataDir,
      env: {},
      print: (l) => printed.push(l),
      now: () => Date.parse('2025-03-05T00:00:00Z'),
    })
    await d.sms({ to: '+15055550100', memberId: 'm', code: '012345', text: 'code 012345' })
    await d.email({ to: 'a@x.test', memberId: 'm', token: 't', link: 'http://h/r?token=t', text: 'reset' })
    const sms = fs
      .readFileSync(path.join(dataDir, 'outbox', 'sms.jsonl'), 'utf8')
      .trim()
      .split('\n')
    expect(sms.map((l) => JSON.parse(l) as unknown)).toEqual([
      {
        at: '2025-03-05T00:00:00.000Z',
        channel: 'sms',
        to: '+15055550100',
        memberId: 'm',
        code: '012345',
        text: 'code 012345',
      },
    ])
    const email = JSON.parse(fs.readFileSync(path.join(dataDir, 'outbox', 'email.jsonl'), 'utf8')) as Record<
      string,
      string
    >
    expect(email).toMatchObject({ channel: 'email', token: 't', link: 'http://h/r?token=t' })
    expect(printed).toHaveLength(2)
  })

  it('posts to a configured gateway instead, and reports a failing gateway', async () => {
    const bodies: unknown[] = []
    let status = 200
    const server = http.createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      req.on('end', () => {
        bodies.push(JSON.parse(body))
        res.statusCode = status
        res.end()
      })
    })
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    const address = server.address()
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/sms`
    const dataDir = tmp()
    const d = createDelivery({ dataDir, env: { EMBERLINE_SMS_WEBHOOK_URL: url }, print: () => {} })
    await d.sms({ to: '+15055550100', memberId: 'm', code: '111111', text: 'x' })
    expect(bodies).toMatchObject([{ channel: 'sms', code: '111111', to: '+15055550100' }])
    expect(fs.existsSync(path.join(dataDir, 'outbox', 'sms.jsonl'))).toBe(false)
    status = 500
    await expect(d.sms({ to: '+1', memberId: 'm', code: '2', text: 'x' })).rejects.toMatchObject({
      statusCode: 502,
    })
    await new Promise((done) => server.close(done))
  })
})
