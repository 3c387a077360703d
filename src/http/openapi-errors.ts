import { errorKinds, type ErrorEnvelope, type ErrorKind } from './errors.js';

/**
 * Example error answers for the OpenAPI document, one per status an operation declares, in the
 * words the server really uses: a 404 names the missing object by the path's last parameter, a
 * 400 the first required field of the body or the first parameter. Filled in centrally because
 * every route shares the envelope; an operation that shows its own error example keeps it.
 */

/** The kind and message of "not found", by the path parameter that names the object. */
const notFound: Record<string, [ErrorKind, (id: string) => string]> = {
  subscriberID: ['NO_SUCH_SUBSCRIBER', (id) => `no subscriber ${id}`],
  externalID: ['NO_SUCH_SUBSCRIBER', (id) => `no subscriber ${id}`],
  locationID: ['LOCATION_NOT_FOUND', (id) => `no location ${id}`],
  trackID: ['TRACK_NOT_FOUND', (id) => `no track ${id}`],
  zoneID: ['ZONE_NOT_FOUND', (id) => `no zone ${id}`],
  zoneGroupID: ['ZONE_GROUP_NOT_FOUND', (id) => `no zone group ${id}`],
  mapObjectID: ['MAP_OBJECT_NOT_FOUND', (id) => `no map object ${id}`],
  eventID: ['EVENT_RULE_NOT_FOUND', (id) => `no event rule ${id}`],
  deliveryID: ['DELIVERY_NOT_FOUND', (id) => `no delivery ${id}`],
  retranslatorID: ['RETRANSLATOR_NOT_FOUND', () => 'no such retranslator'],
  taskID: ['TASK_NOT_FOUND', (id) => `no task ${id}`],
  fileID: ['FILE_NOT_FOUND', (id) => `no file ${id}`],
  subscriberGroupID: ['SUBSCRIBER_GROUP_NOT_FOUND', (id) => `no subscriber group ${id}`],
  requestID: ['SUBSCRIBER_REQUEST_NOT_FOUND', (id) => `no subscriber request ${id}`],
  customFieldsFormTemplateID: ['CUSTOM_FIELD_TEMPLATE_NOT_FOUND', (id) => `no custom field template ${id}`],
  formID: ['FORM_NOT_FOUND', (id) => `no form ${id}`],
  reportScheduleID: ['REPORT_SCHEDULE_NOT_FOUND', (id) => `no report schedule ${id}`],
  accountID: ['ROUTE_NOT_FOUND', (id) => `no account ${id}`],
  userID: ['USER_NOT_FOUND', (id) => `no user ${id}`],
  tokenID: ['TOKEN_NOT_FOUND', (id) => `no token ${id}`],
};

interface Parameter {
  in: string;
  name: string;
  example?: unknown;
  schema?: { type?: unknown };
}

interface OperationObject {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: { required?: string[]; items?: { required?: string[] } } }> };
  responses?: Record<string, { content?: Record<string, { example?: unknown; examples?: unknown }> }>;
}

function envelope(kind: ErrorKind, message: string, validationErrors?: Record<string, string>): ErrorEnvelope {
  const { status, code } = errorKinds[kind];
  return { status, code, description: kind, message, ...(validationErrors ? { validationErrors } : {}) };
}

function badRequest(operation: OperationObject): ErrorEnvelope {
  const body = operation.requestBody?.content?.['application/json']?.schema;
  const required = body?.required?.[0];
  if (required) return envelope('NULL_ARGUMENT', `${required} is required`, { [required]: 'is required' });
  if (body?.items?.required?.[0]) {
    const field = `[0].${body.items.required[0]}`;
    return envelope('NULL_ARGUMENT', `${field} is required`, { [field]: 'is required' });
  }
  const parameter = operation.parameters?.find((p) => p.schema?.type === 'integer');
  if (parameter) return envelope('BAD_REQUEST', `${parameter.name}: must be integer`, { [parameter.name]: 'must be integer' });
  return envelope('UNSUPPORTED_MEDIA_TYPE', 'the body must be application/json');
}

function missing(method: string, path: string, operation: OperationObject): ErrorEnvelope {
  const last = [...path.matchAll(/\{(\w+)\}/g)].at(-1)?.[1];
  const known = last ? notFound[last] : undefined;
  if (last && known) {
    const example = operation.parameters?.find((p) => p.in === 'path' && p.name === last)?.example ?? 17;
    return envelope(known[0], known[1](String(example)));
  }
  if (operation.parameters?.some((p) => p.name === 'subscriberIDs' || p.name === 'subscriberID')) {
    return envelope('NO_SUCH_SUBSCRIBER', 'no subscriber 4242');
  }
  // A path written wrong: what a client sees when it misspells a route.
  return envelope('ROUTE_NOT_FOUND', `no route ${method.toUpperCase()} ${path}s`);
}

function unauthorized(path: string): ErrorEnvelope {
  if (path.startsWith('/admin/')) return envelope('USER_UNAUTHORIZED', 'operator token required');
  if (path.startsWith('/mobile/')) return envelope('USER_UNAUTHORIZED', 'the device key is unknown');
  if (path.startsWith('/workspace/')) return envelope('USER_UNAUTHORIZED', 'not signed in');
  return envelope('USER_UNAUTHORIZED', 'token is unknown or revoked');
}

function conflict(path: string): ErrorEnvelope {
  if (path.includes('/zoneGroups/')) return envelope('ZONE_GROUP_NOT_EMPTY', 'zone group 3 still has zones; nothing was deleted');
  if (path.includes('/subscriberGroups/')) return envelope('SUBSCRIBER_GROUP_NOT_EMPTY', 'subscriber group 5 still has employees; nothing was deleted');
  if (path.includes('/subscribers')) {
    return envelope('SUBSCRIBER_EXTERNAL_ID_EXISTS', 'externalSubscriberID is already used by another subscriber', {
      externalSubscriberID: 'already used by another subscriber',
    });
  }
  if (path.includes('/deliveries/')) return envelope('CONFLICT', 'delivery 5120 is already pending', { deliveryID: 'is pending' });
  return envelope('CONFLICT', 'a request with this Idempotency-Key is in progress');
}

function tooMany(path: string): ErrorEnvelope {
  if (path === '/workspace/api/session') return envelope('RATE_LIMITED', 'too many failed sign-ins; try again later');
  if (path === '/workspace/api/password') return envelope('RATE_LIMITED', 'too many wrong current passwords; try again later');
  if (path.endsWith('/files')) return envelope('RATE_LIMITED', 'too many uploads from this device; try again later');
  if (path.includes('/subscriberRequests')) return envelope('REQUESTED_TOO_OFTEN', 'subscriber 17 was located less than a minute ago; try again later');
  return envelope('RATE_LIMITED', 'at most 16 requests may be in flight at once for one user; wait for an answer first');
}

/** The example answer of an error status of one operation, or null for statuses without a body. */
export function errorExample(status: number, method: string, path: string, operation: OperationObject): ErrorEnvelope | null {
  switch (status) {
    case 400:
      return badRequest(operation);
    case 401:
      return unauthorized(path);
    case 403:
      // Under /v6/api a 403 is most often the role's (a cookie without its CSRF token is 1016).
      if (path.startsWith('/v6/api/')) return envelope('NOT_PERMITTED', 'the viewer role may not do this: it needs a dispatcher or an admin');
      return envelope('FORBIDDEN', "a change made with the session cookie needs the session's x-csrf-token header");
    case 404:
      return missing(method, path, operation);
    case 409:
      return conflict(path);
    case 413:
      return envelope('PAYLOAD_TOO_LARGE', 'request body is too large');
    case 415:
      return envelope('UNSUPPORTED_MEDIA_TYPE', 'the file must be a JPEG, PNG or WebP picture or a PDF document');
    case 429:
      return tooMany(path);
    default:
      return null;
  }
}

/** Gives every error answer of the document that has none an example. */
export function addErrorExamples(paths: Record<string, Record<string, OperationObject>>): void {
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const media = response.content?.['application/json'];
        if (Number(status) < 400 || !media || media.example !== undefined || media.examples !== undefined) continue;
        const example = errorExample(Number(status), method, path, operation);
        if (example) media.example = example;
      }
    }
  }
}
