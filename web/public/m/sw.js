/* global self, caches, Response */
// The employee's app's service worker: keeps the app's page and its built files, so the app opens
// on a phone without a network. The page's files are named by their content hash (/assets/…):
// the worker reads their names from /m/ itself when it installs, and keeps each version's files
// apart (`shell-<time>`), dropping the old once the new is in charge. The API is never cached
// here: the app keeps its last task list and its queued changes in IndexedDB itself.

const SHELL = `shell-${Date.now()}`;
const PAGE = '/m/';
const FIXED = ['/m/manifest.webmanifest', '/m/icon.svg', '/m/icon-192.png', '/m/icon-512.png'];

async function cacheShell() {
  const cache = await caches.open(SHELL);
  const page = await fetch(PAGE, { cache: 'no-store' });
  if (!page.ok) throw new Error(`${PAGE} answered ${page.status}`);
  const html = await page.clone().text();
  const built = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]);
  await cache.put(PAGE, page);
  await cache.addAll([...new Set([...built, ...FIXED])]);
}

self.addEventListener('install', (event) => {
  event.waitUntil(cacheShell().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith('shell-') && name !== SHELL).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate' && url.pathname.startsWith('/m/')) {
    // The page from the network when there is one (a new version), else the one kept.
    event.respondWith(
      fetch(request).catch(async () => (await caches.match(PAGE, { cacheName: SHELL })) ?? (await caches.match(PAGE)) ?? Response.error()),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/') || FIXED.includes(url.pathname)) {
    event.respondWith(caches.match(request).then((kept) => kept ?? fetch(request)));
  }
});
