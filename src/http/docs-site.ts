import type { FastifyInstance } from 'fastify';
import { builtDir, serveBuilt } from './built-files.js';

/** The built documentation site of the package (`npm run build:docs`); null when not built. */
export function builtDocsDir(): string | null {
  return builtDir('docs', '.vitepress', 'dist');
}

// VitePress's pages carry small inline scripts (the colour scheme, the page map).
const HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'self'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

/**
 * Serves the documentation site at `/docs/`, when it was built; the API reference stays at
 * `/v6/docs`. The site is static pages of this repository, with no data of any account.
 */
export function docsSite(root: string | null = builtDocsDir()) {
  return async (app: FastifyInstance) => {
    if (root) await app.register(serveBuilt({ root, prefix: '/docs/', headers: HEADERS, redirect: true }));
  };
}
