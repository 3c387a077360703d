import type { Response } from '../helpers/server.js';
import { bodyFields, fillPath, kindOf, minimalValue, nonNull, setPath, type Operation, type Parameter, type Schema } from './openapi-document.js';
import { idKindOf, NOW, ownCredential, PASSWORD, send, type Tenant } from './tenants.js';

/**
 * Well-formed requests for any operation of the document: query strings with valid values for
 * every parameter the suites do not attack, and bodies taken from the tenant's own objects. The
 * tenancy matrix swaps one id in them for another tenant's; the fuzz swaps one value for a bad one.
 */

/** Valid values of the parameters that are not ids, by name; several where each is its own case (statistics' interval). */
const VALID_QUERY_VALUES: Record<string, string[]> = {
  interval: ['1', '2', '3'],
  dateFrom: ['2026-05-19T00:00:00Z'],
  dateTo: ['2026-05-20T12:00:00Z'],
  startDate: ['2026-05-19T00:00:00Z'],
  finishDate: ['2026-05-20T12:00:00Z'],
  latitude: ['52.52'],
  longitude: ['13.401'],
  withCustomTemplateItems: ['true'],
};

/** A valid text value of a parameter that is not an id: from the table, else from its schema. */
export function validParameterValues(parameter: Parameter): string[] {
  const known = VALID_QUERY_VALUES[parameter.name];
  if (known) return known;
  const { schema } = nonNull(parameter.schema);
  const value = minimalValue(kindOf(schema) === 'array' ? schema.items ?? {} : schema);
  return [String(value)];
}

/** Ids of a tenant by kind: its own (`tenant.ids`) or the ids no one holds. */
export type IdSource = Record<string, string>;

export interface QueryVariant {
  /** `a=1&b=2`, values encoded. */
  query: string;
  /** The id parameter this variant sets, if any: what the matrix attacks. */
  idParameter?: string;
}

/**
 * The query strings to try for an operation: the required parameters with valid values (ids
 * from `ids`), then one variant for each optional id parameter set to its id, each multiplied by
 * the parameters with several valid values (`interval=1|2|3`).
 */
export function queryVariants(operation: Operation, ids: IdSource): QueryVariant[] {
  const query = operation.parameters.filter((p) => p.in === 'query');
  const pair = (p: Parameter, value: string) => `${encodeURIComponent(p.name)}=${encodeURIComponent(value)}`;
  const idOf = (p: Parameter) => {
    const kind = idKindOf(p.name);
    return kind ? ids[kind] : undefined;
  };
  const required = query.filter((p) => p.required || (VALID_QUERY_VALUES[p.name]?.length ?? 0) > 1);
  let bases: string[][] = [[]];
  for (const p of required) {
    const id = idOf(p);
    const values = id !== undefined ? [id] : validParameterValues(p);
    bases = bases.flatMap((base) => values.map((v) => [...base, pair(p, v)]));
  }
  const variants: QueryVariant[] = bases.map((base) => ({
    query: base.join('&'),
    ...(required.find((p) => idOf(p) !== undefined) ? { idParameter: required.find((p) => idOf(p) !== undefined)!.name } : {}),
  }));
  for (const p of query) {
    const id = idOf(p);
    if (required.includes(p) || id === undefined) continue;
    for (const base of bases) variants.push({ query: [...base, pair(p, id)].join('&'), idParameter: p.name });
  }
  return variants;
}

/** The path with every id parameter set from `ids`; throws naming the parameter when no kind of object matches it. */
export function pathFor(operation: Operation, ids: IdSource): string {
  const values: Record<string, string> = {};
  for (const p of operation.parameters.filter((x) => x.in === 'path')) {
    const kind = idKindOf(p.name);
    if (!kind || ids[kind] === undefined) {
      throw new Error(`${operation.label}: no fixture object for path parameter {${p.name}}; add one of that kind to test/adversarial/tenants.ts`);
    }
    values[p.name] = ids[kind];
  }
  return fillPath(operation.path, values);
}

/** `path?query`, or the path alone. */
export const withQuery = (path: string, query: string) => (query ? `${path}?${query}` : path);

/**
 * A body the tenant's own credential would have accepted: the tenant's object of that kind as
 * the GET of the item route shows it (the item itself for PUT/PATCH, one of its kind for a
 * POST to the collection), else the schema's simplest value. The device key is left out: a PUT
 * carrying the masked key shown by GET would replace the phone's real one.
 */
export async function ownBody(baseUrl: string, operations: Operation[], operation: Operation, tenant: Tenant): Promise<unknown> {
  if (!operation.body) return undefined;
  const known = knownBodies(tenant)[operation.label];
  if (known) return known;
  const itemPath =
    operation.method === 'POST'
      ? operations.find((o) => o.method === 'GET' && o.path.startsWith(`${operation.path}/{`) && o.path.indexOf('/', operation.path.length + 1) === -1)?.path
      : operations.find((o) => o.method === 'GET' && o.path === operation.path)?.path;
  const isArray = kindOf(operation.body) === 'array';
  if (itemPath) {
    const item = operations.find((o) => o.method === 'GET' && o.path === itemPath)!;
    const r = await send(baseUrl, { method: 'GET', path: pathFor(item, tenant.ids), headers: ownCredential(tenant, item.audience, 'GET') });
    if (r.status === 200 && r.body && typeof r.body === 'object') {
      const object = onlyDeclared(r.body, isArray ? nonNull(operation.body).schema.items ?? {} : operation.body) as Record<string, unknown>;
      delete object.deviceKey;
      return isArray ? [object] : object;
    }
  }
  return minimalValue(operation.body);
}

/**
 * Good bodies of the routes whose body no read shows and no schema can guess: the user's own
 * credentials; a locate request for the employee no request has located yet (one a minute each);
 * a position from the employee's app.
 */
/** Each user a good body creates has a login of its own (logins are unique in an account). */
let usersMade = 0;

function knownBodies(tenant: Tenant): Record<string, unknown> {
  return {
    'POST /workspace/api/session': { login: tenant.login, password: PASSWORD },
    'PUT /workspace/api/password': { currentPassword: PASSWORD, newPassword: PASSWORD },
    'POST /v6/api/subscriberManagement/subscriberRequests': { subscriberID: Number(tenant.ids.subscriberID) },
    // The password is write-only: no read shows one to send back.
    'POST /v6/api/trackerManagement/egtsRetranslators': { dispatcherID: 2219, name: `${tenant.marker} platform`, password: 'Relay-Pass-01' },
    // A user's password is write-only: no read shows one to send back.
    'POST /v6/api/userManagement/users': { login: `${tenant.marker}-dispatcher-${(usersMade += 1)}`, name: `${tenant.marker} dispatcher`, role: 'dispatcher', password: PASSWORD },
    // A position the employee's app took a minute ago: no read lists them in this shape.
    'POST /mobile/v1/locations': [{ locationDate: new Date(NOW - 60_000).toISOString(), latitude: 55.7558, longitude: 37.6173, accuracy: 12 }],
  };
}

/** The value with only the properties its schema declares, recursively (what a client would send back). */
function onlyDeclared(value: unknown, schema: Schema): unknown {
  const { schema: s } = nonNull(schema);
  if (Array.isArray(value)) return s.items ? value.map((v) => onlyDeclared(v, s.items!)) : value;
  if (value === null || typeof value !== 'object' || !s.properties) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(s.properties)) {
    if (key in (value as Record<string, unknown>)) out[key] = onlyDeclared((value as Record<string, unknown>)[key], child);
  }
  return out;
}

/** Reads the value at a dotted path. */
export function getPath(value: unknown, path: string): unknown {
  return path.split('.').reduce<any>((v, part) => (v === null || typeof v !== 'object' ? undefined : v[part]), value);
}

/**
 * `body` with the field at `path` set to `value`, its missing containers filled with the
 * simplest valid items (so `zones.0.zoneID` brings the `bindingType` a zone binding needs).
 */
export function setField(body: unknown, bodySchema: Schema, path: string, value: unknown): unknown {
  const fields = bodyFields(bodySchema);
  const parts = path.split('.');
  let result = body;
  for (let i = 1; i < parts.length; i++) {
    const parent = parts.slice(0, i).join('.');
    const current = getPath(result, parent);
    if (current === undefined || current === null) {
      const schema = parent === '0' && kindOf(bodySchema) === 'array' ? nonNull(bodySchema).schema.items : fields.find((f) => f.path === parent)?.schema;
      result = setPath(result, parent, schema ? minimalValue(schema) : /^\d+$/.test(parts[i]!) ? [] : {});
    }
  }
  return setPath(result, path, value);
}

/** The body fields that name an object of a kind the tenants hold, with how to write an id there. */
export function idFields(bodySchema: Schema): { path: string; kind: string; write: (id: string) => unknown }[] {
  return bodyFields(bodySchema).flatMap(({ path, schema }): { path: string; kind: string; write: (id: string) => unknown }[] => {
    const name = path.split('.').at(-1)!;
    // An object's own external id (tasks, map objects, the employee's) is free text it is given, not a reference.
    const kind = ['externalID', 'externalSubscriberID'].includes(name) ? undefined : idKindOf(name);
    if (!kind) return [];
    const k = kindOf(schema);
    const scalar = (id: string) => Number(id);
    if (k === 'array') return [{ path, kind, write: (id: string) => [scalar(id)] }];
    if (k === 'integer' || k === 'string' || k === 'number') return [{ path, kind, write: scalar }];
    return [];
  });
}

/** What the suites compare of two answers: status, code and named fields of an error, the body of a success. */
export function answerShape(r: Response): unknown {
  if (r.status >= 400 && r.body && typeof r.body === 'object') {
    const e = r.body as { code?: unknown; validationErrors?: Record<string, string> };
    return { status: r.status, code: e.code, fields: Object.keys(e.validationErrors ?? {}).sort() };
  }
  return { status: r.status, body: r.body };
}
