import { builtDir, serveBuilt } from '../http/built-files.js';
import type { Api } from '../http/route-types.js';
import type { MapSettings } from './workspace-routes.js';

/** `web/dist` of the package (`npm run build:web`); null when not built. */
export function builtWorkspaceDir(): string | null {
  return builtDir('web', 'dist');
}

/**
 * Serves the built workspace (Vite's output) at `/`. Its pages may load scripts and styles only
 * from this server and images also from the tile server, and may not be framed.
 */
export function workspaceStaticFiles(root: string, map: MapSettings) {
  const headers = {
    'content-security-policy': contentSecurityPolicy(map.tileUrl),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin',
  };
  return async (app: Api) => {
    await app.register(serveBuilt({ root, prefix: '/', headers }));
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
