import type { CatalogueIndex } from './catalogueIndex'

const A = 'app'

/** app.yaml values that must agree with each other or with the theme. */
export function checkApp(ix: CatalogueIndex): void {
  const { app } = ix
  if (app.map.minZoom > app.map.maxZoom) ix.ctx.report(A, ['map', 'minZoom'], `minZoom ${app.map.minZoom} is above maxZoom ${app.map.maxZoom}`)
  for (const mode of ['live', 'demo'] as const) {
    const { zoom, center } = app.map[mode]
    if (zoom < app.map.minZoom || zoom > app.map.maxZoom) ix.ctx.report(A, ['map', mode, 'zoom'], `zoom ${zoom} is outside minZoom..maxZoom`)
    if (Math.abs(center[0]) > 180 || Math.abs(center[1]) > 90) ix.ctx.report(A, ['map', mode, 'center'], `center must be [longitude, latitude]`)
  }
  checkBasemap(ix)
  app.riskLabels.forEach((r, i) => {
    const prev = app.riskLabels[i - 1]
    if (prev && !(r.min < prev.min)) ix.ctx.report(A, ['riskLabels', i, 'min'], `risk labels must be strictly descending by min (${r.min} after ${prev.min})`)
  })
  if (!(app.chart.band.from < app.chart.band.to)) ix.ctx.report(A, ['chart', 'band', 'from'], `band 'from' must be below 'to'`)
  if (!(app.chart.yAxis.min < app.chart.yAxis.max)) ix.ctx.report(A, ['chart', 'yAxis', 'min'], `axis 'min' must be below 'max'`)
  const screens = new Set(app.routes.screens.map((s) => s.path.toLowerCase()))
  const route = (segments: (string | number)[], p: string | undefined) => {
    if (p !== undefined && p !== app.routes.home && !screens.has(p.toLowerCase())) ix.ctx.report(A, segments, `route '${p}' is not one of routes.screens`)
  }
  route(['routes', 'default'], app.routes.default)
  route(['routes', 'login'], app.routes.login)
  route(['topBar', 'primaryTab', 'path'], app.topBar.primaryTab.path)
  app.topBar.menu.forEach((item, i) => {
    route(['topBar', 'menu', i, 'path'], item.path)
    const kinds = [item.path !== undefined, item.action !== undefined, item.divider === true].filter(Boolean).length
    if (kinds !== 1) ix.ctx.report(A, ['topBar', 'menu', i], `a menu item is exactly one of: a link (label, path), an action (label, action) or a divider`)
    else if (item.divider !== true && item.label === undefined) ix.ctx.report(A, ['topBar', 'menu', i], `missing required key 'label'`)
  })
  const { colorStepMph, colorMaxMph } = app.windParticles
  for (let mph = 0; mph <= colorMaxMph; mph += colorStepMph) {
    ix.color(A, ['windParticles', 'colorMaxMph'], `windSpeed.${mph}`)
  }
}

/** app.yaml lists that name things elsewhere: cadence layers, preference defaults, role resources, field meanings. */
export function checkAppReferences(ix: CatalogueIndex): void {
  const { app } = ix
  app.cadence.forEach((fact, i) => fact.layers?.forEach((id, j) => ix.ctx.ref(A, ['cadence', i, 'layers', j], id, ix.layerDefs, 'layer')))
  app.preferences.forEach((pref, i) => {
    const values = new Set(pref.options.map((o) => o.value))
    if (!values.has(pref.default)) ix.ctx.report(A, ['preferences', i, 'default'], `default '${pref.default}' is not one of the options`)
  })
  const resources = new Set(app.identity.rbac?.resources.map((r) => r.resource_id))
  app.identity.rbac?.roles.forEach((role, i) =>
    role.permissions.forEach((perm, j) => ix.ctx.ref(A, ['identity', 'rbac', 'roles', i, 'permissions', j, 'resource_id'], perm.resource_id, resources, 'resource')),
  )
  const roles = new Set(app.identity.rbac?.roles.map((r) => r.role_id))
  for (const key of ['defaultRoles', 'firstMemberRoles'] as const) {
    app.identity.rbac?.[key]?.forEach((id, i) => ix.ctx.ref(A, ['identity', 'rbac', key, i], id, roles, 'role'))
  }
  const fields = new Set(['bbox', ...ix.layers.datasets.flatMap((d) => d.fields.map((f) => f.name))])
  for (const key of Object.keys(app.documentation.fieldMeanings)) {
    if (!fields.has(key)) ix.ctx.report(A, ['documentation', 'fieldMeanings', key], `'${key}' is not a field of any dataset`, true)
  }
}

/** Palette and map colour names share one namespace, so a name may be defined once. */
export function checkTheme(ix: CatalogueIndex): void {
  const palette = new Set(Object.keys(ix.theme.colors))
  for (const name of Object.keys(ix.theme.map)) {
    if (palette.has(name)) ix.ctx.report('theme', ['map', name], `colour name '${name}' is also defined under colors`, true)
  }
}

/** map.basemap: what each kind needs (a URL of the right shape, an attribution) and nothing it does not use. */
function checkBasemap(ix: CatalogueIndex): void {
  const b = ix.app.map.basemap
  const at = ['map', 'basemap'] as const
  const kind = b.type === 'xyz' ? 'an xyz basemap' : 'a pmtiles basemap'
  if (b.type === 'offline') {
    for (const key of ['url', 'attribution', 'maxZoom', 'subdomains', 'placeLabels'] as const)
      if (b[key] !== undefined) ix.ctx.report(A, [...at, key], `'${key}' is not used by the offline basemap`, true)
    return
  }
  if (b.url === undefined) ix.ctx.report(A, at, `${kind} needs 'url'`)
  else if (!/^(https?:\/\/[^/]+|\/)/.test(b.url)) ix.ctx.report(A, [...at, 'url'], `url must start with https://, http:// or / (a path on this server)`)
  else if (b.type === 'xyz') {
    const missing = ['{z}', '{x}', '{y}'].filter((p) => !b.url?.includes(p))
    if (missing.length > 0) ix.ctx.report(A, [...at, 'url'], `an xyz url template needs ${missing.join(', ')}`)
    if (b.url.includes('{s}') && b.subdomains === undefined) ix.ctx.report(A, [...at, 'url'], `url uses {s}: list the values in 'subdomains'`)
  } else if (!/\.pmtiles(\?|$)/.test(b.url)) ix.ctx.report(A, [...at, 'url'], `a pmtiles url names a .pmtiles archive`)
  if (b.attribution === undefined) ix.ctx.report(A, at, `${kind} needs 'attribution' (the credit its licence asks for)`)
  if (b.type === 'pmtiles') {
    for (const key of ['subdomains', 'placeLabels'] as const)
      if (b[key] !== undefined) ix.ctx.report(A, [...at, key], `'${key}' is not used by a pmtiles basemap`, true)
  }
}
