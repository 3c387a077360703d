/**
 * What the OpenAPI document says before its operations: the introduction a newcomer reads first,
 * and the tags that sort the operations into the interface's groups. Each operation's own words
 * live in its route's schema.
 */

/** Pages of the documentation site the server serves at /docs/. */
const docs = {
  api: '/docs/integrators/api.html',
  geozones: '/docs/integrators/geozones.html',
  tasks: '/docs/integrators/tasks.html',
  mobileApp: '/docs/integrators/mobile-app-api.html',
  signals: '/docs/integrators/signals.html',
  webhooks: '/docs/integrators/webhooks.html',
  reports: '/docs/integrators/reports.html',
  clients: '/docs/integrators/clients.html',
  gpsFilter: '/docs/integrators/gps-filtering.html',
  usersAndTokens: '/docs/integrators/users-and-tokens.html',
  timeZones: '/docs/coordinators/time-zones.html',
  workspace: '/docs/coordinators/workspace.html',
  security: '/docs/operators/security.html',
  retention: '/docs/operators/retention.html',
  egts: '/docs/operators/devices-egts.html',
  configuration: '/docs/operators/configuration.html',
};

export const introduction = `
Lokator speaks the v6 positioning, geozone and outgoing-event interface: positions, tracks and
vehicle data, geozones, employees and tasks, the rules that call your systems, and reports. Routes
and fields are the original service's, so an integration written for it works unchanged. The
guides at [/docs/](/docs/) explain each part; [the v6 interface](${docs.api}) lists the decisions
the interface left open.

## Authentication

Every \`/v6/api\` call carries \`Authorization: Bearer <token>\`. A token belongs to one account
and sees only that account's data: another account's object answers 404, exactly as a missing one.
The server's first start prints the first token; an operator creates accounts and their tokens
with \`POST /admin/v1/accounts\`. A missing, unknown or revoked token is 401 code 1.
See [Security](${docs.security}).

## Errors

Every error, on every route, answers the same envelope:

\`\`\`json
{
  "status": 404,
  "code": 1003,
  "description": "ZONE_NOT_FOUND",
  "message": "no zone 17"
}
\`\`\`

Switch on \`code\` (stable; \`description\` is its name); \`message\` is for people. A refused field
adds \`"validationErrors": { "<field>": "<why>" }\`: code 52 when a required field is missing or
null, code 2 when a value has the wrong shape or range. Nothing is changed by a refused request.

## Lists and paging

A list answers at most \`count\` items (1 to 1000, default 1000; more is 400 code 67).
Locations come newest first: pass the smallest \`locationID\` you got as \`lastLocationID\` to get
the next page. Tracks come in \`trackID\` order: page with \`lastTrackID\` or \`offset\`. Vehicle
events and statistics are grouped per vehicle in \`{"data": [...]}\`, and \`count\` and \`offset\`
count records, not groups.

## Dates and time zones

Date-times in requests are ISO 8601: \`2026-03-02T08:00:00+03:00\`, \`2026-03-02T05:00:00Z\`, or
without an offset, which means the account's time zone. Both ends of a period are written the
same way (one with an offset and one without is 400 code 225). Answers carry the account's offset;
fields named as UTC end in \`Z\`. A list whose \`dateFrom\` is left out covers the 72 hours
before \`dateTo\`, which is now when left out too. See [Time zones](${docs.timeZones}).

## Idempotency

A \`POST\` may carry \`Idempotency-Key\` (1 to 255 characters). For 24 hours a repeat with the
same key gets the first answer again, marked \`Idempotent-Replayed: true\`, and creates nothing;
the same key with a different body is 400, and a repeat while the first still runs is 409 code
1008. After a timeout, retry a POST with the same key.

## Writes

A create answers 201 with the object and a \`Location\` header. PUT replaces the whole object
(fields left out take their defaults), PATCH changes only the fields it carries; both answer 204,
except for an employee, which answers 200 with the employee. Bodies are JSON (at most 1 MiB; a
batch of fixes up to 16 MiB); fields the route does not know are ignored.
`.trim();

interface Tag {
  name: string;
  description: string;
}

/** Every tag an operation may carry, in the order the reference lists them. */
export const tags: Tag[] = [
  {
    name: 'Positioning',
    description: `Fixes in, and what the server derives from them out: locations, tracks, vehicle events and statistics (interface 4.1). See [the v6 interface](${docs.api}).`,
  },
  {
    name: 'Geozones',
    description: `Zones, the lookups of zones by point or map object, and zone groups (interface 4.2 and 4.3). See [Geozones](${docs.geozones}).`,
  },
  { name: 'Map objects', description: `Named points (a client's shop, a depot) that tasks and zone lookups refer to. See [Geozones](${docs.geozones}).` },
  {
    name: 'Employee management',
    description: `Employees (subscribers) with their phones and vehicle settings, employee groups, the latest fix of each, and location requests. See [Routes for clients](${docs.clients}).`,
  },
  { name: 'Task management', description: `Tasks, their status history, and the change events they fire. See [Tasks](${docs.tasks}).` },
  { name: 'Custom fields', description: `Templates of custom fields that employees, tasks and zones carry. See [Routes for clients](${docs.clients}).` },
  { name: 'Forms', description: `The forms employees fill in on a task, with their answers. See [Routes for clients](${docs.clients}).` },
  { name: 'Files', description: `The pictures and files employees upload for their tasks' forms. See [The employee's app](${docs.mobileApp}).` },
  {
    name: 'Event management',
    description: `Event rules (what fires and where it goes), the log of deliveries, and the secret that signs webhooks. See [Signals](${docs.signals}) and [Delivery of events](${docs.webhooks}).`,
  },
  { name: 'Reports', description: `Trips, stops, fuel, zone visits, speeding and summaries, as JSON, CSV or XLSX, and e-mailed schedules. See [Reports](${docs.reports}).` },
  {
    name: 'Account management',
    description: `The account's name, time zone and language, how long its data is kept, and its GPS filter. See [Data retention](${docs.retention}) and [GPS filtering](${docs.gpsFilter}).`,
  },
  {
    name: 'User management',
    description: `The account's users and API tokens, each with a role (admin, dispatcher, viewer) and an optional scope of employee groups. See [Users, roles and API tokens](${docs.usersAndTokens}).`,
  },
  { name: 'Tracker management', description: `EGTS retranslators: servers that forward a fleet's tracker data to this one. See [EGTS](${docs.egts}).` },
  {
    name: 'Mobile positioning',
    description: `The positioning routes the original service's mobile clients read, with their own limits. See [Routes for clients](${docs.clients}).`,
  },
  { name: 'Employee app', description: `What the employee’s phone and app call, authenticated by its device key (\`Authorization: Device <key>\`), not a bearer token. See [The employee's app](${docs.mobileApp}).` },
  { name: 'Workspace', description: `The coordinator workspace's own routes: sign-in, the live map feed, arrivals. See [The workspace](${docs.workspace}).` },
  {
    name: 'Operator',
    description: `The server operator's routes, enabled by \`LOKATOR_ADMIN_TOKEN\` and authenticated by it: accounts, their users and options. See [Configuration](${docs.configuration}).`,
  },
];

/** Groups of tags, for renderers that show a second level (`x-tagGroups`). */
export const tagGroups = [
  { name: 'Interface v6', tags: ['Positioning', 'Geozones', 'Map objects'] },
  {
    name: 'Management',
    tags: ['Employee management', 'Task management', 'Custom fields', 'Forms', 'Files', 'Event management', 'Reports', 'Account management', 'User management', 'Tracker management', 'Mobile positioning'],
  },
  { name: 'Phones, workspace and operator', tags: ['Employee app', 'Workspace', 'Operator'] },
];
