import { defineConfig } from 'vite';

// The coordinator workspace: Preact components in TypeScript, built to web/dist, which the
// server serves at `/`. `npm run dev:web` proxies the API to a server on :8080.
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1024 },
  server: {
    proxy: { '/v6': 'http://localhost:8080', '/workspace/api': 'http://localhost:8080' },
  },
});
