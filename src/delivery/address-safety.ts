import ipaddr from 'ipaddr.js';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';

/**
 * Address safety of outgoing calls (CONTRACT §4): a customer's URL may only reach the public
 * internet. Every address is checked after DNS resolution, on every new connection, and the
 * connection goes to the very address that was checked (the lookup below is the one the socket
 * uses), so a name that resolves to a public address for a check and to 127.0.0.1 for the
 * connection (DNS rebinding) cannot get through.
 */

const RANGE_NAMES: Record<string, string> = {
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
  linkLocal: 'a link-local (or cloud metadata)',
  loopback: 'a loopback',
  carrierGradeNat: 'a carrier-grade NAT',
  private: 'a private',
  uniqueLocal: 'a private (unique local)',
  reserved: 'a reserved',
  rfc6052: 'a NAT64',
  rfc6145: 'an IPv4-translated',
  '6to4': 'a 6to4',
  teredo: 'a Teredo',
};

/** Why an address must not be called, or null when it is a public unicast address. */
export function unsafeAddressReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  let parsed = ipaddr.parse(address);
  // ::ffff:127.0.0.1 is 127.0.0.1 to the kernel: judge the IPv4 address inside.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === 'unicast') return null;
  return `${address} is ${RANGE_NAMES[range] ?? `a non-public (${range})`} address`;
}

/** A refused address: the delivery fails at once with this message, no retries. */
export class UnsafeAddressError extends Error {
  readonly code = 'LOKATOR_UNSAFE_ADDRESS';

  constructor(message: string) {
    super(message);
    this.name = 'UnsafeAddressError';
  }
}

/** An IP literal in a URL's host (`[::1]` included), or null for a name. */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : null;
}

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

/** The system resolver (what any client on this machine would get, /etc/hosts included). */
export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `net.connect` / undici's `connect` option: resolves the name, refuses the whole
 * name when any of its addresses is unsafe (a mixed answer is a rebinding trick, not a
 * misconfiguration), and hands the checked addresses to the socket.
 */
export function safeLookup(resolver: Resolver = systemResolver, reasonToRefuse: (address: string) => string | null = unsafeAddressReason) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    resolver(hostname).then(
      (all) => {
        const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
        const addresses = family ? all.filter((a) => a.family === family) : all;
        if (addresses.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), options.all ? [] : '', 0);
          return;
        }
        for (const { address } of addresses) {
          const reason = reasonToRefuse(address);
          if (reason) {
            callback(new UnsafeAddressError(`${hostname} resolves to ${reason}; refused (WEBHOOK_ALLOW_PRIVATE is off)`), options.all ? [] : '', 0);
            return;
          }
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, options.all ? [] : '', 0),
    );
  };
}

/**
 * What can be said about a URL before connecting: the scheme, and an IP literal (the socket does
 * not look those up, so `safeLookup` never sees them). Null when the URL may be tried.
 */
export function refuseUrl(url: URL, allowPrivate: boolean): string | null {
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return `${url.protocol.replace(':', '')} is not allowed; only https (plain http only with WEBHOOK_ALLOW_PRIVATE=true)`;
  }
  if (allowPrivate) return null;
  const literal = ipLiteral(url.hostname);
  const reason = literal ? unsafeAddressReason(literal) : null;
  return reason ? `${reason}; refused (WEBHOOK_ALLOW_PRIVATE is off)` : null;
}
