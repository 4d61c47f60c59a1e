import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import '@blueprintjs/core/lib/css/blueprint.css'
import { appConfig } from '../generated/config'

function Boot() {
  return <div className="bp6-dark">{appConfig.brand.name}</div>
}

const root = document.getElementById('root')
if (root) createRoot(root).render(<StrictMode><Boot /></StrictMode>)
