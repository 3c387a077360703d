/** When the page last reloaded itself for a chunk that failed to load (sessionStorage, per tab). */
const RELOADED_AT = 'lokator.reloadedForAssets';
/** The count of web/public/reload-on-failure.js, which the started workspace clears. */
const BOOT_RELOADS = 'lokator.reloads';
/** A chunk that fails again this soon after a reload is not a stale release: the page shows the failure instead. */
const ONCE_PER_MS = 60_000;

/**
 * A page that was open across a restart or an upgrade asks for chunks by the names of the release
 * it started with; a new release has others, and the old ones are gone ("Unable to preload CSS",
 * "Failed to fetch dynamically imported module"). Vite then fires `vite:preloadError`: the page
 * loads itself again, once, and gets the new release's names. A failure again within a minute (the
 * server is down) reaches the page's error boundary, which shows it with a Retry button.
 */
export function reloadForNewAssets(): void {
  const flags = window as Window & { lokatorStarted?: boolean };
  flags.lokatorStarted = true;
  const storage = sessionStorageOrNull();
  storage?.removeItem(BOOT_RELOADS);
  addEventListener('vite:preloadError', (event) => {
    const last = Number(storage?.getItem(RELOADED_AT) ?? 0);
    if (!storage || Date.now() - last < ONCE_PER_MS) return;
    storage.setItem(RELOADED_AT, String(Date.now()));
    event.preventDefault();
    location.reload();
  });
}

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}
