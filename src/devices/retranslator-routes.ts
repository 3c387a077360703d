import { Type } from 'typebox';
import { Id } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { Retranslator, RetranslatorList, RetranslatorWrite } from './retranslator-schema.js';
import type { EgtsRetranslators } from './retranslators.js';

const tags = ['trackers'];
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };
const ById = Type.Object({ retranslatorID: Id });

/**
 * The EGTS retranslators of the account (docs/operators/devices-egts.md): platforms that relay its vehicles
 * to the EGTS port. An extension of the interface. Additions and removals are logged (no password).
 */
export function retranslatorRoutes(retranslators: EgtsRetranslators) {
  return async (api: Api) => {
    const base = '/trackerManagement/egtsRetranslators';

    api.get(base, { schema: { tags, summary: 'The EGTS retranslators allowed to relay this account’s vehicles', response: { 200: RetranslatorList, ...errors } } }, async (request) =>
      retranslators.list(request.principal.account),
    );

    api.get(`${base}/:retranslatorID`, { schema: { tags, summary: 'One EGTS retranslator', params: ById, response: { 200: Retranslator, ...errors } } }, async (request) =>
      retranslators.get(request.principal.account, request.params.retranslatorID),
    );

    api.post(
      base,
      {
        schema: {
          tags,
          summary: 'Allow an EGTS retranslator: its dispatcher id, a name and the password it sends in AUTH_INFO',
          body: RetranslatorWrite,
          response: { 201: Retranslator, ...errors, 409: ErrorBody },
        },
      },
      async (request, reply) => {
        const { account } = request.principal;
        const created = await retranslators.create(account, request.body);
        request.log.info({ accountId: account.id, retranslatorId: created.retranslatorID, dispatcherId: created.dispatcherID }, 'EGTS retranslator added');
        return reply.code(201).header('location', `/v6/api${base}/${created.retranslatorID}`).send(created);
      },
    );

    api.delete(`${base}/:retranslatorID`, { schema: { tags, summary: 'Stop letting an EGTS retranslator in (its open session keeps going until it closes)', params: ById, response: { 204: NoContent, ...errors } } }, async (request, reply) => {
      const { account } = request.principal;
      await retranslators.delete(account, request.params.retranslatorID);
      request.log.info({ accountId: account.id, retranslatorId: request.params.retranslatorID }, 'EGTS retranslator removed');
      return reply.code(204).send(null);
    });
  };
}
