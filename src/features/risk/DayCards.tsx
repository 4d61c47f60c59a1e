import { Card, Tag } from '@blueprintjs/core'
import { useMemo } from 'react'
import { appConfig } from '../../shared/config'
import { dailyMaxima, dayLabel, riskLabel } from '../../shared/risk'

export interface DayCardsProps {
  readonly timestamps: readonly string[]
  readonly scores: readonly number[]
  /** The day shown as 'Today' (YYYY-MM-DD). */
  readonly todayKey: string
}

/** One card per forecast day (Mountain time) with the day's maximum score and its risk label. */
export function DayCards({ timestamps, scores, todayKey }: DayCardsProps) {
  const { dayLabelTimeZone, todayLabel, locale } = appConfig.formatting
  const days = useMemo(
    () => dailyMaxima(timestamps, scores, dayLabelTimeZone),
    [timestamps, scores, dayLabelTimeZone],
  )
  return (
    // Scrolls sideways on narrow screens: focusable so the keyboard can scroll it (WCAG 2.1.1).
    <ul className="emberline-day-cards" aria-label="Daily maximum risk" tabIndex={0}>
      {days.map((day) => {
        const label = riskLabel(day.max)
        return (
          <li key={day.day}>
            <Card compact className="emberline-day-card" data-testid="day-card" data-day={day.day}>
              <div className="emberline-day-card-day">
                {dayLabel(day.day, { todayKey, todayLabel, locale })}
              </div>
              <div className="emberline-day-card-score">{day.max.toFixed(2)}</div>
              <Tag minimal round className={`emberline-risk-${label.toLowerCase().replace(/[^a-z]+/g, '-')}`}>
                {label}
              </Tag>
            </Card>
          </li>
        )
      })}
    </ul>
  )
}
