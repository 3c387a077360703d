import { Type, type Static, type TSchema } from 'typebox';
import { withExamples } from '../http/examples.js';
import { IdList } from '../http/list-params.js';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * A form filled on a task: the task's custom fields (its template and the values the coordinator
 * or the employee's phone wrote). One per task, so `formID` is the task's id.
 */
export const Form = Type.Object({
  formID: Type.Integer({ description: 'the id of the task the form belongs to' }),
  taskID: Type.Integer(),
  subscriberID: nullable(Type.Integer()),
  customFieldsFormTemplateID: nullable(Type.Integer()),
  templateName: nullable(Type.String({ description: 'null without a template, or when it was deleted' })),
  status: Type.Integer({ description: 'the task status' }),
  lastStatusChangeDate: Type.String(),
  customFieldFormItems: Type.Array(
    Type.Object({
      externalID: Type.String(),
      name: Type.String(),
      value: Type.Optional(nullable(Type.String())),
      values: Type.Optional(Type.Array(Type.String())),
      type: Type.String(),
    }),
  ),
  items: Type.Array(
    Type.Object({
      externalID: Type.String(),
      name: Type.String(),
      type: Type.String(),
      value: Type.Optional(nullable(Type.String())),
      values: Type.Optional(Type.Array(Type.String())),
      pictures: Type.Optional(
        Type.Array(
          Type.Object({
            pictureID: Type.Integer({ description: 'the fileID the field names' }),
            url: Type.String({ description: 'GET it with the bearer token (fileManagement/files)' }),
            contentType: Type.String(),
            size: Type.Integer({ description: 'bytes' }),
          }),
          { description: 'a picture or file field: the files it names, by id and URL' },
        ),
      ),
    }),
    { description: 'the filled fields as the original service’s clients read them, a picture or file field with its pictures’ ids and URLs' },
  ),
});
export type Form = Static<typeof Form>;

export const formExample: Form = {
  formID: 311,
  taskID: 311,
  subscriberID: 17,
  customFieldsFormTemplateID: 9,
  templateName: 'Delivery report',
  status: 3,
  lastStatusChangeDate: '2026-03-02T11:20:31+03:00',
  customFieldFormItems: [
    { externalID: 'payment', name: 'Payment', value: 'cash', type: 'select' },
    { externalID: 'signed-by', name: 'Signed by', value: 'A. Volkova', type: 'string' },
    { externalID: 'photo', name: 'Photo of the door', value: '41', type: 'picture' },
  ],
  items: [
    { externalID: 'payment', name: 'Payment', type: 'select', value: 'cash' },
    { externalID: 'signed-by', name: 'Signed by', type: 'string', value: 'A. Volkova' },
    {
      externalID: 'photo',
      name: 'Photo of the door',
      type: 'picture',
      value: '41',
      pictures: [{ pictureID: 41, url: 'https://lokator.example.com/v6/api/fileManagement/files/41', contentType: 'image/jpeg', size: 183204 }],
    },
  ],
};

export const FormListQuery = Type.Object({ taskIDs: withExamples(IdList, [311, 312]) });
export type FormListQuery = Static<typeof FormListQuery>;
