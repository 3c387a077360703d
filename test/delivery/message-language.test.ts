// E-mail, SMS and messenger texts in the account's language and zone: a Russian account and an
// English one, on the same server, each make a task rule that mails, texts and messages; the
// courier completes a task; a real SMTP server and the gateways on loopback receive the texts.
// The webhook of the same change is the interface's JSON, the same in both languages.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, SUBSCRIBERS } from '../helpers/server.js';
import { startSmtp, subjectOf, textOf } from '../helpers/smtp.js';
import { dialects } from '../helpers/stores.js';
import { createRule, setStatus, TASKS } from '../tasks/task-fixtures.js';
import { enqueue, message, Receiver, startDeliveryServer, testLog, type DeliveryServer } from './delivery-fixtures.js';
import { until } from '../helpers/wait.js';

const ACCOUNT = '/v6/api/accountManagement/account';
const MOSCOW_TIME_RU = /\d\d\.\d\d\.\d{4}, \d\d:\d\d \(Москва\)/;
const MOSCOW_TIME_EN = /\d\d\/\d\d\/\d{4}, \d\d:\d\d \(Moscow Time\)/;

for (const dialect of dialects) {
  describe(`message texts in the account's language on ${dialect}`, () => {
    let server: DeliveryServer;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    const sms = new Receiver(() => ({ status: 202 }));
    const messenger = new Receiver(() => ({ status: 202 }));
    const hooks = new Receiver(() => ({ status: 200 }));
    const accounts: Record<'ru' | 'en', { api: Client; id: number }> = {} as never;

    before(async () => {
      smtp = await startSmtp();
      await Promise.all([sms.start(), messenger.start(), hooks.start()]);
      server = await startDeliveryServer(dialect, {
        retryScheduleMs: [50],
        timeoutMs: 5000,
        smtp: { url: `smtp://127.0.0.1:${smtp.port}`, from: 'Lokator <lokator@example.test>' },
        smsGatewayUrl: `${sms.url}/sms`,
        messengerGatewayUrl: `${messenger.url}/bot`,
      });
      const russian = await server.services.accounts.createAccount({ name: 'Диспетчерская', timeZone: 'UTC' });
      accounts.ru = { api: new Client(server.api.baseUrl, russian.token), id: russian.account.id };
      accounts.en = { api: server.api, id: server.account.id };
      // SMS is the operator's option per account (its admin route; here its service).
      for (const { id } of Object.values(accounts)) await server.services.accounts.change(id, { smsEnabled: true });
      // Both in Moscow time, so the same instant reads the same clock time in either language.
      assert.equal((await accounts.ru.api.patch(ACCOUNT, { locale: 'ru', timeZone: 'Europe/Moscow' })).status, 204);
      assert.equal((await accounts.en.api.patch(ACCOUNT, { locale: 'en', timeZone: 'Europe/Moscow' })).status, 204);
      await server.services.delivery.worker.start(testLog());
    });
    after(async () => {
      await server.close();
      await smtp.close();
      await Promise.all([sms.close(), messenger.close(), hooks.close()]);
    });

    /** A rule on every task change that mails, texts, messages and calls a webhook; then a task the courier completes. */
    async function completeTask(locale: 'ru' | 'en', title: string): Promise<void> {
      const { api } = accounts[locale];
      await createRule(api, {
        name: locale === 'ru' ? 'Задачи' : 'Tasks',
        kind: 'taskChanges',
        sendToApi: true,
        apiUrl: `${hooks.url}/${locale}`,
        emails: [`${locale}@example.test`],
        smsPhones: [locale === 'ru' ? '+79001110000' : '+447700900000'],
        messengerUserIDs: [locale === 'ru' ? 101 : 202],
      });
      const courier = await api.post(SUBSCRIBERS, { name: locale === 'ru' ? 'Курьер' : 'Courier', deviceKey: `${locale}-courier-phone` });
      assert.equal(courier.status, 201, courier.text);
      const task = await api.post(TASKS, { title, startDate: '2026-06-01T10:00:00', subscriberID: courier.body.subscriberID });
      assert.equal(task.status, 201, task.text);
      assert.equal((await setStatus(api, `${locale}-courier-phone`, task.body.taskID, { status: 3 })).status, 200);
    }

    const mailTo = (address: string) => smtp.mails.filter((m) => m.to.includes(address));
    const textsTo = (receiver: Receiver, to: string) => receiver.received.map((r) => JSON.parse(r.body) as { to: string; text: string }).filter((b) => b.to === to).map((b) => b.text);

    it('a Russian account reads its e-mail, SMS and messenger texts in Russian, in Moscow time', async () => {
      await completeTask('ru', 'Доставка на склад');
      await until('both e-mails, texts and messages', () => mailTo('ru@example.test').length === 2 && textsTo(sms, '+79001110000').length === 2 && textsTo(messenger, '101').length === 2);

      const done = mailTo('ru@example.test').find((m) => subjectOf(m.raw).includes('выполнена'));
      assert.ok(done, 'the completion is mailed');
      assert.equal(subjectOf(done.raw), 'Задачи: Задача «Доставка на склад» выполнена');
      const body = textOf(done.raw).split(/\r?\n/);
      assert.equal(body[0], 'Задачи: Задача «Доставка на склад» выполнена');
      assert.equal(body[1], 'Изменено: статус, время смены статуса');
      assert.match(body[2]!, new RegExp(`^Время: ${MOSCOW_TIME_RU.source}$`));
      assert.deepEqual(mailTo('ru@example.test').map((m) => subjectOf(m.raw)).sort(), ['Задачи: Задача «Доставка на склад» выполнена', 'Задачи: Новая задача «Доставка на склад»']);

      assert.deepEqual(textsTo(sms, '+79001110000'), ['Задачи: Новая задача «Доставка на склад»', 'Задачи: Задача «Доставка на склад» выполнена'], 'an SMS is the first line');
      const [, completed] = textsTo(messenger, '101');
      assert.match(completed!, new RegExp(`^Задачи: Задача «Доставка на склад» выполнена\\nИзменено: статус, время смены статуса\\nВремя: ${MOSCOW_TIME_RU.source}$`));
    });

    it('an English account reads the same change in English, with the zone named', async () => {
      await completeTask('en', 'Pallets to the depot');
      await until('both e-mails and texts', () => mailTo('en@example.test').length === 2 && textsTo(sms, '+447700900000').length === 2 && textsTo(messenger, '202').length === 2);
      const done = mailTo('en@example.test').find((m) => subjectOf(m.raw).includes('completed'));
      assert.ok(done);
      assert.equal(subjectOf(done.raw), 'Tasks: Task “Pallets to the depot” completed');
      assert.match(textOf(done.raw), new RegExp(`\\nChanged: status, status time\\r?\\nTime: ${MOSCOW_TIME_EN.source}`));
      assert.deepEqual(textsTo(sms, '+447700900000'), ['Tasks: Task “Pallets to the depot” added', 'Tasks: Task “Pallets to the depot” completed']);
      assert.doesNotMatch(textsTo(messenger, '202').join('\n'), /[А-Яа-яЁё]/, 'no Russian in the English texts');
    });

    it('webhooks carry the interface’s JSON whatever the language', async () => {
      await until('four webhook calls', () => hooks.at('/ru').length === 2 && hooks.at('/en').length === 2);
      const elements = (path: string) => hooks.at(path).map((r) => (JSON.parse(r.body) as any[])[0]);
      for (const path of ['/ru', '/en']) {
        const [added, completed] = elements(path);
        assert.deepEqual(Object.keys(completed.signalMetadataInfo).slice(0, 3), ['signalID', 'signalDate', 'signalTypeID']);
        assert.match(completed.signalMetadataInfo.signalDate, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/, 'dates in UTC as the interface says');
        assert.equal(completed.task.status, 3);
        assert.equal(added.signalMetadataInfo.signalTypeID, 1);
        assert.deepEqual(Object.keys(completed).sort(), ['changedValues', 'signalMetadataInfo', 'task']);
      }
    });

    it('fired signals in Russian: zone entry and speeding, numbers as Russian writes them', async () => {
      const signal = (body: Record<string, unknown>) => ({
        eventName: 'Склад',
        kind: 'signals',
        body: { signalID: 1, signalDate: '2026-05-20T14:30:00+03:00', subscriberID: 7, subscriberExternalID: 'ГАЗ-7', latitude: 55.7558, longitude: 37.6173, ...body },
      });
      await enqueue(server.services, server.database, [
        message(accounts.ru.id, 'sms', '+79002220000', signal({ signalTypeID: 2, zoneID: 3, zoneName: 'Склад', zoneEventType: 1, velocity: 12.4 })),
        message(accounts.ru.id, 'sms', '+79002220000', signal({ signalTypeID: 1, velocity: 112.4 })),
        message(accounts.ru.id, 'messenger', '303', signal({ signalTypeID: 10, sensorID: 2, sensorValue: 87.25, velocity: 0 })),
      ]);
      await until('two texts and a message', () => textsTo(sms, '+79002220000').length === 2 && textsTo(messenger, '303').length === 1);
      assert.deepEqual(textsTo(sms, '+79002220000'), ['Склад: Въезд в геозону «Склад», сотрудник 7 (ГАЗ-7)', 'Склад: Превышение скорости: 112 км/ч, сотрудник 7 (ГАЗ-7)']);
      assert.equal(
        textsTo(messenger, '303')[0],
        'Склад: Датчик 2 вне допустимых значений: 87,25, сотрудник 7 (ГАЗ-7)\nВремя: 20.05.2026, 14:30 (Москва)\nКоординаты: 55.75580, 37.61730\nСкорость: 0 км/ч',
      );
    });
  });
}
