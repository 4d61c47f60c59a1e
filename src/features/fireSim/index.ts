// "What if a fire starts here?" (issue #31 item 4): the map tool. The briefing's section
// (FireBriefingSection) is loaded lazily by its path, so it is not re-exported here.
export { FireWhatIfTool, FIRE_WHAT_IF_TITLE } from './FireWhatIfTool'
export { FIRE_URL_KEYS } from './fireUrl'
