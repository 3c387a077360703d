import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** The built documentation site of the package (`npm run build:docs`), from `src/` (tsx) or `dist/src/` (npm start). */
export function builtDocsDir(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i += 1) {
    if (existsSync(join(dir, 'package.json'))) {
      const built = join(dir, 'docs', '.vitepress', 'dist');
      return existsSync(join(built, 'index.html')) ? built : null;
    }
    dir = dirname(dir);
  }
  return null;
}

/**
 * Serves the documentation site at `/docs/`, when it was built; the API reference stays at
 * `/v6/docs`. The site is static pages of this repository, with no data of any account.
 */
export function docsSite(root: string | null = builtDocsDir()) {
  return async (app: FastifyInstance) => {
    if (!root) return;
    const assets = join(root, 'assets') + sep;
    app.addHook('onSend', async (_request, reply) => {
      // VitePress's pages carry small inline scripts (the colour scheme, the page map).
      reply.header('content-security-policy', "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'self'; form-action 'none'");
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'same-origin');
    });
    await app.register(fastifyStatic, {
      root,
      prefix: '/docs/',
      // Only the built files become routes; every other path under /docs/ keeps the API's 404.
      wildcard: false,
      index: 'index.html',
      redirect: true,
      decorateReply: false,
      setHeaders: (response, path) => {
        // VitePress names assets by their content hash: they never change. Pages always revalidate.
        response.header('cache-control', path.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  };
}
