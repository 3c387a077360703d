import { useEffect, useState } from 'preact/hooks';

/**
 * Hash routes (`#/events/new`): the server serves one page, so every view has a link that can be
 * bookmarked and reloaded without server-side routing.
 */
export function useRoute(): string[] {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const changed = () => setHash(location.hash);
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
}

export function navigate(...parts: (string | number)[]): void {
  location.hash = `#/${parts.map((p) => encodeURIComponent(String(p))).join('/')}`;
}
