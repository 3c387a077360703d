import { Type } from 'typebox';
import { Id } from '../http/list-params.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { Template, TemplatePatch, TemplateWrite } from './custom-field-schema.js';
import type { CustomFieldService } from './custom-field-service.js';

const tags = ['custom fields'];
const ById = Type.Object({ customFieldsFormTemplateID: Id });
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** `/v6/api/customFieldsManagement/customFields`: the templates zones, tasks and employees name. */
export function customFieldRoutes(templates: CustomFieldService) {
  return async (api: Api) => {
    const base = '/customFieldsManagement/customFields';
    const one = `${base}/:customFieldsFormTemplateID`;

    api.get(base, { schema: { tags, summary: 'Custom-field templates', response: { 200: Type.Array(Template), ...errors } } }, async (request) =>
      templates.list(request.principal.account),
    );

    api.get(one, { schema: { tags, summary: 'One custom-field template', params: ById, response: { 200: Template, ...errors } } }, async (request) =>
      templates.get(request.principal.account, request.params.customFieldsFormTemplateID),
    );

    api.post(
      base,
      { schema: { tags, summary: 'Create a custom-field template', body: TemplateWrite, response: { 201: Template, ...errors } } },
      async (request, reply) => {
        const created = await templates.create(request.principal.account, request.body);
        return reply.code(201).header('location', `/v6/api${base}/${created.customFieldsFormTemplateID}`).send(created);
      },
    );

    api.put(
      one,
      { schema: { tags, summary: 'Replace a custom-field template', params: ById, body: TemplateWrite, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await templates.replace(request.principal.account, request.params.customFieldsFormTemplateID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.patch(
      one,
      { schema: { tags, summary: 'Change the name or fields of a template', params: ById, body: TemplatePatch, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await templates.patch(request.principal.account, request.params.customFieldsFormTemplateID, request.body);
        return reply.code(204).send(null);
      },
    );

    api.delete(
      one,
      { schema: { tags, summary: 'Delete a template (objects naming it keep their values)', params: ById, response: { 204: NoContent, ...errors } } },
      async (request, reply) => {
        await templates.delete(request.principal.account, request.params.customFieldsFormTemplateID);
        return reply.code(204).send(null);
      },
    );
  };
}
