import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { Api } from '../http/route-types.js';
import type { MapSettings } from './workspace-routes.js';

/** `web/dist` of the package, whether this runs from `src/` (tsx) or from `dist/src/` (npm start). */
export function builtWorkspaceDir(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i += 1) {
    if (existsSync(join(dir, 'package.json'))) {
      const built = join(dir, 'web', 'dist');
      return existsSync(join(built, 'index.html')) ? built : null;
    }
    dir = dirname(dir);
  }
  return null;
}

/**
 * Serves the built workspace (Vite's output) at `/`. Its pages may load scripts and styles only
 * from this server and images also from the tile server, and may not be framed.
 */
export function workspaceStaticFiles(root: string, map: MapSettings) {
  const policy = contentSecurityPolicy(map.tileUrl);
  const assets = join(root, 'assets') + sep;
  return async (app: Api) => {
    app.addHook('onSend', async (_request, reply) => {
      reply.header('content-security-policy', policy);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('x-frame-options', 'DENY');
      reply.header('referrer-policy', 'same-origin');
    });
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      // Only the files built into `root` become routes; every other path keeps the API's 404.
      wildcard: false,
      index: 'index.html',
      setHeaders: (response, path) => {
        // Vite names assets by their content hash: they never change. The page itself always revalidates.
        response.header('cache-control', path.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  };
}

function contentSecurityPolicy(tileUrl: string | null): string {
  const images = ["'self'", 'data:', 'blob:'];
  if (tileUrl) {
    const url = new URL(tileUrl.replace('{s}', 'x').replace(/\{[a-z]+\}/g, '0'));
    images.push(tileUrl.includes('://{s}.') ? `${url.protocol}//*.${url.host.slice(2)}` : url.origin);
  }
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Leaflet positions its panes with inline style attributes.
    "style-src 'self' 'unsafe-inline'",
    `img-src ${images.join(' ')}`,
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}
