import { createRequire } from 'node:module'
import type { AxeResults, ImpactValue, RunOptions } from 'axe-core'
import type { Browser, Page } from 'playwright-core'

/** The axe-core build injected into the page (a devDependency, axe-core 4.x). */
const axeScript = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

/** WCAG 2.1 level A and AA rules: the bar (#22 item 2). */
export const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const

/** Impacts that fail the pass; moderate and minor findings are reported only. */
export const failingImpacts: readonly ImpactValue[] = ['serious', 'critical']

/** One axe violation on one element. */
export interface AxeFinding {
  rule: string
  impact: ImpactValue | null
  target: string
  summary: string
}

/**
 * A page whose context ignores the app's Content-Security-Policy: axe is injected as an inline
 * script (page.addScriptTag), which `script-src 'self'` would block. Nothing else changes.
 */
export async function newAxePage(browser: Browser, size: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport: size, bypassCSP: true })
  return context.newPage()
}

/** Runs axe-core (WCAG 2.1 A/AA rules only) on the whole document; one finding per element. */
export async function runAxe(page: Page): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axeScript })
  const options: RunOptions = { runOnly: { type: 'tag', values: [...wcagTags] }, resultTypes: ['violations'] }
  return page.evaluate(async (runOptions) => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: RunOptions): Promise<AxeResults> } }).axe
    const results = await axe.run(document, runOptions)
    return results.violations.flatMap((v) =>
      v.nodes.map((n) => ({
        rule: v.id,
        impact: n.impact ?? v.impact ?? null,
        target: n.target.map(String).join(' '),
        summary: (n.failureSummary ?? v.help).replace(/\s+/g, ' ').trim(),
      })),
    )
  }, options)
}

/** The findings that fail the pass (serious or critical). */
export function failing(findings: readonly AxeFinding[]): AxeFinding[] {
  return findings.filter((f) => f.impact !== null && failingImpacts.includes(f.impact))
}

/** Counts by rule, e.g. { 'color-contrast': 19, label: 2 }. */
export function countByRule(findings: readonly AxeFinding[]): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const f of findings) counts[f.rule] = (counts[f.rule] ?? 0) + 1
  return counts
}

/** A readable list, one line per element: rule (impact) target — summary. */
export function describeFindings(where: string, findings: readonly AxeFinding[]): string {
  if (findings.length === 0) return `${where}: no violations`
  const lines = findings.map((f) => `  ${f.rule} (${f.impact ?? '?'}) ${f.target} — ${f.summary}`)
  return `${where}: ${findings.length} serious/critical axe violation(s)\n${lines.join('\n')}`
}

/** The element that has keyboard focus, and whether a focus indicator is drawn for it. */
export interface FocusInfo {
  /** Tag, then aria-label / label text / text, e.g. `button "More options"`. */
  description: string
  /** An outline (or Blueprint's ring on a switch/radio/checkbox indicator, or an input's focus shadow) is drawn. */
  visible: boolean
}

/** Reads document.activeElement: what it is and whether its focus is visible. */
export function focusInfo(page: Page): Promise<FocusInfo> {
  return page.evaluate(() => {
    const el = document.activeElement
    if (!el || el === document.body) return { description: 'body', visible: false }
    const outlined = (e: Element | null | undefined) => {
      if (!e) return false
      const s = getComputedStyle(e)
      return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0
    }
    // Blueprint's controls hide the native input: the indicator beside it carries the ring.
    const indicator = el.matches('input[type="checkbox"], input[type="radio"]')
      ? el.parentElement?.querySelector('.bp6-control-indicator')
      : null
    // Blueprint's text inputs draw focus as a coloured box-shadow.
    const textInput = el.matches('input:not([type="checkbox"]):not([type="radio"]), select, textarea')
    const shadowed = textInput && getComputedStyle(el).boxShadow !== 'none'
    const name =
      el.getAttribute('aria-label') ??
      el.closest('label')?.textContent ??
      (el.textContent ?? '').trim().slice(0, 40)
    return {
      description: `${el.tagName.toLowerCase()} "${name}"`,
      visible: outlined(el) || outlined(indicator) || shadowed,
    }
  })
}

/**
 * Presses Tab (or Shift+Tab) until the focused element matches `selector`, at most `max` times;
 * every element passed on the way must show its focus. Throws with the path taken otherwise.
 */
export async function tabTo(
  page: Page,
  selector: string,
  options: { backwards?: boolean; max?: number } = {},
): Promise<void> {
  const path: string[] = []
  const invisible: string[] = []
  for (let i = 0; i < (options.max ?? 250); i++) {
    await page.keyboard.press(options.backwards ? 'Shift+Tab' : 'Tab')
    const info = await focusInfo(page)
    path.push(info.description)
    if (info.description !== 'body' && !info.visible) invisible.push(info.description)
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) {
      if (invisible.length > 0) throw new Error(`focus not visible on: ${invisible.join(', ')}`)
      return
    }
  }
  throw new Error(`Tab never reached ${selector}; focus went ${path.slice(-30).join(' → ')}`)
}

/** Whether the focused element matches `selector`. */
export function focusMatches(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)
}
