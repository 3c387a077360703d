import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventSummary } from '../../web/src/pages/delivery-summary.js';
import { setLanguage, t, type PlainKey } from '../../web/src/i18n/i18n.js';

/** What a delivery row says it carried: the signal's kind in words, the employee by name, the zone. */
describe('deliveries log: what a delivery carried', () => {
  const employees = new Map([[23, 'Truck 12']]);
  /** The rule kinds' names as the Events tab's catalogue keys them (the generated list does the same). */
  const kindLabel = (kind: number | string) => t(`rules.kind${kind}` as PlainKey);
  const zoneSignal = { signalID: 1, signalTypeID: 2, subscriberID: 23, zoneID: 5, zoneName: 'Warehouse', zoneEventType: 1, eventID: 14 };

  it('names the signal, the employee and the zone, in English and Russian', () => {
    setLanguage('en');
    assert.equal(eventSummary(zoneSignal, employees, kindLabel), 'Zone entry/exit · Truck 12 · Warehouse');
    assert.equal(eventSummary([zoneSignal, zoneSignal, zoneSignal], employees, kindLabel), 'Zone entry/exit · Truck 12 · Warehouse · 2 more');
    assert.equal(eventSummary({ eventName: 'Trucks', kind: 1, body: { signalTypeID: 1, subscriberID: 99 } }, employees, kindLabel), 'Speed exceeded · employee 99', 'e-mail carries the body; an unknown employee by number');
    setLanguage('ru');
    assert.equal(eventSummary(zoneSignal, employees, kindLabel), 'Вход и выход из геозоны · Truck 12 · Warehouse');
    setLanguage('en');
  });

  it('names a task change by its title and assignee', () => {
    const change = [{ task: { taskID: 7, title: 'Parcel', subscriberID: 23 }, signalMetadataInfo: { signalTypeID: 1, signalEntityTypeID: 1, entityID: 7 } }];
    assert.equal(eventSummary(change, employees, kindLabel), 'All task changes · Parcel · Truck 12');
  });
});
