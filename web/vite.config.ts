import { defineConfig } from 'vite';

// The coordinator workspace and the employee's app (web/m/), Preact components in TypeScript,
// built to web/dist, which the server serves at `/` and `/m/`. `npm run dev:web` proxies the API
// to a server on :8080.
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1024,
    rollupOptions: { input: { workspace: `${import.meta.dirname}/index.html`, mobile: `${import.meta.dirname}/m/index.html` } },
  },
  server: {
    proxy: { '/v6': 'http://localhost:8080', '/workspace/api': 'http://localhost:8080', '/mobile': 'http://localhost:8080' },
  },
});
