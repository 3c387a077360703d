import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { TemplateList, TemplatePatch, TemplateWithExample, TemplateWrite } from './custom-field-schema.js';
import type { CustomFieldService } from './custom-field-service.js';

const tags = ['Custom fields'];
const ById = Type.Object({ customFieldsFormTemplateID: withExamples(Id, 9) });
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** `/v6/api/customFieldsManagement/customFields`: the templates zones, tasks and employees name. */
export function customFieldRoutes(templates: CustomFieldService) {
  return async (api: Api) => {
    const base = '/customFieldsManagement/customFields';
    const one = `${base}/:customFieldsFormTemplateID`;

    api.get(
      base,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'Custom-field templates',
          description:
            'The account’s templates: named lists of typed fields that zones, tasks and employees carry values for, naming the template by ' +
            '`customFieldsFormTemplateID`.',
          response: { 200: described(TemplateList, 'the templates'), ...errors },
        },
      },
      async (request) => templates.list(request.principal.account),
    );

    api.get(
      one,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'One custom-field template',
          description: 'The template and its fields. Another account’s is 404 code 1020.',
          params: ById,
          response: { 200: described(TemplateWithExample, 'the template'), ...errors },
        },
      },
      async (request) => templates.get(request.principal.account, request.params.customFieldsFormTemplateID),
    );

    api.post(
      base,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Create a custom-field template',
          description:
            '`name` is required. Each field has an `externalID` (what values name it by), a `name`, and a `type`: string, text, date, time, ' +
            'integer, double, boolean, select, picture or file, in any case; a select lists its `values`.',
          body: TemplateWrite,
          response: { 201: described(TemplateWithExample, 'the created template; `Location` names it'), ...errors },
        },
      },
      async (request, reply) => {
        const created = await templates.create(request.principal.account, request.body);
        return reply.code(201).header('location', `/v6/api${base}/${created.customFieldsFormTemplateID}`).send(created);
      },
    );

    api.put(
      one,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Replace a custom-field template',
          description: 'The whole template: fields left out of `customFieldFormItems` are removed from it.',
          params: ById,
          body: TemplateWrite,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await templates.replace(request.principal.account, request.params.customFieldsFormTemplateID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.patch(
      one,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Change the name or fields of a template',
          description: 'Only what the body carries changes; `customFieldFormItems`, when given, is the new list of fields.',
          params: ById,
          body: TemplatePatch,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await templates.patch(request.principal.account, request.params.customFieldsFormTemplateID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.delete(
      one,
      {
        config: { permission: 'edit' },
        schema: {
          tags,
          summary: 'Delete a custom-field template',
          description: 'The template is gone; zones, tasks and employees that name it keep their values.',
          params: ById,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        await templates.delete(request.principal.account, request.params.customFieldsFormTemplateID);
        return reply.code(204).send(null);
      },
    );
  };
}
