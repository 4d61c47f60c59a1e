import { NonIdealState } from '@blueprintjs/core'

/** A configured route whose feature entry point is not part of this build. */
export function ScreenUnavailable({ title }: { title: string }) {
  return (
    <NonIdealState
      icon="build"
      title={title}
      description="This screen is not available in this build."
      className="emberline-screen-unavailable"
    />
  )
}
