import { Type } from 'typebox';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import type { AccountService } from './account-service.js';
import { DERIVED_RETENTION_FACTOR, MAX_RETENTION_DAYS, retentionOf } from './retention-policy.js';

const tags = ['account'];
const RetentionDays = Type.Union([Type.Integer({ minimum: 0, maximum: MAX_RETENTION_DAYS }), Type.Null()], {
  description: 'days of fixes kept; null: the server default; 0: for ever',
});
const RetentionView = Type.Object({
  retentionDays: RetentionDays,
  serverRetentionDays: Type.Integer({ description: 'RETENTION_DAYS of the server (0: for ever)' }),
  fixesKeptDays: Type.Integer({ description: 'days of fixes kept, in effect (0: for ever)' }),
  derivedKeptDays: Type.Integer({ description: `days of tracks, vehicle events and statistics kept: ${DERIVED_RETENTION_FACTOR} times the fixes' (0: for ever)` }),
});

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
      { schema: { tags, summary: 'How long this account’s data is kept', response: { 200: RetentionView, 401: ErrorBody } } },
      async (request) => {
        const { account } = request.principal;
        const retention = retentionOf(account, serverRetentionDays);
        return { retentionDays: account.retentionDays, serverRetentionDays, fixesKeptDays: retention.fixesDays, derivedKeptDays: retention.derivedDays };
      },
    );

    api.put(
      path,
      {
        schema: {
          tags,
          summary: 'Set how long this account’s data is kept',
          description: 'Fixes older than this are removed within the hour; tracks, vehicle events and statistics are kept four times as long.',
          body: Type.Object({ retentionDays: RetentionDays }),
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
