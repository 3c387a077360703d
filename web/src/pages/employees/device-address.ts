/**
 * Where phones and trackers reach this server: PUBLIC_URL's host when the server has one, else
 * the host the workspace was opened at, which may be one no device can reach.
 */
export interface DeviceHost {
  /** A host name or address as a URL writes it (an IPv6 address in brackets). */
  host: string;
  /** Whether it comes from PUBLIC_URL (else from the address bar). */
  fromPublicUrl: boolean;
}

export function deviceHost(publicUrl: string | null, pageHost: string): DeviceHost {
  if (publicUrl && URL.canParse(publicUrl)) return { host: new URL(publicUrl).hostname, fromPublicUrl: true };
  return { host: pageHost, fromPublicUrl: false };
}

/** `host:port` as a tracker's settings take it. */
export function hostPort(host: string, port: number): string {
  return `${host}:${port}`;
}

const octets = (host: string): number[] | null => {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const numbers = parts.map(Number);
  return numbers.every((n) => n <= 255) ? numbers : null;
};

/**
 * Whether devices outside this machine or network cannot reach `host`: a loopback name or
 * address (localhost, 127.0.0.0/8, ::1) or a private one (10/8, 172.16/12, 192.168/16).
 */
export function isUnreachableHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (name === 'localhost' || name.endsWith('.localhost') || name === '::1' || name === '0:0:0:0:0:0:0:1') return true;
  const ip = octets(name);
  if (!ip) return false;
  const [a, b] = ip as [number, number, number, number];
  return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}
