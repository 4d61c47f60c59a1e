// Shift briefing (issue 21): the printable /Briefing page and the links to it.
export { LazyBriefingScreen as BriefingScreen } from './LazyBriefingScreen'
export { BriefingLink } from './BriefingLink'
export { briefingPath, BRIEFING_PATH } from './briefingPath'
// The print machinery, for other printable pages (the PSPS post-event report).
export { PrintPageStyle } from './PrintPageStyle'
export { MapImageSection } from './MapImageSection'
