import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { RetranslatorList, RetranslatorWithExample, RetranslatorWrite } from './retranslator-schema.js';
import type { EgtsRetranslators } from './retranslators.js';

const tags = ['Tracker management'];
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };
const ById = Type.Object({ retranslatorID: withExamples(Id, 2) });

/**
 * The EGTS retranslators of the account (docs/operators/devices-egts.md): platforms that relay its vehicles
 * to the EGTS port. An extension of the interface. Additions and removals are logged (no password).
 */
export function retranslatorRoutes(retranslators: EgtsRetranslators) {
  return async (api: Api) => {
    const base = '/trackerManagement/egtsRetranslators';

    api.get(
      base,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'List EGTS retranslators',
          description:
            'Platforms (a regional monitoring centre, another telematics server) that relay this account’s vehicles to the EGTS port. ' +
            'A retranslator signs in with its dispatcher id and password; the vehicles it relays are matched to employees by their device keys. ' +
            'Passwords are never shown.',
          response: { 200: described(RetranslatorList, 'the retranslators'), ...errors },
        },
      },
      async (request) => retranslators.list(request.principal.account),
    );

    api.get(
      `${base}/:retranslatorID`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'One EGTS retranslator',
          description: 'The retranslator, without its password. Another account’s is 404 code 1024.',
          params: ById,
          response: { 200: described(RetranslatorWithExample, 'the retranslator'), ...errors },
        },
      },
      async (request) => retranslators.get(request.principal.account, request.params.retranslatorID),
    );

    api.post(
      base,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Allow an EGTS retranslator',
          description:
            'Lets the platform with this dispatcher id (DID) sign in on the EGTS port with this password (8 to 31 printable ASCII characters, ' +
            'kept as a hash and never shown again). A dispatcher id already allowed in the account is 409 code 1008.',
          body: RetranslatorWrite,
          response: { 201: described(RetranslatorWithExample, 'the retranslator, without its password; `Location` names it'), ...errors, 409: ErrorBody },
        },
      },
      async (request, reply) => {
        const { account } = request.principal;
        const created = await retranslators.create(account, request.body);
        request.log.info({ accountId: account.id, retranslatorId: created.retranslatorID, dispatcherId: created.dispatcherID }, 'EGTS retranslator added');
        return reply.code(201).header('location', `/v6/api${base}/${created.retranslatorID}`).send(created);
      },
    );

    api.delete(
      `${base}/:retranslatorID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Remove an EGTS retranslator',
          description: 'It can no longer sign in; a session already open keeps going until it closes.',
          params: ById,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        const { account } = request.principal;
        await retranslators.delete(account, request.params.retranslatorID);
        request.log.info({ accountId: account.id, retranslatorId: request.params.retranslatorID }, 'EGTS retranslator removed');
        return reply.code(204).send(null);
      },
    );
  };
}
