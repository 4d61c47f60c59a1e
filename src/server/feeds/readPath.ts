/**
 * A feed field's value: the property of that exact name (names may hold spaces, dots or
 * brackets: 'ELEVATION [ft]'), else a dotted path into nested objects, taking the first item of
 * a list on the way ('geocode.UGC', 'parameters.NWSheadline').
 */
export function readPath(props: Record<string, unknown>, path: string): unknown {
  if (path in props) return props[path]
  let v: unknown = props
  for (const part of path.split('.')) {
    if (Array.isArray(v)) v = v[0]
    if (typeof v !== 'object' || v === null) return undefined
    v = (v as Record<string, unknown>)[part]
  }
  return Array.isArray(v) && v.every((x) => typeof x !== 'object')
    ? v.length === 1
      ? v[0]
      : v.join('; ')
    : v
}

/** Reads one feed field of a record: a CSV cell by its column, else `readPath` on the properties. */
export type FieldReader = (record: { props: Record<string, unknown>; values?: readonly string[] }) => unknown

/** The reader of `path` for records of a parse (CSV columns resolved once, by index). */
export function fieldReader(path: string, columns?: ReadonlyMap<string, number>): FieldReader {
  const index = columns?.get(path)
  if (index !== undefined) return (r) => (r.values ? r.values[index] : readPath(r.props, path))
  return (r) => readPath(r.props, path)
}
