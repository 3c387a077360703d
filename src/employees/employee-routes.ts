import type { FastifyBaseLogger } from 'fastify';
import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { formatDateTime } from '../http/datetime.js';
import { Id } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { Employee, employeeExample, EmployeeListQuery, EmployeePatch, EmployeeView, employeeViewExample, EmployeeWrite, toEmployeeView } from './employee-schema.js';
import { DeviceKeyProbes } from './device-key-probes.js';
import type { EmployeeService } from './employee-service.js';

const tags = ['Employee management'];
const ById = Type.Object({ subscriberID: withExamples(Id, 17) });
const Created = described(withExamples(Employee, employeeExample), 'the created employee with its whole `deviceKey`; `Location` names it');
const Viewed = described(withExamples(EmployeeView, employeeViewExample), 'the employee, its device key shown only by `deviceKeyHint`');
/** Dates of a read in the account's time zone (CONTRACT §1). */
const dates =
  (request: { principal: { account: { timeZone: string } } }) =>
  (epochMs: number) =>
    formatDateTime(epochMs, request.principal.account.timeZone);
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
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'List employees',
          description:
            'The account’s employees, all of them or those the filters name (filters given together must all hold), by subscriberID. ' +
            'Without `count` every employee is answered. Reads never show a device key, only its last characters in `deviceKeyHint`. ' +
            '`withCustomTemplateItems=false` leaves out the custom fields.',
          querystring: EmployeeListQuery,
          response: { 200: described(withExamples(Type.Array(EmployeeView), [employeeViewExample]), 'the employees'), ...errors },
        },
      },
      async (request) => (await employees.list(request.principal.account, request.query)).map((e) => toEmployeeView(e, dates(request))),
    );

    api.get(
      `${base}/externalID/:externalID`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'One employee by external id',
          description: 'The employee whose `externalSubscriberID` is this, as your own system names them. None is 404 code 12.',
          params: Type.Object({ externalID: withExamples(Type.String({ minLength: 1, maxLength: 200 }), 'EMP-0042') }),
          response: { 200: Viewed, ...errors },
        },
      },
      async (request) => toEmployeeView(await employees.getByExternalId(request.principal.account, request.params.externalID), dates(request)),
    );

    api.get(
      `${base}/:subscriberID`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'One employee',
          description: 'The employee. A deleted one, or another account’s, is 404 code 12.',
          params: ById,
          response: { 200: Viewed, ...errors },
        },
      },
      async (request) => toEmployeeView(await employees.get(request.principal.account, request.params.subscriberID), dates(request)),
    );

    api.post(
      base,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Create an employee (the only answer that shows its whole deviceKey)',
          description:
            '`name` is required; the rest take their defaults. Without a `deviceKey` one is generated (12 characters): the phone sends it to the ' +
            'OsmAnd port, and this answer is the only one that shows it whole. ' +
            'A key already in use is 409 code 1008; `externalSubscriberID` is unique in the account (409 code 4). ' +
            '`vehicleSettings` sets the thresholds of vehicle events. Fires the employee-added event (interface 6.5).',
          body: EmployeeWrite,
          response: { 201: Created, ...errors },
        },
      },
      async (request, reply) => {
        const created = await guarded(request, () => employees.create(request.principal, request.body));
        return reply.code(201).header('location', `/v6/api${base}/${created.subscriberID}`).send(created);
      },
    );

    api.put(
      `${base}/:subscriberID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Replace an employee',
          description:
            'The whole employee: a field left out takes its default. ' +
            'Answers 200 with the employee, not 204: the original service does, and its clients treat any other status as a failure. ' +
            'Fires the employee-changed event with the previous values of the changed fields.',
          params: ById,
          body: EmployeeWrite,
          response: { 200: Viewed, ...errors },
        },
      },
      async (request) => toEmployeeView(await guarded(request, () => employees.replace(request.principal, request.params.subscriberID, request.body)), dates(request)),
    );

    api.patch(
      `${base}/:subscriberID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Change some fields of an employee',
          description:
            'Only the fields in the body change. ' +
            'Answers 200 with the employee, not 204: the original service does, and its clients treat any other status as a failure. ' +
            'Fires the employee-changed event with the previous values of the changed fields.',
          params: ById,
          body: EmployeePatch,
          response: { 200: Viewed, ...errors },
        },
      },
      async (request) => toEmployeeView(await guarded(request, () => employees.patch(request.principal, request.params.subscriberID, request.body)), dates(request)),
    );

    api.delete(
      `${base}/:subscriberID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Delete an employee',
          description:
            'The employee is gone from every employee route (404 code 12) and cannot send fixes; the fixes, tracks and reports of the past keep ' +
            'it. Its external id and device key become free. Fires the employee-deleted event.',
          params: ById,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await employees.delete(request.principal, request.params.subscriberID);
        return reply.code(204).send(null);
      },
    );
  };
}
