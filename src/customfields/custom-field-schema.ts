import { Type, type Static } from 'typebox';
import { withExamples } from '../http/examples.js';

const text = (minLength: number, maxLength: number) => Type.String({ minLength, maxLength });

/** One typed field of a template; `type` is one of interface 2.8's custom-field types, any case. */
export const TemplateField = Type.Object(
  {
    externalID: text(1, 200),
    name: text(1, 200),
    type: text(1, 20),
    isRequired: Type.Optional(Type.Boolean()),
    values: Type.Optional(Type.Array(text(1, 1000), { maxItems: 200, description: 'the choices of a select field' })),
  },
  { additionalProperties: false },
);
export type TemplateField = Static<typeof TemplateField>;

const fields = Type.Array(TemplateField, { maxItems: 200 });

/** POST and PUT: `name` required; `customFieldFormItems` (the fields) default to none. */
export const TemplateWrite = withExamples(Type.Object({ name: text(1, 200), customFieldFormItems: Type.Optional(fields) }, { additionalProperties: false }), {
  name: 'Delivery report',
  customFieldFormItems: [
    { externalID: 'payment', name: 'Payment', type: 'select', isRequired: true, values: ['cash', 'card'] },
    { externalID: 'signed-by', name: 'Signed by', type: 'string' },
  ],
});
export type TemplateWrite = Static<typeof TemplateWrite>;

export const TemplatePatch = withExamples(
  Type.Object({ name: Type.Optional(text(1, 200)), customFieldFormItems: Type.Optional(fields) }, { additionalProperties: false }),
  { name: 'Delivery report (2026)' },
);
export type TemplatePatch = Static<typeof TemplatePatch>;

export const StoredField = Type.Object({
  externalID: Type.String(),
  name: Type.String(),
  type: Type.String(),
  isRequired: Type.Boolean(),
  values: Type.Array(Type.String()),
});
export type StoredField = Static<typeof StoredField>;

/** A template as answered: the id that zones, tasks and employees carry as customFieldsFormTemplateID. */
export const Template = Type.Object({
  customFieldsFormTemplateID: Type.Integer(),
  name: Type.String(),
  customFieldFormItems: Type.Array(StoredField),
});
export type Template = Static<typeof Template>;

const templateExample: Template = {
  customFieldsFormTemplateID: 9,
  name: 'Delivery report',
  customFieldFormItems: [
    { externalID: 'payment', name: 'Payment', type: 'select', isRequired: true, values: ['cash', 'card'] },
    { externalID: 'signed-by', name: 'Signed by', type: 'string', isRequired: false, values: [] },
  ],
};
export const TemplateWithExample = withExamples(Template, templateExample);
export const TemplateList = withExamples(Type.Array(Template), [
  templateExample,
  {
    customFieldsFormTemplateID: 4,
    name: 'Warehouse',
    customFieldFormItems: [{ externalID: 'opening-hours', name: 'Opening hours', type: 'string', isRequired: false, values: [] }],
  },
]);
