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
  isRequired: boolean;
  values: string[];
}

/** Who the key belongs to, and how the map is drawn. */
export interface Profile {
  subscriberID: number;
  name: string;
  map: { tileUrl: string | null; attribution: string } | null;
}

/** The server refused the key (401): it was replaced or revoked. */
export class KeyRefused extends Error {}

/** The server answered an error that a retry will not change (400, 404, 409, 413, 422). */
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
    // 5xx and 429 pass: they are worth another try. The rest would fail the same way again.
    if (response.status < 500 && response.status !== 429 && response.status !== 408) throw new Refused(response.status, message);
    throw new Error(message);
  }
  return parsed;
}

/** The headers that make a queued write safe to repeat and keep the time the employee acted. */
function writeHeaders(idempotencyKey: string, actedAt: string): Record<string, string> {
  return { 'idempotency-key': idempotencyKey, 'x-acted-at': actedAt };
}

export async function fetchProfile(key: string): Promise<Profile> {
  return (await call(key, 'GET', '/mobile/v1/me')) as Profile;
}

/** The employee's tasks of today and the coming days, in the order of the day. */
export async function fetchTasks(key: string): Promise<Task[]> {
  return (await call(key, 'GET', '/mobile/v1/tasks')) as Task[];
}

/** The fields of a task's form template. */
export async function fetchFormFields(key: string, taskID: number): Promise<FormField[]> {
  const template = (await call(key, 'GET', `/mobile/v1/tasks/${taskID}/form`)) as { customFieldFormItems: FormField[] };
  return template.customFieldFormItems;
}

export interface StatusWrite {
  status: number;
  comment?: string | null;
  customFieldFormItems?: FilledValue[];
}

export async function sendStatus(key: string, taskID: number, change: StatusWrite, idempotencyKey: string, actedAt: string): Promise<Task> {
  return (await call(key, 'POST', `/mobile/v1/tasks/${taskID}/status`, { json: change, headers: writeHeaders(idempotencyKey, actedAt) })) as Task;
}

/** Uploads a picture or file; answers the id the form's field then carries. */
export async function uploadFile(key: string, file: Blob, fileName: string, idempotencyKey: string, actedAt: string): Promise<string> {
  const form = new FormData();
  form.append('file', file, fileName);
  const answer = (await call(key, 'POST', '/mobile/v1/files', { body: form, headers: writeHeaders(idempotencyKey, actedAt) })) as { fileID: string | number };
  return String(answer.fileID);
}

export interface PositionFix {
  latitude: number;
  longitude: number;
  accuracyMetres: number | null;
  speedMs: number | null;
  heading: number | null;
  altitude: number | null;
  time: string;
}

/** One position of the phone, as the OsmAnd path takes it (speed in knots there: sent in m/s here). */
export async function sendPosition(key: string, fix: PositionFix): Promise<void> {
  await call(key, 'POST', '/mobile/v1/locations', {
    json: {
      locationDate: fix.time,
      latitude: fix.latitude,
      longitude: fix.longitude,
      accuracy: fix.accuracyMetres,
      velocity: fix.speedMs === null ? null : fix.speedMs * 3.6,
      angle: fix.heading,
      altitude: fix.altitude,
    },
  });
}
