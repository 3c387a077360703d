import type { Task } from '../types';

/**
 * The employee's app talks to the server's `/mobile/v1` routes with its device key
 * (`Authorization: Device <key>`), the same key the phone sends to the OsmAnd port. Every route
 * the app uses is named here, so a change of the server's shape touches this file only.
 */

export type { Task };

/** A field of the task's form template (custom-field types of interface 2.8). */
export interface FormField {
  externalID: string;
  name: string;
  type: string;
  isRequired?: boolean;
  values?: string[];
}

/** A task as the app reads it: interface 2.8's, with its form template's fields (null: no form). */
export type AppTask = Task & { form: { customFieldsFormTemplateID: number; templateName: string; fields: FormField[] } | null };

/** Who the key belongs to. */
export interface Profile {
  subscriberID: number;
  name: string;
  accountName: string;
  timeZone: string;
  locale?: string;
}

/** What the app needs of the server before any key: the map's tiles and the OsmAnd port. */
export interface AppSettings {
  map: { tileUrl: string | null; attribution: string };
  osmandPort: number;
}

/** The server refused the key (401): it was replaced or revoked. */
export class KeyRefused extends Error {}

/** The server answered an error that a retry will not change (400, 404, 413, 415). */
export class Refused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A field's value as the status route takes it. */
export interface FilledValue {
  externalID: string;
  value: string | null;
}

async function call(key: string, method: string, path: string, init: { body?: BodyInit; json?: unknown; headers?: Record<string, string> } = {}): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Device ${key}`, ...init.headers };
  let body = init.body;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  }
  // A network failure rejects with a TypeError: the caller keeps the change and tries again later.
  const response = await fetch(path, { method, headers, body, credentials: 'omit', cache: 'no-store' });
  const text = await response.text();
  const parsed: unknown = text && (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : undefined;
  if (response.status === 401) throw new KeyRefused('the device key is refused');
  if (!response.ok) {
    const message = (parsed as { message?: string } | undefined)?.message ?? `HTTP ${response.status}`;
    // Worth another try: 5xx, 408, 429, and 409 (the same change is still being made, by another tab
    // or a request the phone gave up on). The rest would fail the same way again.
    if (response.status < 500 && ![408, 409, 429].includes(response.status)) throw new Refused(response.status, message);
    throw new Error(message);
  }
  return parsed;
}

/** The header that makes a queued write safe to repeat: a lost answer's retry is one change on the server. */
const once = (idempotencyKey: string) => ({ 'idempotency-key': idempotencyKey });

export async function fetchProfile(key: string): Promise<Profile> {
  return (await call(key, 'GET', '/mobile/v1/me')) as Profile;
}

export async function fetchAppSettings(): Promise<AppSettings> {
  const response = await fetch('/workspace/api/app-settings', { headers: { accept: 'application/json' }, credentials: 'omit' });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return (await response.json()) as AppSettings;
}

/** The employee's tasks of today and the coming week, in the order of the day. */
export async function fetchTasks(key: string): Promise<AppTask[]> {
  return ((await call(key, 'GET', '/mobile/v1/tasks?days=7')) as { tasks: AppTask[] }).tasks;
}

export interface StatusWrite {
  status: number;
  comment?: string | null;
}

/** A status change, made at `actedAt` (the server keeps that time, not the time it arrives). */
export async function sendStatus(key: string, taskID: number, change: StatusWrite, idempotencyKey: string, actedAt: string): Promise<void> {
  await call(key, 'POST', `/mobile/v1/tasks/${taskID}/status`, { json: { ...change, actedAt }, headers: once(idempotencyKey) });
}

/** The task's form, without a status change; picture and file fields name uploaded files' ids. */
export async function sendForm(key: string, taskID: number, values: FilledValue[], idempotencyKey: string, actedAt: string): Promise<void> {
  await call(key, 'POST', `/mobile/v1/tasks/${taskID}/form`, { json: { customFieldFormItems: values, actedAt }, headers: once(idempotencyKey) });
}

/** Uploads a picture or file of a task's form, as its bytes; answers the id its field then carries. */
export async function uploadFile(key: string, taskID: number, file: Blob, fileName: string, idempotencyKey: string, actedAt: string): Promise<string> {
  const query = new URLSearchParams({ actedAt, fileName });
  const headers = { ...once(idempotencyKey), 'content-type': file.type || 'application/octet-stream' };
  const answer = (await call(key, 'POST', `/mobile/v1/tasks/${taskID}/files?${query}`, { body: file, headers })) as { fileID: string | number };
  return String(answer.fileID);
}

export interface PositionFix {
  latitude: number;
  longitude: number;
  accuracyMetres: number | null;
  speedMs: number | null;
  heading: number | null;
  time: string;
}

/** One position of the phone, into the same ingest path as the OsmAnd port's (speed in km/h). */
export async function sendPosition(key: string, fix: PositionFix): Promise<void> {
  const position = { locationDate: fix.time, latitude: fix.latitude, longitude: fix.longitude };
  await call(key, 'POST', '/mobile/v1/locations', {
    json: [
      {
        ...position,
        ...(fix.accuracyMetres === null ? {} : { accuracy: fix.accuracyMetres }),
        ...(fix.speedMs === null ? {} : { velocity: fix.speedMs * 3.6 }),
        ...(fix.heading === null ? {} : { angle: Math.round(fix.heading) % 360 }),
      },
    ],
  });
}
