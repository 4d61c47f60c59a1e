import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import { iconSubsetPlugin } from './src/app/icons/iconSubsetPlugin'
import { strictBuildLogger } from './src/app/build/strictBuildLogger'
import { screenPreloadPlugin } from './src/app/preload/screenPreloadPlugin'

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:8080'

export default defineConfig(({ command }) => ({
  // a build that warns fails (src/app/build/strictBuildLogger.ts); the dev server only logs
  customLogger: command === 'build' ? strictBuildLogger() : undefined,
  plugins: [react(), iconSubsetPlugin(import.meta.dirname), screenPreloadPlugin()],
  root: 'src/app',
  publicDir: false,
  // the wind-particle worker is an ES module worker
  worker: { format: 'es' },
  build: {
    outDir: '../../dist',
    emptyOutDir: true,
    // Maps are written for decoding stack traces but not referenced from the bundles; the server
    // serves them only with EMBERLINE_SOURCE_MAPS=on (docs/app-shell.md, Security headers).
    sourcemap: 'hidden',
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: {
      '/api': apiTarget,
      '/sdk': apiTarget,
    },
  },
}))
