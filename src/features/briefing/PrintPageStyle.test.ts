import { describe, expect, it } from 'vitest'
import { cssString, printPageCss } from './PrintPageStyle'
import { briefingPath } from './briefingPath'

describe('print page rules', () => {
  it('quote any organization name safely', () => {
    expect(cssString('A "B" \\ C\nD')).toBe('"A \\"B\\" \\\\ C D"')
  })

  it('put organization, time and page numbers in the page margins', () => {
    const css = printPageCss('Mesa Power', 'Nov 25, 10:00 AM')
    expect(css).toContain('@top-left { content: "Mesa Power · Shift briefing";')
    expect(css).toContain('@top-right { content: "Nov 25, 10:00 AM";')
    expect(css).toContain('content: "Page " counter(page) " of " counter(pages)')
  })

  it('name another printout in the page header', () => {
    const css = printPageCss('Mesa Power', 'Nov 25, 10:00 AM', 'PSPS post-event report')
    expect(css).toContain('@top-left { content: "Mesa Power · PSPS post-event report";')
  })
})

describe('briefingPath', () => {
  it('keeps only the share-link parameters of the page', () => {
    expect(briefingPath('?c=1,2&z=9&layers=a,b&sub=a:x&sub=b:y&hour=3&alert=q&tab=t')).toBe(
      '/Briefing?c=1,2&z=9&layers=a,b&sub=a:x&sub=b:y&hour=3',
    )
    expect(briefingPath('')).toBe('/Briefing')
  })
})
