import { Type } from 'typebox';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { ReportSchedule, ReportSchedulePatch, ReportScheduleWrite, ScheduleParams } from './schedule-schema.js';
import type { ScheduleService } from './schedule-service.js';

const tags = ['reports'];
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** `/v6/api/reports/schedules`: reports e-mailed as XLSX on a schedule in the account's zone. */
export function scheduleRoutes(schedules: ScheduleService) {
  return async (api: Api) => {
    const base = '/reports/schedules';

    api.get(
      base,
      { schema: { tags, summary: 'Report schedules, by id', response: { 200: Type.Array(ReportSchedule), ...errors } } },
      async (request) => schedules.list(request.principal.account),
    );

    api.get(
      `${base}/:reportScheduleID`,
      { schema: { tags, summary: 'One report schedule', params: ScheduleParams, response: { 200: ReportSchedule, ...errors } } },
      async (request) => schedules.get(request.principal.account, request.params.reportScheduleID),
    );

    api.post(
      base,
      {
        schema: {
          tags,
          summary: 'Create a report schedule',
          description: 'Each send e-mails the report of the period before it (daily: the day before; weekly: the seven days before; monthly: the month before) as an XLSX attachment to every recipient.',
          body: ReportScheduleWrite,
          response: { 201: ReportSchedule, ...errors },
        },
      },
      async (request, reply) => {
        const created = await schedules.create(request.principal.account, request.body);
        return reply.code(201).header('location', `/v6/api${base}/${created.reportScheduleID}`).send(created);
      },
    );

    api.put(
      `${base}/:reportScheduleID`,
      { schema: { tags, summary: 'Replace a report schedule', params: ScheduleParams, body: ReportScheduleWrite, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await schedules.replace(request.principal.account, request.params.reportScheduleID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.patch(
      `${base}/:reportScheduleID`,
      { schema: { tags, summary: 'Change some fields of a report schedule', params: ScheduleParams, body: ReportSchedulePatch, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await schedules.patch(request.principal.account, request.params.reportScheduleID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.delete(
      `${base}/:reportScheduleID`,
      { schema: { tags, summary: 'Delete a report schedule', params: ScheduleParams, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await schedules.delete(request.principal.account, request.params.reportScheduleID);
        return reply.code(204).send(null);
      },
    );
  };
}
