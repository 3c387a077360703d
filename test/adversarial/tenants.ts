import { ADMIN_TOKEN, Client, LOCATIONS, SUBSCRIBERS, type Response } from '../helpers/server.js';
import type { Audience } from './openapi-document.js';

/**
 * Accounts for the adversarial suites, made the way an operator and a coordinator make them:
 * the account through POST /admin/v1/accounts, a workspace user through the operator route,
 * a session through the sign-in route, and one object of every kind through /v6/api.
 */

export const NOW = Date.parse('2026-05-20T12:00:00Z');
export const PASSWORD = 'adversarial password 0123';
const TASKS = '/v6/api/taskManagement/tasks';
const ZONES = '/v6/api/zoneManagement/zones';
const GROUPS = '/v6/api/zoneManagement/zoneGroups';
const MAP_OBJECTS = '/v6/api/mapObjectManagement/mapObjects';
const RULES = '/v6/api/eventManagement/events';
const DELIVERIES = '/v6/api/eventManagement/deliveries';
const TRACKS = '/v6/api/globalPositioningManagement/tracks';

export interface Tenant {
  /** Text in every name this tenant stores: finding it in another tenant's answer is a leak. */
  marker: string;
  accountID: number;
  token: string;
  login: string;
  /** The workspace session: the cookie header and the CSRF token its changes carry. */
  session: { cookie: string; csrf: string };
  deviceKey: string;
  /** The tenant's object of each kind, by the name of the path parameter that takes its id. */
  ids: Record<string, string>;
}

/** A request as the suites send it: the path carries its query string as written. */
export interface RawRequest {
  method: string;
  path: string;
  /** Sent as is: JSON text, or anything else a case wants to try. */
  body?: string;
  headers?: Record<string, string>;
}

/**
 * Sends one request over loopback. A streaming answer (the workspace's live feed) is not read
 * to its end: its status and headers are the answer.
 */
export async function send(baseUrl: string, request: RawRequest): Promise<Response> {
  const controller = new AbortController();
  const headers: Record<string, string> = { ...request.headers };
  if (request.body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${baseUrl}${request.path}`, { method: request.method, headers, body: request.body, signal: controller.signal });
  if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    controller.abort();
    return { status: response.status, headers: response.headers, body: null, text: '' };
  }
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** The credential headers a tenant sends to a route of this audience, as `bearer`, `cookie` or `device`. */
export type CredentialKind = 'bearer' | 'cookie' | 'device';

export function credentialHeaders(tenant: Tenant, kind: CredentialKind, method: string): Record<string, string> {
  if (kind === 'bearer') return { authorization: `Bearer ${tenant.token}` };
  if (kind === 'device') return { authorization: `Device ${tenant.deviceKey}` };
  const headers: Record<string, string> = { cookie: tenant.session.cookie };
  if (method !== 'GET') headers['x-csrf-token'] = tenant.session.csrf;
  return headers;
}

/** The credential a suite uses for its own tenant on a route of this audience. */
export function ownCredential(tenant: Tenant, audience: Audience, method: string): Record<string, string> {
  if (audience === 'operator') return { authorization: `Bearer ${ADMIN_TOKEN}` };
  if (audience === 'device') return credentialHeaders(tenant, 'device', method);
  if (audience === 'workspace') return credentialHeaders(tenant, 'cookie', method);
  return credentialHeaders(tenant, 'bearer', method);
}

function expect(r: Response, status: number, what: string): Response {
  if (r.status !== status) throw new Error(`${what}: answered ${r.status} ${r.text.slice(0, 300)}`);
  return r;
}

/** Signs the tenant's workspace user in again (after a suite signed it out or changed its password back). */
export async function signIn(baseUrl: string, tenant: Tenant): Promise<void> {
  const r = expect(await send(baseUrl, { method: 'POST', path: '/workspace/api/session', body: JSON.stringify({ login: tenant.login, password: PASSWORD }) }), 200, 'sign-in');
  tenant.session = { cookie: (r.headers.get('set-cookie') ?? '').split(';')[0]!, csrf: (r.body as { csrfToken: string }).csrfToken };
}

/** A fix every 10 s: `minutes` of driving east at `speedKmh` from `start`, with the vehicle readings. */
function drive(subscriberID: number, start: number, minutes: number, speedKmh: number, fuel: (i: number) => number, lon0: number) {
  const stepDegrees = (speedKmh / 3.6) * 10 / 68_600;
  return Array.from({ length: (minutes * 60) / 10 }, (_, i) => ({
    subscriberID,
    locationDate: new Date(start + i * 10_000).toISOString(),
    isValid: true,
    latitude: 52.52,
    longitude: lon0 + i * stepDegrees,
    angle: 90,
    velocity: speedKmh,
    fuelLevel: fuel(i),
    ignition: speedKmh > 0,
    externalPower: true,
    odometer: 12_000 + i * 0.28,
    engineHours: 300 + i / 360,
    sensors: [{ sensorID: 1, value: 4.5 }],
  }));
}

/**
 * A new account holding one object of every kind: an employee that drove (speeding, a fuel
 * filling, then parked: so locations, a track, vehicle events, statistics buckets and the
 * pipeline's open bucket exist), a zone group with a zone, a map object, a task, an event rule
 * and a delivery of that rule.
 */
export async function createTenant(baseUrl: string, tag: string): Promise<Tenant> {
  const marker = `ADV${tag}${Math.random().toString(36).slice(2, 8)}`;
  const operator = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const created = expect(
    await send(baseUrl, { method: 'POST', path: '/admin/v1/accounts', body: JSON.stringify({ name: `${marker} account`, timeZone: 'UTC' }), headers: operator }),
    201,
    'creating an account',
  ).body as { accountID: number; token: string };
  const login = `${marker.toLowerCase()}-user`;
  expect(
    await send(baseUrl, { method: 'POST', path: `/admin/v1/accounts/${created.accountID}/users`, body: JSON.stringify({ login, password: PASSWORD }), headers: operator }),
    201,
    'creating a workspace user',
  );
  const tenant: Tenant = { marker, accountID: created.accountID, token: created.token, login, session: { cookie: '', csrf: '' }, deviceKey: `${marker}-device`, ids: {} };
  await signIn(baseUrl, tenant);
  const api = new Client(baseUrl, created.token);
  const ok = async (r: Promise<Response>, status: number, what: string) => expect(await r, status, `${marker}: ${what}`).body;

  const employee = await ok(api.post(SUBSCRIBERS, { name: `${marker} driver`, externalSubscriberID: `${marker}-ext`, deviceKey: tenant.deviceKey, phone: '+49301234567' }), 201, 'employee');
  const subscriberID = employee.subscriberID as number;
  const lon0 = 13.4;
  const start = NOW - 50 * 60_000;
  // 20 minutes at 110 km/h (speeding, prolonged), the tank filled from 40 to 75 l halfway; then parked for 15.
  const moving = drive(subscriberID, start, 20, 110, (i) => (i < 60 ? 40 - i * 0.01 : 75 - i * 0.01), lon0);
  const last = moving.at(-1)!;
  const parked = drive(subscriberID, start + 20 * 60_000, 15, 0, () => 74, last.longitude).map((fix) => ({ ...fix, longitude: last.longitude }));
  await ok(api.post(LOCATIONS, [...moving, ...parked]), 201, 'fixes');

  const group = await ok(api.post(GROUPS, { name: `${marker} group` }), 201, 'zone group');
  const zone = await ok(
    api.post(ZONES, {
      name: `${marker} zone`,
      zoneGroupID: group.zoneGroupID,
      comment: marker,
      bounds: [
        { latitude: 52.5, longitude: 13.39 },
        { latitude: 52.54, longitude: 13.39 },
        { latitude: 52.54, longitude: 13.42 },
        { latitude: 52.5, longitude: 13.42 },
      ],
    }),
    201,
    'zone',
  );
  const mapObject = await ok(api.post(MAP_OBJECTS, { name: `${marker} depot`, latitude: 52.52, longitude: 13.401, address: `${marker} street`, externalID: `${marker}-mo` }), 201, 'map object');
  const subscriberGroup = await ok(api.post('/v6/api/subscriberManagement/subscriberGroups', { name: `${marker} team` }), 201, 'employee group');
  const template = await ok(
    api.post('/v6/api/customFieldsManagement/customFields', { name: `${marker} form`, customFieldFormItems: [{ externalID: 'note', name: `${marker} note`, type: 'string' }] }),
    201,
    'custom-field template',
  );
  // A task with the template's field filled has a form (its id is the task's).
  const task = await ok(
    api.post(TASKS, {
      title: `${marker} visit`,
      startDate: '2026-05-20T15:00:00Z',
      subscriberID,
      mapObjectID: mapObject.mapObjectID,
      address: marker,
      customFieldsFormTemplateID: template.customFieldsFormTemplateID,
      customFieldFormItems: [{ externalID: 'note', name: `${marker} note`, type: 'string', value: marker }],
    }),
    201,
    'task',
  );
  // Located: a second employee, so that the first may still be located at once (one request a minute each).
  const located = await ok(api.post(SUBSCRIBERS, { name: `${marker} courier` }), 201, 'second employee');
  const locate = await ok(api.post('/v6/api/subscriberManagement/subscriberRequests', { subscriberID: located.subscriberID }), 201, 'locate request');
  const rule = await ok(api.post(RULES, { name: `${marker} rule`, kind: 'employeeChanges', sendToApi: true, apiUrl: 'http://127.0.0.1:9/hook', subscriberIDs: [subscriberID] }), 201, 'event rule');
  // A change of the employee the rule watches writes a delivery (the worker is not running: it stays pending).
  await ok(api.patch(`${SUBSCRIBERS}/${subscriberID}`, { phone: '+49301234568' }), 200, 'employee change');

  const schedule = await ok(
    api.post('/v6/api/reports/schedules', { name: `${marker} weekly`, report: 'summary', subscriberIDs: [subscriberID], recipients: ['fleet@example.test'], frequency: 'weekly', weekday: 1, time: '08:00' }),
    201,
    'report schedule',
  );
  // A photo the employee's app uploaded for the task's form.
  const photo = await fetch(`${baseUrl}/mobile/v1/tasks/${task.taskID}/files`, {
    method: 'POST',
    headers: { authorization: `Device ${tenant.deviceKey}`, 'content-type': 'image/jpeg' },
    body: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...Buffer.from(marker)]),
  });
  if (photo.status !== 201) throw new Error(`${marker}: photo upload answered ${photo.status} ${await photo.text()}`);
  const file = (await photo.json()) as { fileID: number };
  const retranslator = await ok(api.post('/v6/api/trackerManagement/egtsRetranslators', { dispatcherID: 2219, name: `${marker} platform`, password: 'Relay-Pass-01' }), 201, 'EGTS retranslator');
  const user = (await ok(api.get('/v6/api/userManagement/users'), 200, 'users'))[0];
  const token = await ok(api.post('/v6/api/userManagement/tokens', { name: `${marker} integration`, role: 'viewer' }), 201, 'API token');
  const locations = await ok(api.get(`${LOCATIONS}?subscriberIDs=${subscriberID}&count=1`), 200, 'locations');
  const tracks = await ok(api.get(`${TRACKS}?subscriberIDs=${subscriberID}`), 200, 'tracks');
  const deliveries = await ok(api.get(DELIVERIES), 200, 'deliveries');
  if (!tracks.length) throw new Error(`${marker}: the drive made no track`);
  if (!deliveries.data.length) throw new Error(`${marker}: the employee change made no delivery`);
  // The same change alerts the workspace (the rule's alertWorkspace is on by default).
  const alerts = await ok(api.get('/v6/api/eventManagement/alerts'), 200, 'alerts');
  if (!alerts.data.length) throw new Error(`${marker}: the employee change made no alert`);
  tenant.ids = {
    accountID: String(created.accountID),
    subscriberID: String(subscriberID),
    externalID: `${marker}-ext`,
    locationID: String(locations[0].locationID),
    trackID: String(tracks[0].trackID),
    zoneGroupID: String(group.zoneGroupID),
    zoneID: String(zone.zoneID),
    mapObjectID: String(mapObject.mapObjectID),
    taskID: String(task.taskID),
    eventID: String(rule.eventID),
    deliveryID: String(deliveries.data[0].deliveryID),
    subscriberGroupID: String(subscriberGroup.subscriberGroupID),
    customFieldsFormTemplateID: String(template.customFieldsFormTemplateID),
    formID: String(task.taskID),
    requestID: String(locate.requestID),
    reportScheduleID: String(schedule.reportScheduleID),
    retranslatorID: String(retranslator.retranslatorID),
    fileID: String(file.fileID),
    alertID: String(alerts.data[0].alertID),
    userID: String(user.userID),
    tokenID: String(token.tokenID),
  };
  return tenant;
}

/**
 * The kind of object a parameter or body field names, by its name: `subscriberIDs` and
 * `subscriberID` name employees, `parentID` a zone group. Paging cursors (`lastLocationID`) and
 * ids of things no tenant here holds give undefined.
 */
export function idKindOf(name: string): string | undefined {
  const aliases: Record<string, string> = {
    parentID: 'zoneGroupID',
    objectID: 'mapObjectID',
    externalSubscriberID: 'externalID',
    customFieldFormTemplateID: 'customFieldsFormTemplateID',
  };
  if (aliases[name]) return aliases[name];
  const singular = name.endsWith('IDs') ? name.slice(0, -1) : name;
  return Object.keys(GHOST_IDS).includes(singular)
    ? singular
    : undefined;
}

/** Well-formed ids no account holds: the answer to "does not exist". */
export const GHOST_IDS: Record<string, string> = {
  accountID: '999999937',
  subscriberID: '999999929',
  externalID: 'no-such-external-id',
  locationID: '999999893',
  trackID: '999999883',
  zoneGroupID: '999999877',
  zoneID: '999999871',
  mapObjectID: '999999863',
  taskID: '999999853',
  eventID: '999999851',
  deliveryID: '999999847',
  subscriberGroupID: '999999839',
  customFieldsFormTemplateID: '999999833',
  formID: '999999829',
  requestID: '999999827',
  reportScheduleID: '999999821',
  retranslatorID: '999999817',
  fileID: '999999807',
  alertID: '999999803',
  userID: '999999811',
  tokenID: '999999809',
};
