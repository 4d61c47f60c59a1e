import { Button, Classes } from '@blueprintjs/core'
import { formatDate, formatPlain } from '../../shared/format'
import type { FireWhatIfFeature, FireWhatIfResult } from '../../shared/fireSim/wireTypes'
import { isochroneColor } from './isochroneStyle'

export interface WhatIfResultPanelProps {
  readonly result: FireWhatIfResult
  /** Zooms the map to a feature and outlines it; absent where the list is printed (the briefing). */
  readonly onShow?: (feature: FireWhatIfFeature) => void
}

const DATASET_NAMES: Readonly<Record<string, string>> = {
  transmission_lines: 'transmission',
  distribution_lines: 'distribution',
}

function FeatureItem({
  feature,
  detail,
  onShow,
}: {
  feature: FireWhatIfFeature
  detail?: string
  onShow?: (f: FireWhatIfFeature) => void
}) {
  const text = detail ? `${feature.label} · ${detail}` : feature.label
  return (
    <li data-dataset={feature.dataset} data-id={feature.id}>
      {onShow ? (
        <Button
          size="small"
          variant="minimal"
          icon="zoom-to-fit"
          text={text}
          title={`Zoom to ${feature.label} (${feature.dataset})`}
          className="el-fire-item"
          onClick={() => onShow(feature)}
        />
      ) : (
        <span>{text}</span>
      )}{' '}
      <a
        href={feature.href}
        target="_blank"
        rel="noreferrer"
        className="el-fire-item-link"
        aria-label={`${feature.label} as GeoJSON`}
      >
        GeoJSON
      </a>
    </li>
  )
}

function FeatureList(props: {
  readonly title: string
  readonly testId: string
  readonly items: readonly FireWhatIfFeature[]
  readonly total: number
  readonly detail?: (f: FireWhatIfFeature) => string | undefined
  readonly onShow?: (f: FireWhatIfFeature) => void
}) {
  const { title, testId, items, total, detail, onShow } = props
  return (
    <section className="el-fire-list" data-testid={testId}>
      <h4>
        {title} <span className={Classes.TEXT_MUTED}>({formatPlain(total)})</span>
      </h4>
      {items.length === 0 ? (
        <p className={Classes.TEXT_MUTED}>None.</p>
      ) : (
        <ul>
          {items.map((f) => (
            <FeatureItem key={`${f.dataset}:${f.id}`} feature={f} detail={detail?.(f)} onShow={onShow} />
          ))}
          {total > items.length ? (
            <li className={Classes.TEXT_MUTED}>… and {formatPlain(total - items.length)} more</li>
          ) : null}
        </ul>
      )}
    </section>
  )
}

/** The what-if's summary, hour legend and what lies inside (lines, circuits, buildings, customers, facilities). */
export function WhatIfResultPanel({ result, onShow }: WhatIfResultPanelProps) {
  const { inside } = result
  const hours = result.isochrones.features.map((f) => f.properties.hour)
  return (
    <div className="el-fire-result" data-testid="fire-result">
      <p className="el-fire-summary" data-testid="fire-summary">
        Fire at {result.point[1].toFixed(4)}°, {result.point[0].toFixed(4)}° starting{' '}
        {formatDate(result.startTime)} (forecast hour {result.hour}), {result.hours} h unsuppressed:{' '}
        <strong data-testid="fire-acres">{formatPlain(Math.round(result.burnedAcres))} acres</strong>
      </p>
      <ol className="el-fire-legend" aria-label="Area burned by hour">
        {hours.map((h) => (
          <li key={h}>
            <span
              className="el-fire-swatch"
              style={{ background: isochroneColor(h, hours.length) }}
              aria-hidden="true"
            />
            {h} h
          </li>
        ))}
      </ol>
      <dl className="el-fire-totals">
        <dt>Buildings</dt>
        <dd data-testid="fire-buildings">{formatPlain(inside.buildings.count)}</dd>
        <dt>Customers</dt>
        <dd data-testid="fire-customers">{formatPlain(inside.customers)}</dd>
      </dl>
      <FeatureList
        title="Lines"
        testId="fire-lines"
        items={inside.lines}
        total={inside.counts.lines}
        detail={(f) => DATASET_NAMES[f.dataset]}
        onShow={onShow}
      />
      <FeatureList
        title="Circuits"
        testId="fire-circuits"
        items={inside.circuits}
        total={inside.counts.circuits}
        detail={(f) => (f.customers !== undefined ? `${formatPlain(f.customers)} customers` : undefined)}
        onShow={onShow}
      />
      <FeatureList
        title="Critical facilities"
        testId="fire-facilities"
        items={inside.criticalFacilities}
        total={inside.counts.criticalFacilities}
        detail={(f) => f.type}
        onShow={onShow}
      />
      {inside.buildings.count > 0 ? (
        <FeatureList
          title="Buildings (first ones)"
          testId="fire-buildings-sample"
          items={inside.buildings.sample}
          total={inside.buildings.count}
          onShow={onShow}
        />
      ) : null}
      <p className={`el-fire-provenance ${Classes.TEXT_MUTED}`} data-testid="fire-provenance">
        {result.provenance}. No spotting, no suppression.
      </p>
    </div>
  )
}
