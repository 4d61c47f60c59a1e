import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteOptions,
} from 'fastify'
import fp from 'fastify-plugin'
import { forbidden, unauthorized } from '../http/httpErrors'
import { isAuthorized } from '../identity/rbac'
import type { RbacPolicy } from '../identity/settings'
import { cookieValue, parseAuthorization } from './requestCredential'
import type {
  MachineScope,
  MachineVerifier,
  SessionVerifier,
  VerifiedMachine,
  VerifiedSession,
} from './sessionVerifier'

/**
 * Who may call a route (route `config.auth`):
 * - `'public'`: anyone (sign-in, health, static files) — only when declared;
 * - `'session'`: any signed-in member — the default of a route that declares nothing;
 * - `{ permission: 'resource.action' }`: a member any of whose roles grants the action (or `*`) on
 *   the resource in the RBAC policy (spec §6, config/app.yaml `identity.rbac`); others get 403.
 */
export type RouteAuth = 'public' | 'session' | { permission: `${string}.${string}` }

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; absent = `'session'` (default deny). See RouteAuth. */
    auth?: RouteAuth
    /**
     * Besides `Authorization: Bearer`, the route accepts the SDK's session cookie: map tiles are
     * fetched by the browser's image/tile loaders, which cannot set headers.
     */
    sessionCookie?: boolean
    /**
     * The scope a machine client's access token needs for this route (issue #32). A route that
     * declares none refuses machine tokens (403): admin, identity and account routes never do.
     */
    machineScope?: MachineScope
  }
  interface FastifyInstance {
    /** The verifier the session check uses; the identity plugin may set it after buildApp starts. */
    sessionAuth: SessionAuth
  }
  interface FastifyRequest {
    /** The verified session of the request (null on public routes and 404s). */
    session: VerifiedSession | null
    /** The machine client of a request authenticated by an M2M access token (null otherwise). */
    machine: VerifiedMachine | null
  }
}

/** Holds the verifier the session check uses; the identity plugin may set it after buildApp starts. */
export interface SessionAuth {
  verifier: SessionVerifier | null
  setVerifier(verifier: SessionVerifier): void
  /** Machine access tokens (the bundled provider's M2M clients); null = none are accepted. */
  machines: MachineVerifier | null
  setMachineVerifier(verifier: MachineVerifier): void
}

export interface SessionPluginOptions {
  /** The session check's verifier (null until the identity plugin provides one: every check fails). */
  verifier: SessionVerifier | null
  /** Name of the SDK session cookie accepted by routes declaring `sessionCookie`. */
  cookieName: string
  /** The role → permission policy `{ permission }` routes are checked against. */
  rbac: RbacPolicy
}

/** What the hook does for one route, decided on its first request from its declaration. */
interface AuthPlan {
  open: boolean
  cookie: boolean
  /** Role ids granting the route's permission; null = any session. */
  grantedTo: ReadonlySet<string> | null
  permission: string
  /** The scope a machine token needs; null = machine tokens are refused. */
  machineScope: MachineScope | null
}

function splitPermission(permission: string): [string, string] {
  const dot = permission.lastIndexOf('.')
  return [permission.slice(0, dot), permission.slice(dot + 1)]
}

function planOf(config: FastifyContextConfig, rbac: RbacPolicy): AuthPlan {
  const { auth } = config
  const cookie = config.sessionCookie === true
  const machineScope = config.machineScope ?? null
  if (auth === 'public') return { open: true, cookie, grantedTo: null, permission: '', machineScope: null }
  if (auth === undefined || auth === 'session')
    return { open: false, cookie, grantedTo: null, permission: '', machineScope }
  const [resource, action] = splitPermission(auth.permission)
  // An action the policy does not define is granted to nobody (and refused at registration, below).
  const grantedTo = new Set(
    rbac.roles.filter((r) => isAuthorized(rbac, [r.role_id], resource, action)).map((r) => r.role_id),
  )
  return { open: false, cookie, grantedTo, permission: auth.permission, machineScope }
}

/**
 * The session check of every route, decided by the route Fastify matched (never by the raw URL):
 * a root `onRequest` hook that lets through routes declaring `config: { auth: 'public' }` and the
 * not-found handler (which answers no data); every other route needs a credential the verifier
 * accepts (401 otherwise), and a `{ permission }` route a session whose roles grant it (403).
 * Sets `request.session`. Register it before any route (buildApp does, first after the headers).
 */
async function sessionPlugin(app: FastifyInstance, opts: SessionPluginOptions): Promise<void> {
  const holder: SessionAuth = {
    verifier: opts.verifier,
    setVerifier(v) {
      holder.verifier = v
    },
    machines: null,
    setMachineVerifier(v) {
      holder.machines = v
    },
  }
  app.decorate('sessionAuth', holder)
  app.decorateRequest('session', null)
  app.decorateRequest('machine', null)
  // A permission the RBAC policy does not define is a programming mistake: refused at start.
  app.addHook('onRoute', (route: RouteOptions) => {
    const auth = route.config?.auth
    if (typeof auth !== 'object') return
    const [resource, action] = splitPermission(auth.permission)
    if (!opts.rbac.resources.some((r) => r.resource_id === resource && r.actions.includes(action))) {
      throw new Error(`${route.url}: permission ${auth.permission} is not an action of the RBAC policy`)
    }
  })
  // Each route's declaration is read into a plan on its first request (after every onRoute hook,
  // declareRoutes included, has shaped the config); later requests reuse it.
  const plans = new WeakMap<object, AuthPlan>()
  const planFor = (config: FastifyContextConfig): AuthPlan => {
    let plan = plans.get(config)
    if (!plan) {
      plan = planOf(config, opts.rbac)
      plans.set(config, plan)
    }
    return plan
  }
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.is404) return undefined
    const plan = planFor(request.routeOptions.config)
    if (plan.open) return undefined
    const header = parseAuthorization(request.headers.authorization)
    if (header.kind === 'malformed') {
      return unauthorized(reply, 'the Authorization header must be "Bearer <session token>"')
    }
    const token =
      header.kind === 'bearer'
        ? header.token
        : plan.cookie
          ? cookieValue(request.headers.cookie, opts.cookieName)
          : null
    if (!token) return unauthorized(reply, 'a session token is required (Authorization: Bearer <token>)')
    const session = holder.verifier ? await holder.verifier.verify(token) : null
    if (!session) {
      const machine = holder.machines && header.kind === 'bearer' ? await holder.machines.verify(token) : null
      if (!machine) return unauthorized(reply, 'the session is invalid or has expired')
      // A machine token opens only the data routes that name a scope it holds; RBAC roles are
      // members' (a machine has none), so its scope takes the place of the route's permission.
      if (!plan.machineScope)
        return forbidden(
          reply,
          'machine clients may call only the data routes; this one needs a member session',
        )
      if (!machine.scopes.includes(plan.machineScope))
        return forbidden(reply, `this needs the ${plan.machineScope} scope`)
      request.machine = machine
      request.session = {
        memberId: machine.clientId,
        sessionId: machine.tokenId,
        organizationId: machine.organizationId,
        roles: [],
        expiresAt: machine.expiresAt,
      }
      return undefined
    }
    if (plan.grantedTo && !session.roles.some((r) => plan.grantedTo?.has(r))) {
      return forbidden(reply, `this needs the ${plan.permission} permission`)
    }
    request.session = session
    return undefined
  })
  // Every request a machine made is audited (after the answer, never delaying it).
  app.addHook('onResponse', async (request, reply) => {
    const machine = request.machine
    if (!machine || !holder.machines) return
    await holder.machines
      .recordUse(machine, {
        method: request.method,
        route: request.routeOptions.url ?? request.url,
        status: reply.statusCode,
        ip: request.ip,
      })
      .catch(() => undefined)
  })
}

export default fp(sessionPlugin, { name: 'emberline-session', fastify: '5.x' })
