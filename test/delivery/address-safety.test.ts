import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { refuseUrl, safeLookup, unsafeAddressReason, type Resolver } from '../../src/delivery/address-safety.js';
import { dialects } from '../helpers/stores.js';
import { deliveryRows, enqueue, Receiver, startDeliveryServer, testLog, webhook, type DeliveryServer } from './delivery-fixtures.js';
import { until } from '../helpers/wait.js';

// Only loopback is ever connected to; every other address here must be refused before a socket opens.
const UNSAFE = [
  '127.0.0.1', '127.1.2.3', '10.0.0.1', '10.255.255.255', '172.16.0.1', '172.31.255.254', '192.168.0.1', '192.168.255.255',
  '169.254.169.254', '169.254.0.1', '100.64.0.1', '100.100.100.200', '0.0.0.0', '224.0.0.1', '255.255.255.255', '240.0.0.1',
  '::1', '::', 'fc00::1', 'fd00:ec2::254', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:169.254.169.254',
  '64:ff9b::7f00:1', '2002:7f00:1::1',
  // IPv6 that embeds IPv4: IPv4-compatible ::/96 (whatever it holds), NAT64 with a non-public inside,
  // the local NAT64 prefix, 6to4, Teredo, ISATAP interface ids holding a non-public address, IPv4-translated.
  '::127.0.0.1', '::7f00:1', '::a9fe:a9fe', '::10.0.0.1', '::8.8.8.8', '::808:808', '::2', '64:ff9b::a9fe:a9fe', '64:ff9b::10.1.2.3',
  '64:ff9b:1::808:808', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2a00:1450:4001:80b::5efe:7f00:1',
  '2a00:1450:4001:80b:200:5efe:a9fe:a9fe', '::ffff:0:7f00:1',
];
const PUBLIC = [
  '8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '100.128.0.1', '2001:4860:4860::8888', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8',
  '64:ff9b::8.8.8.8', '2a00:1450:4001:80b::5efe:808:808',
];

const answers = (...addresses: string[]): LookupAddress[] => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('address safety', () => {
  it('refuses loopback, private, link-local, CGNAT, multicast, unspecified and metadata addresses, IPv4 and IPv6', () => {
    for (const address of UNSAFE) assert.ok(unsafeAddressReason(address), `${address} is refused`);
    for (const address of PUBLIC) assert.equal(unsafeAddressReason(address), null, `${address} is public`);
    assert.match(unsafeAddressReason('::ffff:127.0.0.1')!, /loopback/);
    assert.match(unsafeAddressReason('169.254.169.254')!, /metadata/);
  });

  it('judges an IPv6 address that embeds IPv4 by the IPv4 inside (oracle: the IPv4 judgement); ::a.b.c.d always refused', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    const ipv4 = fc.tuple(octet, octet, octet, octet).map((o) => o.join('.'));
    // Mostly the interesting ranges, so both answers come up often.
    const interesting = fc.constantFrom('127.0.0.1', '10.1.2.3', '169.254.169.254', '100.64.0.9', '192.168.7.7', '0.0.0.0', '8.8.4.4', '93.184.216.34');
    const hex = (v4: string) => {
      const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
      return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
    };
    fc.assert(
      fc.property(fc.oneof(ipv4, interesting), (v4) => {
        const publicV4 = unsafeAddressReason(v4) === null;
        for (const form of [`::ffff:${v4}`, `::ffff:${hex(v4)}`, `64:ff9b::${v4}`, `64:ff9b::${hex(v4)}`, `2a00:1450:4001:80b:0:5efe:${hex(v4)}`]) {
          assert.equal(unsafeAddressReason(form) === null, publicV4, `${form} judged as ${v4}`);
        }
        for (const form of [`::${v4}`, `::${hex(v4)}`]) {
          if (form !== '::0:0' && form !== '::0:1') assert.ok(unsafeAddressReason(form), `${form} is refused`);
        }
      }),
      { seed: 4, numRuns: 300 },
    );
  });

  it('allows https only, unless WEBHOOK_ALLOW_PRIVATE', () => {
    assert.match(refuseUrl(new URL('http://hooks.example.com/x'), false)!, /only https/);
    assert.match(refuseUrl(new URL('ftp://hooks.example.com/x'), true)!, /only https/);
    assert.equal(refuseUrl(new URL('https://hooks.example.com/x'), false), null);
    assert.equal(refuseUrl(new URL('http://127.0.0.1:8080/x'), true), null);
    assert.match(refuseUrl(new URL('https://[::ffff:127.0.0.1]/x'), false)!, /loopback/);
    assert.match(refuseUrl(new URL('https://[::1]/x'), false)!, /loopback/);
    // The URL parser writes [::127.0.0.1] as [::7f00:1]: refused for the address inside.
    assert.match(refuseUrl(new URL('https://[::127.0.0.1]/x'), false)!, /embeds 127\.0\.0\.1, a loopback address/);
    assert.match(refuseUrl(new URL('https://[::a9fe:a9fe]/x'), false)!, /embeds 169\.254\.169\.254, a link-local \(or cloud metadata\)/);
  });

  it('checks every resolution, and refuses a name when any of its addresses is unsafe', async () => {
    const script = [answers('8.8.8.8'), answers('127.0.0.1'), answers('8.8.4.4', '10.0.0.7')];
    const lookup = safeLookup(async () => script.shift()!);
    const call = () =>
      new Promise<{ error: Error | null; address: unknown }>((resolve) => lookup('flip.test', { all: true }, (error, address) => resolve({ error, address })));
    assert.deepEqual(await call(), { error: null, address: answers('8.8.8.8') });
    const second = await call();
    assert.match(second.error!.message, /flip\.test resolves to 127\.0\.0\.1 is a loopback address/);
    assert.match((await call()).error!.message, /10\.0\.0\.7 is a private address/);
  });

  it('refuses a name the system resolver maps to loopback (localhost)', async () => {
    const error = await new Promise<Error | null>((resolve) => safeLookup()('localhost', { all: true }, (e) => resolve(e)));
    assert.match(error!.message, /^localhost resolves to (127\.0\.0\.1|::1) is a loopback address/);
  });

  it('connects to the very address it checked (the lookup is the socket’s), so rebinding between check and connect cannot happen', async () => {
    const receiver = await new Receiver().start();
    const port = new URL(receiver.url).port;
    // A name no DNS knows: the request reaches the receiver only through the checked answer.
    const script = [answers('127.0.0.1'), answers('127.0.0.2')];
    const seen: string[] = [];
    const agent = new Agent({
      connect: { lookup: safeLookup(async () => script.shift()!, (address) => (seen.push(address), address === '127.0.0.1' ? null : `${address} is not the checked one`)) },
    });
    try {
      const first = await request(`http://pinned.test:${port}/one`, { dispatcher: agent, method: 'POST', body: '{}' });
      await first.body.dump();
      assert.equal(first.statusCode, 200);
      assert.equal(receiver.at('/one').length, 1);
      await agent.close();
      const again = new Agent({ connect: { lookup: safeLookup(async () => script.shift()!, (address) => (seen.push(address), address === '127.0.0.1' ? null : 'rebound')) } });
      await assert.rejects(request(`http://pinned.test:${port}/two`, { dispatcher: again, method: 'POST', body: '{}' }), /rebound/);
      await again.close();
      assert.deepEqual(seen, ['127.0.0.1', '127.0.0.2'], 'each new connection was checked');
      assert.equal(receiver.at('/two').length, 0);
    } finally {
      await receiver.close();
    }
  });
});

for (const dialect of dialects) {
  describe(`address safety of deliveries on ${dialect}`, () => {
    let strict: DeliveryServer;
    let tcp: Server;
    let connections = 0;
    let port = 0;
    // Test DNS: names that point inside; anything else is unknown.
    const resolver: Resolver = async (name) => {
      const table: Record<string, string[]> = { 'rebind.test': ['127.0.0.1'], 'metadata.test': ['169.254.169.254'], 'intranet.test': ['192.168.10.10'], 'six.test': ['::1'], 'v4compat.test': ['::7f00:1'] };
      if (table[name]) return answers(...table[name]);
      if (name === 'localhost') return answers('127.0.0.1', '::1');
      throw Object.assign(new Error(`unknown name ${name}`), { code: 'ENOTFOUND' });
    };

    before(async () => {
      tcp = createServer((socket) => {
        connections++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
      port = (tcp.address() as AddressInfo).port;
      strict = await startDeliveryServer(dialect, { retryScheduleMs: [50, 100], timeoutMs: 1000, resolver }, { allowPrivate: false });
      await strict.services.delivery.worker.start(testLog());
    });
    after(async () => {
      await strict.close();
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    });

    it('refuses them at once, each delivery failed with the reason, and opens no connection', async () => {
      const cases: [string, RegExp][] = [
        [`https://127.0.0.1:${port}/hook`, /127\.0\.0\.1 is a loopback address/],
        ['https://10.20.30.40/hook', /private/],
        ['https://172.16.0.1/hook', /private/],
        ['https://192.168.1.1/hook', /private/],
        ['https://169.254.169.254/latest/meta-data/', /link-local \(or cloud metadata\)/],
        ['https://100.64.1.1/hook', /carrier-grade NAT/],
        [`https://[::1]:${port}/hook`, /loopback/],
        ['https://[fc00::1]/hook', /unique local/],
        ['https://[fd12:3456::1]/hook', /unique local/],
        ['https://[fe80::1]/hook', /link-local/],
        [`https://[::ffff:127.0.0.1]:${port}/hook`, /loopback/],
        [`https://[::127.0.0.1]:${port}/hook`, /embeds 127\.0\.0\.1, a loopback address/],
        ['https://[::a9fe:a9fe]/latest/meta-data/', /embeds 169\.254\.169\.254, a link-local \(or cloud metadata\)/],
        ['https://[::8.8.8.8]/hook', /IPv4-compatible/],
        [`https://[64:ff9b::127.0.0.1]:${port}/hook`, /embeds 127\.0\.0\.1/],
        ['https://[2002:a9fe:a9fe::1]/hook', /6to4/],
        ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook', /Teredo/],
        ['https://[2a00:1450:4001:80b::5efe:a9fe:a9fe]/hook', /embeds 169\.254\.169\.254.*ISATAP/],
        ['https://v4compat.test/hook', /v4compat\.test resolves to ::7f00:1 embeds 127\.0\.0\.1/],
        [`https://0.0.0.0:${port}/hook`, /unspecified/],
        [`https://localhost:${port}/hook`, /localhost resolves to 127\.0\.0\.1 is a loopback address/],
        [`https://rebind.test:${port}/hook`, /rebind\.test resolves to 127\.0\.0\.1 is a loopback address/],
        [`https://six.test:${port}/hook`, /six\.test resolves to ::1 is a loopback address/],
        ['https://metadata.test/computeMetadata/v1/', /metadata/],
        ['https://intranet.test/hook', /intranet\.test resolves to 192\.168\.10\.10 is a private address/],
        [`http://127.0.0.1:${port}/hook`, /http is not allowed; only https/],
      ];
      await enqueue(strict.services, strict.database, cases.map(([url], i) => webhook(strict.account.id, url, { i })));
      await until('every refusal', async () => (await deliveryRows(strict.database)).every((row) => row.status !== 'pending'));
      const rows = await deliveryRows(strict.database);
      cases.forEach(([url, reason], i) => {
        const row = rows[i]!;
        assert.equal(row.target, url);
        assert.equal(row.status, 'failed', `${url} fails`);
        assert.equal(row.attempt_count, 1, `${url}: one attempt, no retries`);
        assert.match(row.last_error ?? '', reason, `${url}: ${row.last_error}`);
      });
      assert.equal(connections, 0, 'no connection was opened');
    });

    it('lets them through with WEBHOOK_ALLOW_PRIVATE=true (loopback only here)', async () => {
      const receiver = await new Receiver().start();
      const open = await startDeliveryServer(dialect, { retryScheduleMs: [50], timeoutMs: 1000, resolver });
      try {
        await open.services.delivery.worker.start(testLog());
        const port = new URL(receiver.url).port;
        const urls = [`http://127.0.0.1:${port}/literal`, `http://rebind.test:${port}/name`, `https://127.0.0.1:${port}/tls`];
        await enqueue(open.services, open.database, urls.map((url) => webhook(open.account.id, url, {})));
        await until('all three', async () => (await deliveryRows(open.database)).every((row) => row.status !== 'pending'));
        assert.deepEqual((await deliveryRows(open.database)).map((r) => r.status), ['delivered', 'delivered', 'failed']);
        // https to a plain-http receiver fails in the TLS handshake: retried, then failed; never a refusal.
        const tls = (await deliveryRows(open.database))[2]!;
        assert.doesNotMatch(tls.last_error ?? '', /refused \(WEBHOOK_ALLOW_PRIVATE/);
        assert.equal(tls.attempt_count, 2);
        assert.equal(receiver.at('/literal').length, 1);
        assert.equal(receiver.at('/name').length, 1, 'a name resolving to loopback is fine when allowed');
      } finally {
        await open.close();
        await receiver.close();
      }
    });
  });
}
