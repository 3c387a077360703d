import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { deviceKeyProblem, devicePasswordProblem, heardBy } from '../../src/employees/device-identity.js';
import { assertRefusedUnchanged, read } from '../helpers/bad-input.js';
import { createEmployee, startServer, SUBSCRIBERS, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

/**
 * An employee's device identity: the key's form follows its protocol (a Wialon IPS id such as
 * 2002, an EGTS object id such as 866), a key bound to one protocol is unknown to the others, and
 * a device password is write-only and asked of the terminal's login (`authenticateDevice`).
 */

describe('device key rules by protocol', () => {
  it('accepts what each protocol sends and refuses the rest', () => {
    const ok: [Parameters<typeof deviceKeyProblem>[0], string][] = [
      [null, 'abcdef'], ['osmand', 'k'.repeat(128)], ['egts', '866'], ['egts', '0'], ['egts', '4294967295'], ['egts', '356307042441013'],
      ['wialonIps', '2002'], ['wialonIps', 'A'], ['teltonika', '356307042441013'],
    ];
    const refused: [Parameters<typeof deviceKeyProblem>[0], string][] = [
      [null, '2002'], ['osmand', 'short'], ['osmand', 'has space'], ['egts', '4294967296'], ['egts', '0866'], ['egts', '-1'], ['egts', '12345678901234'],
      ['wialonIps', 'a;b'], ['wialonIps', '#L#'], ['wialonIps', ''], ['teltonika', '2002'], ['teltonika', '35630704244101x'],
    ];
    for (const [protocol, key] of ok) assert.equal(deviceKeyProblem(protocol, key), null, `${protocol} ${key}`);
    for (const [protocol, key] of refused) assert.ok(deviceKeyProblem(protocol, key), `${protocol} ${key} refused`);
  });

  it('an EGTS key is accepted exactly when it is a 32-bit id in plain decimal or 15 digits', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 40n }), (n) => {
        const text = n.toString();
        assert.equal(deviceKeyProblem('egts', text) === null, n <= 4_294_967_295n || text.length === 15);
      }),
    );
  });

  it('a key without a protocol is heard by every listener; one with a protocol only by its own', () => {
    const protocols = ['osmand', 'egts', 'wialonIps', 'teltonika'] as const;
    for (const listener of protocols) {
      assert.equal(heardBy(null, listener), true);
      for (const registered of protocols) assert.equal(heardBy(registered, listener), registered === listener);
    }
  });

  it('a password only where the login carries one', () => {
    assert.equal(devicePasswordProblem('wialonIps', 's3cret'), null);
    assert.equal(devicePasswordProblem('egts', 's3cret'), null);
    for (const protocol of [null, 'osmand', 'teltonika'] as const) assert.ok(devicePasswordProblem(protocol, 's3cret'));
    assert.ok(devicePasswordProblem('wialonIps', 'NA'), 'NA is Wialon\u2019s "no password"');
    assert.ok(devicePasswordProblem('wialonIps', 'a;b'));
  });
});

for (const dialect of dialects) {
  describe(`device identity of employees on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(async () => server?.close());

    it('registers a short Wialon id, shows the protocol and whether a password is set, and never the password', async () => {
      const created = await server.api.post(SUBSCRIBERS, { name: 'Truck 2002', deviceKey: '2002', deviceProtocol: 'wialonIps', devicePassword: 'p4ss-2002' });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.deviceProtocol, 'wialonIps');
      assert.equal(created.body.hasDevicePassword, true);
      assert.ok(!created.text.includes('p4ss-2002') && !created.text.includes('scrypt'), 'the answer carries no password');
      const id = created.body.subscriberID;
      const got = await server.api.get(`${SUBSCRIBERS}/${id}`);
      assert.equal(got.body.hasDevicePassword, true);
      assert.ok(!got.text.includes('p4ss-2002') && !got.text.includes('scrypt') && !('devicePassword' in got.body));
      const listed = await server.api.get(SUBSCRIBERS);
      assert.ok(!listed.text.includes('scrypt'));

      // Stored as a hash, not in clear.
      const row = await server.database.db.selectFrom('subscribers').select(['device_password', 'document']).where('id', '=', id).executeTakeFirstOrThrow();
      assert.match(row.device_password ?? '', /^scrypt\$/);
      assert.ok(!row.document.includes('p4ss-2002'));

      const employees = server.services.employees;
      assert.equal((await employees.authenticateDevice('wialonIps', '2002', 'p4ss-2002')).outcome, 'accepted');
      assert.equal((await employees.authenticateDevice('wialonIps', '2002', 'wrong')).outcome, 'wrong-password');
      assert.equal((await employees.authenticateDevice('wialonIps', '2002', null)).outcome, 'password-required');
      assert.equal((await employees.authenticateDevice('egts', '2002', 'p4ss-2002')).outcome, 'unknown', 'another protocol does not hear it');
      assert.equal(await employees.findByDeviceKey('2002'), null, 'nor does the OsmAnd port');
      const accepted = await employees.authenticateDevice('wialonIps', '2002', 'p4ss-2002');
      assert.deepEqual(accepted, { outcome: 'accepted', owner: { accountId: server.account.id, subscriberId: id, readingMap: null } });

      // A PUT that does not name the password keeps it; null removes it.
      assert.ok((await server.api.put(`${SUBSCRIBERS}/${id}`, { name: 'Truck 2002' })).status < 300);
      assert.equal((await employees.authenticateDevice('wialonIps', '2002', null)).outcome, 'password-required');
      assert.ok((await server.api.patch(`${SUBSCRIBERS}/${id}`, { devicePassword: null })).status < 300);
      assert.equal((await server.api.get(`${SUBSCRIBERS}/${id}`)).body.hasDevicePassword, false);
      assert.equal((await employees.authenticateDevice('wialonIps', '2002', 'anything')).outcome, 'accepted', 'without a password any login is the key');
    });

    it('keys registered before protocols existed go on working on every listener', async () => {
      const id = await createEmployee(server.api, { name: 'Old phone', deviceKey: 'legacy-key-1' });
      assert.equal((await server.api.get(`${SUBSCRIBERS}/${id}`)).body.deviceProtocol, null);
      const employees = server.services.employees;
      assert.equal((await employees.findByDeviceKey('legacy-key-1'))?.subscriberId, id);
      for (const protocol of ['egts', 'wialonIps', 'teltonika', 'osmand'] as const) {
        assert.equal((await employees.authenticateDevice(protocol, 'legacy-key-1', null)).outcome, 'accepted', protocol);
      }
    });

    it('an EGTS object id and a Teltonika IMEI register; a tracker gets no made-up key', async () => {
      const egts = await server.api.post(SUBSCRIBERS, { name: 'Bus 866', deviceKey: '866', deviceProtocol: 'egts' });
      assert.equal(egts.status, 201, egts.text);
      const imei = await server.api.post(SUBSCRIBERS, { name: 'FMB', deviceKey: '356307042441013', deviceProtocol: 'teltonika' });
      assert.equal(imei.status, 201, imei.text);
      const keyless = await server.api.post(SUBSCRIBERS, { name: 'Later', deviceProtocol: 'teltonika' });
      assert.equal(keyless.body.deviceKey, null);
      assert.equal((await server.services.employees.authenticateDevice('egts', '866', null)).outcome, 'accepted');
      assert.equal((await server.services.employees.authenticateDevice('teltonika', '866', null)).outcome, 'unknown');
    });

    it('refuses a key that does not suit its protocol, a password where the login carries none, and changes nothing', async () => {
      const id = await createEmployee(server.api, { name: 'Checked', deviceKey: 'checked-key-1' });
      const state = () => read(server.api, `${SUBSCRIBERS}/${id}`);
      const cases: [string, Record<string, unknown>, string][] = [
        ['a phone key of 4 characters', { deviceKey: '2002' }, 'deviceKey'],
        ['an EGTS id past 32 bits', { deviceKey: '4294967296', deviceProtocol: 'egts' }, 'deviceKey'],
        ['Teltonika without an IMEI', { deviceProtocol: 'teltonika' }, 'deviceProtocol'],
        ['a password on a phone', { devicePassword: 'secret' }, 'devicePassword'],
        ['a password on a Teltonika', { deviceKey: '356307042441014', deviceProtocol: 'teltonika', devicePassword: 'secret' }, 'devicePassword'],
        ['an unknown protocol', { deviceProtocol: 'gt06' }, 'deviceProtocol'],
      ];
      for (const [label, body, field] of cases) {
        await assertRefusedUnchanged(state, () => server.api.patch(`${SUBSCRIBERS}/${id}`, body), { code: 2, field }, label);
      }
      // A kept password blocks a protocol that carries none.
      const wialon = await createEmployee(server.api, { name: 'W', deviceKey: 'wialon-77', deviceProtocol: 'wialonIps', devicePassword: 'pw' });
      await assertRefusedUnchanged(
        () => read(server.api, `${SUBSCRIBERS}/${wialon}`),
        () => server.api.patch(`${SUBSCRIBERS}/${wialon}`, { deviceProtocol: null }),
        { code: 2, field: 'deviceProtocol' },
        'dropping the protocol under a password',
      );
      const both = await server.api.patch(`${SUBSCRIBERS}/${wialon}`, { deviceProtocol: null, devicePassword: null });
      assert.ok(both.status < 300, both.text);
    });
  });
}
