import { Type } from 'typebox';
import { Id } from '../http/list-params.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import { Form, FormListQuery } from './form-schema.js';
import type { FormService } from './form-service.js';

const tags = ['forms'];
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody };

/** `/v6/api/formManagement/forms`: the forms filled on tasks. */
export function formRoutes(forms: FormService) {
  return async (api: Api) => {
    const base = '/formManagement/forms';

    api.get(
      base,
      {
        schema: {
          tags,
          summary: 'The forms filled on the named tasks',
          description: '`taskIDs` as a comma list, repeated or `taskIDs[]`; tasks without a form, or not the account’s, are left out.',
          querystring: FormListQuery,
          response: { 200: Type.Array(Form), ...errors },
        },
      },
      async (request) => forms.list(request.principal.account, request.query.taskIDs),
    );

    api.get(
      `${base}/:formID`,
      { schema: { tags, summary: 'One form (its id is the task’s)', params: Type.Object({ formID: Id }), response: { 200: Form, ...errors } } },
      async (request) => forms.get(request.principal.account, request.params.formID),
    );
  };
}
