declare module 'virtual:icon-subset' {
  import type { IconPaths } from '@blueprintjs/icons'
  const subset: Record<number, Record<string, IconPaths | undefined> | undefined>
  export default subset
}
