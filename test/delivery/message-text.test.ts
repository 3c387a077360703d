// The text of every kind of message in both languages, made directly: no kind falls back to a
// number or leaks `undefined`, the Russian one has no English words besides the data, and an
// element without its optional fields still reads.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messageText as deliveryText, type MessageReader } from '../../src/delivery/message-text.js';
import { SIGNAL_TYPES } from '../../src/signals/kinds/rule-kinds.js';
import { eventLines } from '../../src/signals/signal-message.js';

const MOSCOW_RU = { locale: 'ru', timeZone: 'Europe/Moscow' } as const;
const MOSCOW_EN = { locale: 'en', timeZone: 'Europe/Moscow' } as const;
/** A message's text as the server writes it: the delivery channels' frame, the kinds' lines. */
const messageText = (payload: string, reader: MessageReader) => deliveryText(payload, reader, eventLines);

function signal(type: number): string {
  const own: Record<number, Record<string, unknown>> = {
    2: { zoneID: 3, zoneName: 'Склад', zoneEventType: 2 },
    10: { sensorID: 4, sensorValue: 1234.5 },
    24: { taskID: 9, taskClientName: 'ООО Ромашка', taskClientPhone: '+79001234567', estimatedArrivalDate: '2026-05-20T15:10:00+03:00' },
  };
  const body = { signalID: 1, signalDate: '2026-05-20T11:30:00Z', signalTypeID: type, subscriberID: 7, subscriberExternalID: null, ...own[type], latitude: 55.75, longitude: 37.61, velocity: 61.6 };
  return JSON.stringify({ eventName: 'Правило', kind: 'signals', body });
}

/** Latin words in a Russian text once the data (the rule's name is Cyrillic here) is taken out. */
const latinWords = (text: string) => text.match(/[A-Za-z]{2,}/g) ?? [];

describe('message texts', () => {
  it('every signal reads in both languages, in the account’s zone', () => {
    for (const type of SIGNAL_TYPES) {
      const russian = messageText(signal(type), MOSCOW_RU);
      const english = messageText(signal(type), MOSCOW_EN);
      for (const { subject, text } of [russian, english]) {
        assert.ok(text.startsWith(subject), 'the first line is the subject');
        assert.doesNotMatch(text, /undefined|null|NaN|\[object/, `${type}: ${text}`);
        assert.doesNotMatch(subject, /Сигнал \d|Signal \d/, `type ${type} has its own name`);
      }
      assert.deepEqual(latinWords(russian.text), [], `${type}: ${russian.text}`);
      assert.match(russian.text, /Время: 20\.05\.2026, 14:30 \(Москва\)/);
      assert.match(english.text, /Time: 20\/05\/2026, 14:30 \(Moscow Time\)/);
    }
    assert.equal(messageText(signal(2), MOSCOW_RU).subject, 'Правило: Выезд из геозоны «Склад», сотрудник 7');
    assert.equal(messageText(signal(1), MOSCOW_RU).subject, 'Правило: Превышение скорости: 62 км/ч, сотрудник 7');
    assert.match(messageText(signal(10), MOSCOW_RU).subject, /Датчик 4 вне допустимых значений: 1\u00a0234,5/);
    assert.match(messageText(signal(24), MOSCOW_RU).text, /Задача 9 \(ООО Ромашка, \+79001234567\)\nПрибытие ожидается: 20\.05\.2026, 15:10 \(Москва\)/);
  });

  it('task and employee changes: added, a status reached, changed, deleted; by name, or by number when deleted', () => {
    const change = (kind: string, key: string, entity: object | undefined, signalTypeID: number, changedValues?: object) =>
      JSON.stringify({ eventName: 'Лента', kind, body: { ...(entity ? { [key]: entity } : {}), ...(changedValues ? { changedValues } : {}), signalMetadataInfo: { signalTypeID, entityID: 5, signalDate: '2026-05-20T11:30:00Z' } } });
    const task = { taskID: 5, title: 'Доставка', status: 4 };
    const subjects = [
      change('taskChanges', 'task', task, 1),
      change('taskChanges', 'task', task, 2, { status: 1 }),
      change('taskChanges', 'task', task, 2, { address: 'Тверская, 1' }),
      change('taskChanges', 'task', undefined, 3),
      change('employeeChanges', 'subscriber', { subscriberID: 5, name: 'Иван' }, 1),
      change('employeeChanges', 'subscriber', { subscriberID: 5, name: 'Иван' }, 2, { phone: '' }),
      change('employeeChanges', 'subscriber', undefined, 3),
    ].map((payload) => [messageText(payload, MOSCOW_RU).subject, messageText(payload, MOSCOW_EN).subject]);
    assert.deepEqual(subjects, [
      ['Лента: Новая задача «Доставка»', 'Лента: Task “Доставка” added'],
      ['Лента: Задача «Доставка» взята в работу', 'Лента: Task “Доставка” started'],
      ['Лента: Задача «Доставка» изменена', 'Лента: Task “Доставка” changed'],
      ['Лента: Задача №5 удалена', 'Лента: Task #5 deleted'],
      ['Лента: Добавлен сотрудник «Иван»', 'Лента: Employee “Иван” added'],
      ['Лента: Изменены данные сотрудника «Иван»', 'Лента: Employee “Иван” changed'],
      ['Лента: Удалён сотрудник №5', 'Лента: Employee #5 deleted'],
    ]);
  });

  it('a message its writer composed (a report e-mail) and a payload that is not JSON pass as they are', () => {
    assert.deepEqual(messageText(JSON.stringify({ subject: 'Тема', text: 'Текст', attachments: [] }), MOSCOW_EN), { subject: 'Тема', text: 'Текст' });
    assert.deepEqual(messageText('not json', MOSCOW_RU), { subject: 'Событие Lokator', text: 'not json' });
  });
});
