/**
 * The human-readable text of an e-mail, SMS or messenger message, made from what the dispatcher
 * wrote for those channels: `{eventName, kind, body}`, where `body` is one signal of 6.3 or one
 * change element of 6.4 / 6.5. Short first line (an SMS may show nothing else), details after.
 */

type Json = Record<string, unknown>;

const SIGNAL_NAMES: Record<number, string> = {
  1: 'speed exceeded',
  2: 'zone entry/exit',
  3: 'stop',
  7: 'power off',
  9: 'waste loading',
  10: 'sensor out of range',
  11: 'trip ended',
  24: 'estimated arrival',
};
const CHANGE_NAMES: Record<number, string> = { 1: 'added', 2: 'changed', 3: 'deleted' };

export interface MessageText {
  subject: string;
  text: string;
}

export function messageText(payloadJson: string): MessageText {
  let payload: unknown;
  try {
    payload = JSON.parse(payloadJson);
  } catch {
    return { subject: 'Lokator event', text: payloadJson };
  }
  // A message composed by its writer (a scheduled report) says what it says.
  if (isObject(payload) && typeof payload.subject === 'string' && typeof payload.text === 'string') return { subject: payload.subject, text: payload.text };
  const { eventName, kind, body } = (isObject(payload) ? payload : {}) as { eventName?: unknown; kind?: unknown; body?: unknown };
  const name = typeof eventName === 'string' && eventName ? eventName : 'Lokator event';
  const element = isObject(body) ? body : {};
  const lines = kind === 'taskChanges' ? taskLines(element) : kind === 'employeeChanges' ? employeeLines(element) : signalLines(element);
  const [headline, ...details] = lines;
  return { subject: `${name}: ${headline}`, text: [`${name}: ${headline}`, ...details].join('\n') };
}

function signalLines(s: Json): string[] {
  const type = Number(s.signalTypeID);
  let headline = SIGNAL_NAMES[type] ?? `signal ${String(s.signalTypeID ?? '')}`.trim();
  if (type === 2 && s.zoneName !== undefined) headline = `${s.zoneEventType === 2 ? 'left' : 'entered'} zone ${String(s.zoneName)}`;
  const lines = [`${headline}, ${employee(s)}`];
  if (s.signalDate) lines.push(`at ${String(s.signalDate)}`);
  if (typeof s.latitude === 'number' && typeof s.longitude === 'number') {
    const speed = typeof s.velocity === 'number' ? `, ${Math.round(s.velocity)} km/h` : '';
    lines.push(`position ${s.latitude.toFixed(5)}, ${s.longitude.toFixed(5)}${speed}`);
  }
  if (s.sensorID !== undefined) lines.push(`sensor ${String(s.sensorID)}: ${String(s.sensorValue)}`);
  if (s.taskID !== undefined) {
    const client = [s.taskClientName, s.taskClientPhone].filter((v) => typeof v === 'string' && v).join(', ');
    lines.push(`task ${String(s.taskID)}${client ? ` (${client})` : ''}`);
    if (s.estimatedArrivalDate) lines.push(`estimated arrival ${String(s.estimatedArrivalDate)}`);
  }
  return lines;
}

function taskLines(e: Json): string[] {
  const meta = isObject(e.signalMetadataInfo) ? e.signalMetadataInfo : {};
  const task = isObject(e.task) ? e.task : {};
  const id = task.taskID ?? meta.entityID;
  const title = typeof task.title === 'string' && task.title ? ` "${task.title}"` : '';
  return [`task ${String(id ?? '')}${title} ${CHANGE_NAMES[Number(meta.signalTypeID)] ?? 'changed'}`, ...changedLine(e), ...metaLine(meta)];
}

function employeeLines(e: Json): string[] {
  const meta = isObject(e.signalMetadataInfo) ? e.signalMetadataInfo : {};
  const subscriber = isObject(e.subscriber) ? e.subscriber : {};
  const id = subscriber.subscriberID ?? meta.entityID;
  const name = typeof subscriber.name === 'string' && subscriber.name ? ` "${subscriber.name}"` : '';
  return [`employee ${String(id ?? '')}${name} ${CHANGE_NAMES[Number(meta.signalTypeID)] ?? 'changed'}`, ...changedLine(e), ...metaLine(meta)];
}

function changedLine(e: Json): string[] {
  return isObject(e.changedValues) && Object.keys(e.changedValues).length > 0 ? [`changed: ${Object.keys(e.changedValues).join(', ')}`] : [];
}

function metaLine(meta: Json): string[] {
  const date = meta.signalDate ?? meta.date;
  return date ? [`at ${String(date)}`] : [];
}

function employee(s: Json): string {
  const external = typeof s.subscriberExternalID === 'string' && s.subscriberExternalID ? ` (${s.subscriberExternalID})` : '';
  return `employee ${String(s.subscriberID ?? '?')}${external}`;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
