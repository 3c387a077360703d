/**
 * The employee signs in by opening `/m/#key=<deviceKey>` (the QR code of the workspace). The
 * fragment never reaches a server or its logs; the app reads it, keeps the key on the phone and
 * takes it out of the address bar, so the key is not left in the history or a shared screenshot.
 */

const STORAGE_KEY = 'lokator.deviceKey';

/** The key in the address's fragment, removed from the address bar; null when there is none. */
export function takeKeyFromAddress(): string | null {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const key = fragment.get('key')?.trim();
  if (!key) return null;
  history.replaceState(null, '', location.pathname + location.search);
  return key;
}

export function storedKey(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function storeKey(key: string | null): void {
  try {
    if (key === null) localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, key);
  } catch {
    // Private mode without storage: the key lasts as long as the page.
  }
}
