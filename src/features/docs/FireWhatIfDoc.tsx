import { H2 } from '@blueprintjs/core'
import { WHAT_IF_DEFAULT_HOURS, WHAT_IF_MAX_HOURS } from '../../shared/fireSim/wireTypes'

/** The "What if a fire starts here?" tool (issue #31 item 4): how to use it, what it computes, its limits. */
export function FireWhatIfDoc() {
  return (
    <section id="fire-what-if" aria-labelledby="fire-what-if-title">
      <H2 id="fire-what-if-title">What if a fire starts here?</H2>
      <p>
        On the Daily Wildfire Risk map, the <strong>What if a fire starts here?</strong> button (top right of
        the map) opens the tool: choose the forecast hour the fire starts in (the current hour by default) and
        how long it burns (1–{WHAT_IF_MAX_HOURS} h, {WHAT_IF_DEFAULT_HOURS} h by default), then click the map
        where it starts. On a phone or tablet, hold a finger still on the map for about 0.6 s instead. Esc or
        Cancel disarms the click.
      </p>
      <p>
        Emberline spreads one free-burning fire from that point over the configured fuels (FBFM40 fuel
        models), terrain (slope and aspect from elevation) and the hourly forecast winds from that hour on:
        Rothermel surface spread and crown fire as BehavePlus and FlamMap compute them, and minimum travel
        time on 90 m cells. The map shows the area burned after each hour (graded from pale yellow for the
        first hour to deep red for the last, each labelled at its head) and the panel lists what lies inside
        the final perimeter: overhead transmission and distribution lines, circuits and their customers (the
        customers of every circuit that crosses the burned area), the number of buildings, and critical
        facilities. Each item zooms the map to the feature; its GeoJSON link opens the feature through OGC API
        – Features. The last line says which fuel, terrain and wind grids (and versions) produced it.
      </p>
      <p>
        <strong>Copy link</strong> copies the page address, which holds the fire (<code>fireAt=lon,lat</code>,{' '}
        <code>fireHour</code>, <code>fireHours</code>): opening it runs the same simulation and shows the same
        result. <strong>Add to shift briefing</strong> opens the briefing with the fire drawn on its map and a
        printed section with the point, start time, acres and what lies inside. <strong>Clear</strong> removes
        it.
      </p>
      <p>
        Limits: <strong>no spotting and no suppression</strong> — the fire is unsuppressed and spreads only
        from cell to cell; fuel moistures are fixed (a dry summer afternoon); the wind changes on the hour; a
        point on fuel that does not burn (towns, water, bare ground, crops) or outside the fuel grid is
        refused with the reason. A fire that reaches the edge of the simulated window (20 km across, grown to
        80 km at most) is cut there and its area is a lower bound. On the demo a what-if answers in about 0.2
        s once the server has read the landscape (the first one after start or a new forecast takes a few
        seconds).
      </p>
    </section>
  )
}
