import { Button, NonIdealState, Spinner } from '@blueprintjs/core'
import { Component, lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react'

interface PartBoundaryProps {
  readonly what: string
  readonly onRetry: () => void
  readonly children: ReactNode
}

/** Catches a failed chunk (or a part that throws while drawing) so only this part shows the failure. */
class PartBoundary extends Component<PartBoundaryProps, { failed: boolean }> {
  override state = { failed: false }

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true }
  }

  override componentDidCatch(error: unknown): void {
    console.error(`${this.props.what} could not be loaded:`, error)
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children
    const retry = () => {
      this.setState({ failed: false })
      this.props.onRetry()
    }
    return (
      <NonIdealState
        className="el-lazy-part-error"
        icon="error"
        title={`${this.props.what} could not be loaded`}
        description="The rest of this screen works. Check the connection and try again."
        action={<Button icon="refresh" text="Retry" onClick={retry} />}
      />
    )
  }
}

/** Props of a lazily loaded part: the part's own, and what to show while its chunk loads. */
export type LazyPartProps<P extends object> = P & { readonly fallback?: ReactNode }

/**
 * A lazily loaded part of a screen (the forecast chart, the attribute-tables panel), made once at
 * module level like `React.lazy`: while its chunk loads, the `fallback`; if the chunk fails (network,
 * a deploy that removed it) or the part throws, an error naming `what` with a Retry button in its
 * place — the route and the rest of the screen keep working. Retry loads the chunk again (React
 * keeps a failed `lazy` failed, so each attempt is a new one).
 */
export function lazyPart<P extends object>(
  what: string,
  load: () => Promise<ComponentType<P>>,
): ComponentType<LazyPartProps<P>> {
  const attempt = () => lazy(() => load().then((component) => ({ default: component })))
  let Part = attempt()
  function LazyPart({ fallback, ...props }: LazyPartProps<P>) {
    const [, setTries] = useState(0)
    const retry = () => {
      Part = attempt()
      setTries((n) => n + 1)
    }
    return (
      <PartBoundary what={what} onRetry={retry}>
        <Suspense fallback={fallback ?? <Spinner size={24} aria-label={`Loading ${what.toLowerCase()}`} />}>
          <Part {...(props as P)} />
        </Suspense>
      </PartBoundary>
    )
  }
  return LazyPart
}
