/**
 * The operations of the OpenAPI document the server serves (GET /v6/openapi.json), in the shape
 * the adversarial suites walk: every route and method, its parameters and its JSON body schema.
 * The suites are generated from this list, so a route added later is attacked without anyone
 * remembering to add it.
 */

/** The subset of JSON Schema the route schemas use (TypeBox output, inlined, no $ref). */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  default?: unknown;
  description?: string;
}

export interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required: boolean;
  schema: Schema;
  description?: string;
}

/** Who may call a route, which decides the credential a suite sends. */
export type Audience = 'api' | 'operator' | 'workspace' | 'device';

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The templated path, `/v6/api/zoneManagement/zones/{zoneID}`. */
  path: string;
  /** `GET /v6/api/…/{zoneID}`: what failure messages name. */
  label: string;
  parameters: Parameter[];
  body: Schema | null;
  audience: Audience;
}

/** Reads the document from a running server and lists its operations, in document order. */
export async function loadOperations(baseUrl: string): Promise<Operation[]> {
  const response = await fetch(`${baseUrl}/v6/openapi.json`);
  if (!response.ok) throw new Error(`GET /v6/openapi.json answered ${response.status}`);
  const document = (await response.json()) as { paths: Record<string, Record<string, any>> };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, spec] of Object.entries(methods)) {
      const upper = method.toUpperCase() as Operation['method'];
      if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(upper)) continue;
      operations.push({
        method: upper,
        path,
        label: `${upper} ${path}`,
        parameters: (spec.parameters ?? []) as Parameter[],
        body: (spec.requestBody?.content?.['application/json']?.schema as Schema | undefined) ?? null,
        audience: audienceOf(path, spec.security),
      });
    }
  }
  return operations;
}

/** An empty `security` list opts out of the bearer scheme: the phone's device key. */
function audienceOf(path: string, security: unknown[] | undefined): Audience {
  if (Array.isArray(security) && security.length === 0) return 'device';
  if (path.startsWith('/admin/')) return 'operator';
  if (path.startsWith('/workspace/')) return 'workspace';
  return 'api';
}

/** The path with each `{name}` replaced by its value, encoded unless `raw`. */
export function fillPath(path: string, values: Record<string, string>, raw = false): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${path}`);
    return raw ? value : encodeURIComponent(value);
  });
}

/** The schema's branches without `null`, and whether null is one of them. */
export function nonNull(schema: Schema): { schema: Schema; nullable: boolean } {
  if (schema.anyOf) {
    const rest = schema.anyOf.filter((s) => s.type !== 'null');
    const nullable = rest.length < schema.anyOf.length;
    return { schema: rest.length === 1 ? rest[0]! : { anyOf: rest }, nullable };
  }
  if (Array.isArray(schema.type)) {
    const rest = schema.type.filter((t) => t !== 'null');
    return { schema: { ...schema, type: rest.length === 1 ? rest[0] : rest }, nullable: rest.length < schema.type.length };
  }
  return { schema, nullable: false };
}

/** `integer`, `number`, `string`, `boolean`, `array`, `object`, or `mixed` for a union of several. */
export function kindOf(schema: Schema): string {
  const { schema: s } = nonNull(schema);
  if (s.anyOf) {
    const kinds = new Set(s.anyOf.map(kindOf));
    return kinds.size === 1 ? [...kinds][0]! : 'mixed';
  }
  if (s.enum || s.const !== undefined) return typeof (s.enum?.[0] ?? s.const) === 'number' ? 'integer' : 'string';
  if (typeof s.type === 'string') return s.type;
  if (s.properties) return 'object';
  return 'mixed';
}

/** Every field of a body schema as a dotted path (`vehicleSettings.speedLimit`, `bounds.0.latitude`) with its schema. */
export function bodyFields(schema: Schema, prefix = ''): { path: string; schema: Schema }[] {
  const { schema: s } = nonNull(schema);
  const fields: { path: string; schema: Schema }[] = [];
  if (s.properties) {
    for (const [name, child] of Object.entries(s.properties)) {
      const path = prefix ? `${prefix}.${name}` : name;
      fields.push({ path, schema: child }, ...bodyFields(child, path));
    }
  } else if (s.items && prefix) {
    const path = `${prefix}.0`;
    fields.push({ path, schema: s.items }, ...bodyFields(s.items, path));
  } else if (s.items) {
    // A body that is an array (POST …/locations): its first item's fields.
    fields.push(...bodyFields(s.items, '0'));
  }
  return fields;
}

/** Sets the value at a dotted path (array indexes as numbers) in a copy of `base`; missing parents are made. */
export function setPath(base: unknown, path: string, value: unknown): unknown {
  const copy = structuredClone(base) as Record<string, unknown>;
  const parts = path.split('.');
  let target: any = copy;
  for (const [i, part] of parts.slice(0, -1).entries()) {
    if (typeof target[part] !== 'object' || target[part] === null) target[part] = /^\d+$/.test(parts[i + 1]!) ? [] : {};
    target = target[part];
  }
  target[parts.at(-1)!] = value;
  return copy;
}

/**
 * A body that satisfies the schema's shape with the simplest values: required fields only,
 * the minimum of numbers, one character of strings. Used where no fixture gives a real one.
 */
export function minimalValue(schema: Schema): unknown {
  const { schema: s } = nonNull(schema);
  if (s.default !== undefined) return s.default;
  if (s.enum) return s.enum[0];
  if (s.const !== undefined) return s.const;
  if (s.anyOf) return minimalValue(s.anyOf[0]!);
  switch (kindOf(s)) {
    case 'integer':
      return Math.max(1, s.minimum ?? 1);
    case 'number':
      return Math.max(0, s.minimum ?? 0);
    case 'boolean':
      return true;
    case 'string':
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    case 'array':
      return [];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of s.required ?? []) out[name] = minimalValue(s.properties![name]!);
      return out;
    }
    default:
      return null;
  }
}
