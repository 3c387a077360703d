import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { ROTATION_OVERLAP_MS, SigningSecrets } from '../../src/delivery/signing-secrets.js';
import { version } from '../../src/version.js';
import { dialects } from '../helpers/stores.js';
import { enqueue, liveDelivery, webhook } from './delivery-fixtures.js';
import { until } from '../helpers/wait.js';

const SECRET = '/v6/api/eventManagement/signingSecret';

function verifies(secret: string, request: { headers: Record<string, unknown>; body: string }): boolean {
  try {
    new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

for (const dialect of dialects) {
  describe(`webhook signing on ${dialect}`, () => {
    const live = liveDelivery(dialect);

    it('posts the JSON body with the headers of CONTRACT §4, signed so that standardwebhooks verifies it', async () => {
      const { server, receiver } = live;
      const body = { signalID: 1, signalTypeID: 11, subscriberID: 7, text: 'Übergabe “ok” ✓' };
      await enqueue(server.services, server.database, [webhook(server.account.id, `${receiver.url}/plain`, body)]);
      await until('the webhook', () => receiver.at('/plain').length === 1);
      const [request] = receiver.at('/plain');
      assert.equal(request!.headers['content-type'], 'application/json');
      assert.equal(request!.headers['user-agent'], `Lokator-Webhooks/${version}`);
      assert.match(String(request!.headers['webhook-id']), /^msg_[A-Za-z0-9_-]{32}$/);
      assert.ok(Math.abs(Number(request!.headers['webhook-timestamp']) - Date.now() / 1000) < 5);
      assert.match(String(request!.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/);
      assert.deepEqual(JSON.parse(request!.body), body);

      const { status, body: shown } = await server.api.get(SECRET);
      assert.equal(status, 200);
      assert.match(shown.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.deepEqual(new Webhook(shown.secret).verify(request!.body, request!.headers as Record<string, string>), body);
      assert.equal(verifies(shown.secret, { ...request!, body: request!.body.replace('7', '8') }), false, 'a changed body does not verify');
      assert.equal((await server.api.get(SECRET)).body.secret, shown.secret, 'the secret stays until rotated');
    });

    it('signs with both secrets for 24 h after a rotation, each verifying on its own', async () => {
      const { server, receiver } = live;
      const old = (await server.api.get(SECRET)).body.secret as string;
      const rotated = await server.api.post(`${SECRET}/rotate`);
      assert.equal(rotated.status, 200, rotated.text);
      const fresh = rotated.body.secret as string;
      assert.notEqual(fresh, old);
      assert.equal((await server.api.get(SECRET)).body.secret, fresh);

      await enqueue(server.services, server.database, [webhook(server.account.id, `${receiver.url}/rotation`, { n: 1 })]);
      await until('the webhook', () => receiver.at('/rotation').length === 1);
      const [request] = receiver.at('/rotation');
      assert.equal(String(request!.headers['webhook-signature']).split(' ').length, 2);
      assert.ok(verifies(old, request!), 'the old secret verifies');
      assert.ok(verifies(fresh, request!), 'the new secret verifies');
      assert.equal(verifies(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, request!), false, 'another secret does not');
    });

    it('stops signing with a rotated-out secret after 24 h', async () => {
      const { server } = live;
      let now = Date.parse('2026-05-20T12:00:00Z');
      const secrets = new SigningSecrets(server.database, () => now);
      const { account } = await server.services.accounts.createAccount({ name: 'Rotation', timeZone: 'UTC' });
      const first = await secrets.current(account.id);
      assert.equal(await secrets.current(account.id), first);
      const second = await secrets.rotate(account.id);
      assert.equal((await secrets.signingKeys(account.id)).length, 2);
      now += ROTATION_OVERLAP_MS - 1;
      assert.equal((await secrets.signingKeys(account.id)).length, 2);
      now += 2;
      const keys = await secrets.signingKeys(account.id);
      assert.equal(keys.length, 1);
      assert.deepEqual(keys[0], Buffer.from(second.slice('whsec_'.length), 'base64'));
    });

    it('keeps every account’s secret its own', async () => {
      const { server } = live;
      const other = await server.services.accounts.createAccount({ name: 'Other', timeZone: 'UTC' });
      const theirs = await server.api.withToken(other.token).get(SECRET);
      assert.notEqual(theirs.body.secret, (await server.api.get(SECRET)).body.secret);
      assert.equal((await server.api.withToken(null).get(SECRET)).status, 401);
    });
  });
}
