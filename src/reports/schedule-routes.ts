import { described } from '../http/examples.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { ReportScheduleList, ReportSchedulePatch, ReportScheduleWithExample, ReportScheduleWrite, ScheduleParams } from './schedule-schema.js';
import type { ScheduleService } from './schedule-service.js';

const tags = ['Reports'];
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** `/v6/api/reports/schedules`: reports e-mailed as XLSX on a schedule in the account's zone. */
export function scheduleRoutes(schedules: ScheduleService) {
  return async (api: Api) => {
    const base = '/reports/schedules';

    api.get(
      base,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'Report schedules, by id',
          description: 'The account’s report schedules: which report, for whom, to which addresses, how often, and when each is next sent.',
          response: { 200: described(ReportScheduleList, 'the schedules'), ...errors },
        },
      },
      async (request) => schedules.list(request.principal.account),
    );

    api.get(
      `${base}/:reportScheduleID`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'One report schedule',
          description: 'The schedule and when it is next sent. Another account’s is 404 code 1023.',
          params: ScheduleParams,
          response: { 200: described(ReportScheduleWithExample, 'the schedule'), ...errors },
        },
      },
      async (request) => schedules.get(request.principal.account, request.params.reportScheduleID),
    );

    api.post(
      base,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Create a report schedule',
          description:
            'Each send e-mails the report of the period before it (daily: the day before; weekly: the seven days before; monthly: the month ' +
            'before) as an XLSX attachment to every recipient, at `time` in the account’s time zone. ' +
            '`weekday` is required when weekly, `monthDay` (1 to 28) when monthly. ' +
            'Sends are outbox deliveries, listed in the deliveries log without a rule.',
          body: ReportScheduleWrite,
          response: { 201: described(ReportScheduleWithExample, 'the created schedule; `Location` names it'), ...errors },
        },
      },
      async (request, reply) => {
        const created = await schedules.create(request.principal.account, request.body);
        return reply.code(201).header('location', `/v6/api${base}/${created.reportScheduleID}`).send(created);
      },
    );

    api.put(
      `${base}/:reportScheduleID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Replace a report schedule',
          description: 'The whole schedule: the next send is computed again from it.',
          params: ScheduleParams,
          body: ReportScheduleWrite,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await schedules.replace(request.principal.account, request.params.reportScheduleID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.patch(
      `${base}/:reportScheduleID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Change some fields of a report schedule',
          description: 'Only the fields in the body change; `enabled: false` pauses it (`nextSendDate` becomes null).',
          params: ScheduleParams,
          body: ReportSchedulePatch,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await schedules.patch(request.principal.account, request.params.reportScheduleID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.delete(
      `${base}/:reportScheduleID`,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Delete a report schedule',
          description: 'No more sends; what was already sent stays in the deliveries log.',
          params: ScheduleParams,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await schedules.delete(request.principal.account, request.params.reportScheduleID);
        return reply.code(204).send(null);
      },
    );
  };
}
