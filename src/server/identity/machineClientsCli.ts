import type { MachineClient } from '../store/machineClientStore'
import { MachineClientError, type MachineClientAdmin } from './machineClients'

export const M2M_USAGE = `  m2m create --name NAME --scopes data:read[,data:write]   (prints client_id and client_secret once)
  m2m list
  m2m rotate <client_id>     (a new secret, printed once; tokens already issued run out)
  m2m revoke <client_id>     (its tokens are refused at once)`

const iso = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString())

function row(c: MachineClient): string {
  return [
    c.clientId,
    c.name,
    c.scopes.join(','),
    c.status,
    `…${c.secretLast4}`,
    iso(c.createdAt),
    iso(c.lastUsedAt),
  ].join('\t')
}

/** `npm run users -- m2m …`: machine clients from a server's shell (same rules and audit as Settings). */
export async function runM2mCommand(
  args: { positional: string[]; options: Record<string, string> },
  admin: MachineClientAdmin,
  print: (line: string) => void,
  usage: (message: string) => Error,
): Promise<number> {
  const [sub, clientId] = args.positional
  try {
    switch (sub) {
      case 'create': {
        if (!args.options.name) throw usage('m2m create needs --name')
        if (!args.options.scopes) throw usage('m2m create needs --scopes (data:read, data:write)')
        const { client, secret } = await admin.create(
          { name: args.options.name, scopes: args.options.scopes },
          null,
        )
        print(`client_id: ${client.clientId}`)
        print(`client_secret: ${secret}`)
        print(`scopes: ${client.scopes.join(' ')}`)
        print('note: the secret is shown this once; only its hash is kept')
        return 0
      }
      case 'list':
        for (const c of await admin.list()) print(row(c))
        return 0
      case 'rotate': {
        if (!clientId) throw usage('m2m rotate needs a client_id')
        const { client, secret } = await admin.rotate(clientId, null)
        print(`client_id: ${client.clientId}`)
        print(`client_secret: ${secret}`)
        return 0
      }
      case 'revoke': {
        if (!clientId) throw usage('m2m revoke needs a client_id')
        const client = await admin.revoke(clientId, null)
        print(`revoked ${client.clientId} (${client.name})`)
        return 0
      }
      default:
        throw usage(
          sub ? `unknown m2m command "${sub}"` : 'm2m needs a command: create, list, rotate, revoke',
        )
    }
  } catch (err) {
    if (err instanceof MachineClientError) {
      print(
        `error: ${err.message}${err.parameter ? ` (${err.parameter === 'scopes' ? '--scopes' : err.parameter})` : ''}`,
      )
      return 1
    }
    throw err
  }
}
