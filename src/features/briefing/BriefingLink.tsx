import { AnchorButton } from '@blueprintjs/core'
import { useNavigate } from 'react-router'
import { briefingPath } from './briefingPath'

/** "Briefing": opens /Briefing with the map view of the page it is on (its share-link query). */
export function BriefingLink() {
  const navigate = useNavigate()
  return (
    <AnchorButton
      className="el-briefing-link"
      variant="minimal"
      icon="print"
      text="Briefing"
      href={briefingPath('')}
      onClick={(event) => {
        event.preventDefault()
        void navigate(briefingPath(window.location.search))
      }}
    />
  )
}
