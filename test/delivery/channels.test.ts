import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { freePort } from '../helpers/process.js';
import { subjectOf, textOf } from '../helpers/smtp.js';
import { dialects } from '../helpers/stores.js';
import { deliveryRows, enqueue, message, Receiver, startDeliveryServer, testLog, type DeliveryServer } from './delivery-fixtures.js';
import { until } from '../helpers/wait.js';

interface Mail {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback; addresses starting with `bounce` are refused for good (550). */
async function startSmtp(): Promise<{ server: SMTPServer; port: number; mails: Mail[] }> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('bounce')) return callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.server.address() as AddressInfo).port, mails };
}

/** A gateway on loopback that answers 400 unless the request has the documented format. */
function gateway(): Receiver {
  return new Receiver((request) => {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(request.body) as Record<string, unknown>;
    } catch {
      return { status: 400 };
    }
    const wellFormed =
      request.headers['content-type'] === 'application/json' &&
      Object.keys(body).sort().join() === 'messageID,text,to' &&
      typeof body.to === 'string' &&
      typeof body.text === 'string' &&
      body.text.length > 0 &&
      request.headers['idempotency-key'] === body.messageID;
    return { status: wellFormed ? 202 : 400 };
  });
}

const zoneEntry = {
  eventName: 'Depot arrivals',
  kind: 2,
  body: {
    signalID: 501, signalDate: '2026-05-20T14:30:00+03:00', signalTypeID: 2, subscriberID: 7, subscriberExternalID: 'TRUCK-7',
    zoneID: 3, zoneName: 'Depot North', zoneEventType: 1, eventID: 9, latitude: 55.7558, longitude: 37.6173, velocity: 12.4,
  },
};
const taskChange = {
  eventName: 'Task feed',
  kind: 'taskChanges',
  body: { task: { taskID: 77, title: 'Deliver pallets' }, changedValues: { status: 1 }, signalMetadataInfo: { signalTypeID: 2, entityID: 77, signalDate: '2026-05-20T11:30:00Z' } },
};

for (const dialect of dialects) {
  describe(`e-mail, SMS and messenger channels on ${dialect}`, () => {
    let server: DeliveryServer;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    const sms = gateway();
    const messenger = gateway();
    const messenger2 = gateway();
    before(async () => {
      smtp = await startSmtp();
      await Promise.all([sms.start(), messenger.start(), messenger2.start()]);
      server = await startDeliveryServer(dialect, {
        retryScheduleMs: [50],
        timeoutMs: 2000,
        smtp: { url: `smtp://127.0.0.1:${smtp.port}`, from: 'Lokator <lokator@example.test>' },
        smsGatewayUrl: `${sms.url}/sms/send`,
        messengerGatewayUrl: `${messenger.url}/bot`,
        messenger2GatewayUrl: `${messenger2.url}/v2/messages`,
      });
      await server.services.delivery.worker.start(testLog());
    });
    after(async () => {
      await server.close();
      await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
      await Promise.all([sms.close(), messenger.close(), messenger2.close()]);
    });

    it('sends e-mail through a real SMTP server, with a readable text', async () => {
      const id = server.account.id;
      await enqueue(server.services, server.database, [message(id, 'email', 'dispatch@example.test', zoneEntry), message(id, 'email', 'office@example.test', taskChange)]);
      await until('two mails', () => smtp.mails.length === 2);
      const [task, zone] = [...smtp.mails].sort((a, b) => a.to[0]!.localeCompare(b.to[0]!)).reverse();
      assert.equal(zone!.from, 'lokator@example.test');
      assert.deepEqual(zone!.to, ['dispatch@example.test']);
      assert.equal(subjectOf(zone!.raw), 'Depot arrivals: Entered zone “Depot North”, employee 7 (TRUCK-7)');
      assert.match(textOf(zone!.raw), /\nTime: 20\/05\/2026, 11:30 \(UTC\)\r?\nPosition: 55\.75580, 37\.61730\r?\nSpeed: 12 km\/h/);
      assert.match(zone!.raw, /^From: Lokator <lokator@example\.test>\r?$/m);
      assert.match(zone!.raw, /^Message-ID: <msg_[A-Za-z0-9_-]+@lokator>\r?$/m);
      assert.equal(subjectOf(task!.raw), 'Task feed: Task “Deliver pallets” changed');
      assert.match(textOf(task!.raw), /Changed: status/);
      await until('both recorded', async () => (await deliveryRows(server.database)).every((r) => r.status === 'delivered'));
      const rows = await deliveryRows(server.database);
      assert.deepEqual(rows.map((r) => r.last_status_code), [250, 250], 'the SMTP reply code is kept');
    });

    it('fails an address the mail server refuses for good at once, and retries when the server is down', async () => {
      const down = await startDeliveryServer(dialect, {
        retryScheduleMs: [50, 50],
        timeoutMs: 2000,
        smtp: { host: '127.0.0.1', port: await freePort(), from: 'lokator@example.test' },
      });
      try {
        await down.services.delivery.worker.start(testLog());
        await enqueue(down.services, down.database, [message(down.account.id, 'email', 'someone@example.test', zoneEntry)]);
        await enqueue(server.services, server.database, [message(server.account.id, 'email', 'bounce@example.test', zoneEntry)]);
        await until('both to fail', async () =>
          [...(await deliveryRows(down.database)), ...(await deliveryRows(server.database))].every((r) => r.status !== 'pending'),
        );
        const refused = (await deliveryRows(server.database)).at(-1)!;
        assert.equal(refused.status, 'failed');
        assert.equal(refused.attempt_count, 1, 'no retries for a 5xx recipient');
        assert.equal(refused.last_status_code, 550);
        assert.match(refused.last_error ?? '', /SMTP .*550/);
        const unreachable = (await deliveryRows(down.database))[0]!;
        assert.equal(unreachable.status, 'failed');
        assert.equal(unreachable.attempt_count, 3, 'retried on the schedule');
        assert.match(unreachable.last_error ?? '', /SMTP: connection refused \(ECONNREFUSED\)/);
      } finally {
        await down.close();
      }
    });

    it('sends SMS and both messengers through their gateways in the documented format', async () => {
      const id = server.account.id;
      await enqueue(server.services, server.database, [
        message(id, 'sms', '+79001234567', zoneEntry),
        message(id, 'messenger', '3', zoneEntry),
        message(id, 'messenger2', '44', taskChange),
      ]);
      await until('three gateway calls', () => sms.received.length + messenger.received.length + messenger2.received.length === 3);
      const [text] = sms.at('/sms/send');
      assert.deepEqual(JSON.parse(text!.body), {
        to: '+79001234567',
        text: 'Depot arrivals: Entered zone “Depot North”, employee 7 (TRUCK-7)',
        messageID: text!.headers['idempotency-key'],
      });
      const bot = JSON.parse(messenger.at('/bot')[0]!.body) as { to: string; text: string };
      assert.equal(bot.to, '3');
      assert.equal(
        bot.text,
        'Depot arrivals: Entered zone “Depot North”, employee 7 (TRUCK-7)\nTime: 20/05/2026, 11:30 (UTC)\nPosition: 55.75580, 37.61730\nSpeed: 12 km/h',
      );
      const second = JSON.parse(messenger2.at('/v2/messages')[0]!.body) as { to: string; text: string };
      assert.equal(second.to, '44');
      assert.equal(second.text, 'Task feed: Task “Deliver pallets” changed\nChanged: status\nTime: 20/05/2026, 11:30 (UTC)');
      await until('recorded', async () => (await deliveryRows(server.database)).every((r) => r.status !== 'pending'));
      const rows = (await deliveryRows(server.database)).filter((r) => r.channel !== 'email');
      assert.deepEqual(rows.map((r) => [r.channel, r.status, r.last_status_code]), [
        ['sms', 'delivered', 202],
        ['messenger', 'delivered', 202],
        ['messenger2', 'delivered', 202],
      ]);
    });

    it('fails the deliveries of a channel that is not configured, saying which setting is missing', async () => {
      const bare = await startDeliveryServer(dialect, { retryScheduleMs: [50], timeoutMs: 1000 });
      try {
        await bare.services.delivery.worker.start(testLog());
        const id = bare.account.id;
        await enqueue(bare.services, bare.database, [
          message(id, 'email', 'a@example.test', zoneEntry),
          message(id, 'sms', '+79001234567', zoneEntry),
          message(id, 'messenger', '3', zoneEntry),
          message(id, 'messenger2', '4', zoneEntry),
        ]);
        await until('all four', async () => (await deliveryRows(bare.database)).every((r) => r.status !== 'pending'));
        const rows = await deliveryRows(bare.database);
        assert.deepEqual(rows.map((r) => [r.status, r.attempt_count]), Array(4).fill(['failed', 1]));
        assert.deepEqual(rows.map((r) => r.last_error), [
          'e-mail is not configured: set SMTP_URL (or SMTP_HOST) and SMTP_FROM',
          'this channel is not configured: set SMS_GATEWAY_URL',
          'this channel is not configured: set MESSENGER_GATEWAY_URL',
          'this channel is not configured: set MESSENGER2_GATEWAY_URL',
        ]);
      } finally {
        await bare.close();
      }
    });
  });
}
