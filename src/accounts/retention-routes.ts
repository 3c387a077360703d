import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import type { AccountService } from './account-service.js';
import { DERIVED_RETENTION_FACTOR, MAX_RETENTION_DAYS, retentionOf } from './retention-policy.js';

const tags = ['Account management'];
const RetentionDays = Type.Union([Type.Integer({ minimum: 0, maximum: MAX_RETENTION_DAYS }), Type.Null()], {
  description: 'days of fixes kept; null: the server default; 0: for ever',
});
const RetentionView = Type.Object({
  retentionDays: RetentionDays,
  serverRetentionDays: Type.Integer({ description: 'RETENTION_DAYS of the server (0: for ever)' }),
  fixesKeptDays: Type.Integer({ description: 'days of fixes kept, in effect (0: for ever)' }),
  derivedKeptDays: Type.Integer({ description: `days of tracks, vehicle events and statistics kept: ${DERIVED_RETENTION_FACTOR} times the fixes' (0: for ever)` }),
});

const retentionExample = { retentionDays: 90, serverRetentionDays: 365, fixesKeptDays: 90, derivedKeptDays: 360 };

/**
 * How long the account's data is kept (docs/operators/retention.md), read and set by the account itself
 * (the workspace's Settings); the operator sets the same with `PATCH /admin/v1/accounts/{id}`.
 * An extension of the interface, like the signing secret.
 */
export function retentionRoutes(accounts: AccountService, serverRetentionDays: number) {
  return async (api: Api) => {
    const path = '/accountManagement/retention';

    api.get(
      path,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'How long this account’s data is kept',
          description:
            'The account’s own choice (`retentionDays`, null for the server’s default) and what is in effect: days of fixes, and of tracks, ' +
            'vehicle events and statistics, which are kept four times as long.',
          response: { 200: described(withExamples(RetentionView, retentionExample), 'the retention in effect'), 401: ErrorBody },
        },
      },
      async (request) => {
        const { account } = request.principal;
        const retention = retentionOf(account, serverRetentionDays);
        return { retentionDays: account.retentionDays, serverRetentionDays, fixesKeptDays: retention.fixesDays, derivedKeptDays: retention.derivedDays };
      },
    );

    api.put(
      path,
      {
        config: { permission: 'admin' },
        schema: {
          tags,
          summary: 'Set how long this account’s data is kept',
          description:
            'Fixes older than this are removed within the hour; tracks, vehicle events and statistics are kept four times as long. ' +
            'null returns to the server default; 0 keeps everything. See Data retention in the docs for what stays of a removed period.',
          body: withExamples(Type.Object({ retentionDays: RetentionDays }), { retentionDays: 90 }),
          response: { 204: NoContent, 400: ErrorBody, 401: ErrorBody },
        },
      },
      async (request, reply) => {
        await accounts.change(request.principal.account.id, { retentionDays: request.body.retentionDays });
        return reply.code(204).send(null);
      },
    );
  };
}
