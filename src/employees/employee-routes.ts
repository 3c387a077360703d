import type { FastifyBaseLogger } from 'fastify';
import { Type } from 'typebox';
import { Id } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { Employee, EmployeeListQuery, EmployeePatch, EmployeeView, EmployeeWrite, toEmployeeView } from './employee-schema.js';
import { DeviceKeyProbes } from './device-key-probes.js';
import type { EmployeeService } from './employee-service.js';

const tags = ['employees'];
const ById = Type.Object({ subscriberID: Id });
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody };

/** `/v6/api/subscriberManagement/subscribers` (CONTRACT §5). */
export function employeeRoutes(employees: EmployeeService, probes = new DeviceKeyProbes()) {
  /** A write that names a device key goes through the probe throttle (see DeviceKeyProbes); others do not. */
  const guarded = <T>(request: { principal: { account: { id: number } }; ip: string; log: FastifyBaseLogger; body: { deviceKey?: string | null } }, write: () => Promise<T>) =>
    typeof request.body.deviceKey === 'string' ? probes.guard(request.principal.account.id, request.ip, request.log, write) : write();
  return async (api: Api) => {
    const base = '/subscriberManagement/subscribers';

    api.get(
      base,
      { schema: { tags, summary: 'List employees', querystring: EmployeeListQuery, response: { 200: Type.Array(EmployeeView), ...errors } } },
      async (request) => (await employees.list(request.principal.account, request.query)).map(toEmployeeView),
    );

    api.get(
      `${base}/externalID/:externalID`,
      {
        schema: {
          tags,
          summary: 'One employee by external id',
          params: Type.Object({ externalID: Type.String({ minLength: 1, maxLength: 200 }) }),
          response: { 200: EmployeeView, ...errors },
        },
      },
      async (request) => toEmployeeView(await employees.getByExternalId(request.principal.account, request.params.externalID)),
    );

    api.get(
      `${base}/:subscriberID`,
      { schema: { tags, summary: 'One employee', params: ById, response: { 200: EmployeeView, ...errors } } },
      async (request) => toEmployeeView(await employees.get(request.principal.account, request.params.subscriberID)),
    );

    api.post(
      base,
      { schema: { tags, summary: 'Create an employee (the only answer that shows its whole deviceKey)', body: EmployeeWrite, response: { 201: Employee, ...errors } } },
      async (request, reply) => {
        const created = await guarded(request, () => employees.create(request.principal, request.body));
        return reply.code(201).header('location', `/v6/api${base}/${created.subscriberID}`).send(created);
      },
    );

    api.put(
      `${base}/:subscriberID`,
      { schema: { tags, summary: 'Replace an employee', params: ById, body: EmployeeWrite, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await guarded(request, () => employees.replace(request.principal, request.params.subscriberID, request.body));
        return reply.code(204).send(null);
      },
    );

    api.patch(
      `${base}/:subscriberID`,
      { schema: { tags, summary: 'Change some fields of an employee', params: ById, body: EmployeePatch, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await guarded(request, () => employees.patch(request.principal, request.params.subscriberID, request.body));
        return reply.code(204).send(null);
      },
    );

    api.delete(
      `${base}/:subscriberID`,
      { schema: { tags, summary: 'Delete an employee (its fixes stay in the history)', params: ById, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await employees.delete(request.principal, request.params.subscriberID);
        return reply.code(204).send(null);
      },
    );
  };
}
