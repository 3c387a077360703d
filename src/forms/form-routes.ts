import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { described, withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import { Form, formExample, FormListQuery } from './form-schema.js';
import type { FormService } from './form-service.js';

const tags = ['Forms'];

/** The address the client reached this server at: the pictures' URLs in `items` start with it. */
const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** `/v6/api/formManagement/forms`: the forms filled on tasks. */
export function formRoutes(forms: FormService) {
  return async (api: Api) => {
    const base = '/formManagement/forms';

    api.get(
      base,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'The forms filled on the named tasks',
          description:
            'The form of each task named in `taskIDs` (a comma list, repeated, or `taskIDs[]`): its template and the values the coordinator or ' +
            'the employee’s phone wrote. Tasks without a form, or not the account’s, are left out. `items` carries the same fields as the original ' +
            'service’s clients read them: a picture or file field with `pictures`, the ids and download URLs of the files it names.',
          querystring: FormListQuery,
          response: { 200: described(withExamples(Type.Array(Form), [formExample]), 'the forms'), ...errors },
        },
      },
      async (request) => forms.list(request.principal.account, request.query.taskIDs, originOf(request)),
    );

    api.get(
      `${base}/:formID`,
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'One form',
          description: 'The form of one task: a task has one form, so `formID` is the task’s id. A task without custom fields has none: 404 code 1021.',
          params: Type.Object({ formID: withExamples(Id, 311) }),
          response: { 200: described(withExamples(Form, formExample), 'the form'), ...errors },
        },
      },
      async (request) => forms.get(request.principal.account, request.params.formID, originOf(request)),
    );
  };
}
