import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import '@blueprintjs/core/lib/css/blueprint.css'
import './app.css'
import { App } from './App'
import { registerIconLoader } from './icons/registerIconLoader'
import { serverMeta } from '../features/session'

registerIconLoader()
void serverMeta()

const root = document.getElementById('root')
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  )
}
