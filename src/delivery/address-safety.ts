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
  const parsed = parseAsTheSocketDoes(address);
  if (!parsed) return `${address} is not an IP address`;
  if (parsed.kind() === 'ipv4') return rangeReason(address, parsed, false);
  const v6 = parsed as ipaddr.IPv6;
  const parts = v6.parts;
  const zeros = (from: number, to: number) => parts.slice(from, to).every((part) => part === 0);
  const inner = (high: number, low: number) => ipaddr.IPv4.parse(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  // IPv6 forms that carry an IPv4 address the packet may end up at are judged by that address:
  // ::ffff:a.b.c.d is a.b.c.d to the kernel; ::a.b.c.d (IPv4-compatible, deprecated by RFC 4291)
  // may be tunnelled to it; 64:ff9b::a.b.c.d is a NAT64 gateway's way to a.b.c.d, and RFC 6052
  // forbids that prefix for non-global IPv4, so only public ones pass.
  const mapped = v6.isIPv4MappedAddress();
  const compatible = zeros(0, 6) && (parts[6] !== 0 || parts[7]! > 1); // :: and ::1 are judged as themselves
  const nat64 = parts[0] === 0x64 && parts[1] === 0xff9b && zeros(2, 6);
  if (mapped || compatible || nat64) {
    const reason = rangeReason(address, inner(parts[6]!, parts[7]!), true);
    // No public service is reached through ::a.b.c.d: refused whatever it embeds.
    if (reason || !compatible) return reason;
    return `${address} is an IPv4-compatible (deprecated) address`;
  }
  // ISATAP (RFC 5214): the interface identifier 0:5efe:a.b.c.d or 200:5efe:a.b.c.d under any
  // prefix, tunnelled to a.b.c.d by a host with an ISATAP interface.
  if ((parts[4] === 0 || parts[4] === 0x200) && parts[5] === 0x5efe) {
    const reason = rangeReason(address, inner(parts[6]!, parts[7]!), true);
    if (reason) return `${reason} (ISATAP)`;
  }
  // The rest of the tunnelling forms, 6to4 (2002::/16), Teredo (2001::/32), the local NAT64
  // prefix 64:ff9b:1::/48 and IPv4-translated ::ffff:0:a.b.c.d, are not unicast to ipaddr and so
  // refused whole: where they embed an address depends on configuration this side cannot see.
  return rangeReason(address, v6, false);
}

/** Null for a public unicast address; else why not, naming the IPv4 address `address` embeds. */
function rangeReason(address: string, parsed: ipaddr.IPv4 | ipaddr.IPv6, embedded: boolean): string | null {
  const range = parsed.range();
  if (range === 'unicast') return null;
  const kind = `${RANGE_NAMES[range] ?? `a non-public (${range})`} address`;
  return embedded ? `${address} embeds ${parsed.toString()}, ${kind}` : `${address} is ${kind}`;
}

/**
 * The address as the socket will read it. ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d`
 * (mapped), while inet_pton, the resolver and the URL parser read it as `::a.b.c.d`
 * (IPv4-compatible): an IPv6 address is first put in the URL parser's canonical hex form.
 */
function parseAsTheSocketDoes(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const family = isIP(address);
  if (family === 4) return ipaddr.IPv4.isValidFourPartDecimal(address) ? ipaddr.IPv4.parse(address) : null;
  const bracketed = `http://[${address.replace(/%.*$/, '')}]/`;
  if (family !== 6 || !URL.canParse(bracketed)) return null;
  return ipaddr.IPv6.parse(new URL(bracketed).hostname.slice(1, -1));
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
