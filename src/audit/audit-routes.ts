import { Type, type Static } from 'typebox';
import { formatDateTime } from '../http/datetime.js';
import { described, withExamples } from '../http/examples.js';
import { invalidField } from '../http/errors.js';
import { Count, DateTimeText, Id, resolveBounds } from '../http/list-params.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import type { AuditLog } from './audit-log.js';

const tags = ['Account management'];

const AuditQuery = Type.Object({
  lastAuditID: Type.Optional(withExamples(Id, 5120)),
  count: Type.Optional(withExamples(Count, 100)),
  userID: Type.Optional(withExamples(Id, 5)),
  tokenID: Type.Optional(withExamples(Id, 2)),
  kind: Type.Optional(
    withExamples(
      Type.String({ pattern: '^[A-Za-z]+(\\.[A-Za-z]+)*$', maxLength: 100, description: '`employee` matches every `employee.…` kind; `employee.update` only itself' }),
      'employee',
    ),
  ),
  dateFrom: Type.Optional(withExamples(DateTimeText, '2026-03-01T00:00:00+03:00')),
  dateTo: Type.Optional(withExamples(DateTimeText, '2026-03-31T23:59:59+03:00')),
});

const Actor = Type.Object({
  kind: Type.Union([Type.Literal('user'), Type.Literal('token'), Type.Literal('system')]),
  id: Type.Union([Type.Integer(), Type.Null()], { description: 'the userID or tokenID; null for the service itself' }),
  name: Type.Union([Type.String(), Type.Null()], { description: 'the user’s login or the token’s name, when known' }),
});
const FieldChange = Type.Object({ before: Type.Unknown(), after: Type.Unknown() });
const AuditEntryView = Type.Object({
  auditID: Type.Integer(),
  date: Type.String({ description: 'in the account’s time zone' }),
  actor: Actor,
  address: Type.Union([Type.String(), Type.Null()], { description: 'the client’s IP address' }),
  kind: Type.String({ description: '`<object>.<verb>`, such as `employee.update` or `session.signInFailed`' }),
  objectID: Type.Union([Type.Integer(), Type.Null()]),
  changes: Type.Record(Type.String(), FieldChange, { description: '`{field: {before, after}}`; a secret’s values show as "[redacted]"' }),
});
const auditExample: Static<typeof AuditEntryView>[] = [
  {
    auditID: 5121,
    date: '2026-03-02T09:14:05+03:00',
    actor: { kind: 'user', id: 5, name: 'dispatcher.anna' },
    address: '203.0.113.7',
    kind: 'employee.update',
    objectID: 17,
    changes: { name: { before: 'Ivan Petrov', after: 'Ivan S. Petrov' }, devicePassword: { before: '[redacted]', after: '[redacted]' } },
  },
  {
    auditID: 5120,
    date: '2026-03-02T09:12:40+03:00',
    actor: { kind: 'user', id: 5, name: 'dispatcher.anna' },
    address: '203.0.113.7',
    kind: 'session.signIn',
    objectID: 5,
    changes: {},
  },
];

/** The account's audit log (CONTRACT §7). */
export function auditRoutes(audit: AuditLog) {
  return async (api: Api) => {
    api.get(
      '/accountManagement/auditLog',
      {
        config: { permission: 'admin' },
        schema: {
          tags,
          summary: 'Who changed what, and every sign-in, newest first',
          description:
            'Every change of the account’s settings, retention, employees, groups, zones, map objects, rules, tasks and signing secrets, and every ' +
            'workspace sign-in and failed sign-in: who (a user or a token), when, from which address, and the fields before and after. ' +
            'Secrets (passwords, tokens, device keys, signing secrets) never appear: a changed one shows as "[redacted]". ' +
            'Newest first by `auditID`; page with `lastAuditID` (only smaller ids come back). `kind` takes a prefix (`employee`) or a whole kind. ' +
            '`dateFrom`/`dateTo` bound the period; either omitted leaves that side open. Entries are kept for AUDIT_RETENTION_DAYS.',
          querystring: AuditQuery,
          response: { 200: described(withExamples(Type.Array(AuditEntryView), auditExample), 'the entries, newest first; at most `count`'), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
        },
      },
      async (request) => {
        const { account } = request.principal;
        const query = request.query;
        if (query.userID !== undefined && query.tokenID !== undefined) throw invalidField('tokenID', 'give userID or tokenID, not both');
        const bounds = resolveBounds(query, { from: 'dateFrom', to: 'dateTo' }, account.timeZone);
        const entries = await audit.list(account.id, {
          beforeId: query.lastAuditID ?? null,
          count: query.count ?? 1000,
          actorKind: query.userID !== undefined ? 'user' : query.tokenID !== undefined ? 'token' : null,
          actorId: query.userID ?? query.tokenID ?? null,
          kindPrefix: query.kind ?? null,
          fromMs: bounds.fromMs,
          toMs: bounds.toMs,
        });
        return entries.map(({ atMs, ...entry }) => ({ ...entry, date: formatDateTime(atMs, account.timeZone) }));
      },
    );
  };
}
