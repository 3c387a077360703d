import { t } from '../i18n/i18n.js';

type Element = Record<string, unknown>;
const isElement = (value: unknown): value is Element => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What the delivery carried, in words: the signal's kind, the employee by name and the zone of a
 * zone signal ("Zone entry/exit · Truck 12 · Warehouse"); for task and employee changes, what
 * changed. E-mail, SMS and messenger deliveries carry the element as `body`; a batch says how
 * many more it carried. `kindLabel` names a rule kind (alerts/alert-kinds.ts).
 */
export function eventSummary(payload: unknown, employees: ReadonlyMap<number, string>, kindLabel: (kind: number | string) => string): string {
  const carried = isElement(payload) && 'eventName' in payload && 'body' in payload ? payload.body : payload;
  const events = (Array.isArray(carried) ? carried : [carried]).filter(isElement);
  const first = events[0];
  if (!first) return t('deliv.events', { count: 0 });
  const parts: string[] = [];
  const meta = isElement(first.signalMetadataInfo) ? first.signalMetadataInfo : null;
  if (meta) {
    const task = isElement(first.task) ? first.task : null;
    const subscriber = isElement(first.subscriber) ? first.subscriber : null;
    parts.push(t(task || meta.signalEntityTypeID === 1 ? 'rules.kindTasks' : 'rules.kindEmployees'));
    const name = task?.title ?? subscriber?.name;
    if (typeof name === 'string' && name) parts.push(name);
    else if (typeof meta.entityID === 'number') parts.push(`#${meta.entityID}`);
    const assignee = typeof task?.subscriberID === 'number' ? employees.get(task.subscriberID) : undefined;
    if (assignee) parts.push(assignee);
  } else {
    parts.push(kindLabel(typeof first.signalTypeID === 'number' ? first.signalTypeID : String(first.signalTypeID ?? '')));
    if (typeof first.subscriberID === 'number') parts.push(employees.get(first.subscriberID) ?? t('deliv.employeeN', { id: first.subscriberID }));
    if (typeof first.zoneName === 'string' && first.zoneName) parts.push(first.zoneName);
  }
  if (events.length > 1) parts.push(t('deliv.andMore', { count: events.length - 1 }));
  return parts.join(' · ');
}
