import type { Account } from '../accounts/accounts.js';
import { ApiError, invalidField } from '../http/errors.js';
import type { Database, Db, Tx } from '../store/database.js';
import type { StoredField, Template, TemplateField, TemplatePatch, TemplateWrite } from './custom-field-schema.js';
import { deleteTemplate, findTemplate, insertTemplate, listTemplates, updateTemplate, type TemplateRow } from './custom-field-store.js';
import { customFieldTypes, knownType, valueProblem } from './custom-field-values.js';

const notFound = (id: number) => new ApiError('CUSTOM_FIELD_TEMPLATE_NOT_FOUND', `no custom field template ${id}`);

/** A filled custom-field item of a zone, task or employee (interface 2.5, 2.8, 2.9). */
export interface FilledItem {
  externalID: string;
  type: string;
  value?: string | null;
  values?: string[];
}

/** What an object carries of a template: its id and its filled items, before and after a write. */
export interface TemplateUse {
  templateID: number | null;
  items: readonly FilledItem[] | undefined;
}

/**
 * Custom-field templates (`/v6/api/customFieldsManagement/customFields`) and the check every
 * zone, task and employee write passes: the template it names exists, and each value fits its type.
 */
export class CustomFieldService {
  constructor(
    private readonly database: Database,
    private readonly clock: () => number = Date.now,
  ) {}

  async list(account: Account): Promise<Template[]> {
    return (await listTemplates(this.database.db, account.id)).map(toTemplate);
  }

  async get(account: Account, id: number): Promise<Template> {
    const row = await findTemplate(this.database.db, account.id, id);
    if (!row) throw notFound(id);
    return toTemplate(row);
  }

  async create(account: Account, input: TemplateWrite): Promise<Template> {
    const fields = storedFields(input.customFieldFormItems ?? []);
    return this.database.transaction(async (tx) => {
      const id = await insertTemplate(tx, account.id, input.name, fields, this.clock());
      return { customFieldsFormTemplateID: id, name: input.name, customFieldFormItems: fields };
    });
  }

  async replace(account: Account, id: number, input: TemplateWrite): Promise<void> {
    const fields = storedFields(input.customFieldFormItems ?? []);
    await this.database.transaction(async (tx) => {
      if (!(await updateTemplate(tx, account.id, id, input.name, fields, this.clock()))) throw notFound(id);
    });
  }

  async patch(account: Account, id: number, input: TemplatePatch): Promise<void> {
    const fields = input.customFieldFormItems === undefined ? undefined : storedFields(input.customFieldFormItems);
    await this.database.transaction(async (tx) => {
      const before = await findTemplate(tx, account.id, id, this.lock('update'));
      if (!before) throw notFound(id);
      await updateTemplate(tx, account.id, id, input.name ?? before.name, fields ?? before.fields, this.clock());
    });
  }

  /** Zones, tasks and employees that name the template keep their id and values (docs/integrators/clients.md: a deleted template). */
  async delete(account: Account, id: number): Promise<void> {
    await this.database.transaction(async (tx) => {
      if (!(await deleteTemplate(tx, account.id, id, this.clock()))) throw notFound(id);
    });
  }

  /** The account's template `id`, or null; for forms, which show the template's name. */
  async find(executor: Db, accountId: number, id: number): Promise<Template | null> {
    const row = await findTemplate(executor, accountId, id);
    return row ? toTemplate(row) : null;
  }

  /**
   * In the transaction of a zone, task or employee write: when the template or the items changed,
   * the template must be a living one of the account (400 code 2 on `customFieldsFormTemplateID`)
   * and each item must fit: its `externalID` a field of the template and its value the field's type;
   * without a template, each value fits the item's own type. Unchanged, nothing is read, so an
   * object whose template was deleted can still be edited in its other fields.
   */
  async checkUse(tx: Tx, accountId: number, after: TemplateUse, before: TemplateUse | null): Promise<void> {
    const items = after.items ?? [];
    if (before && before.templateID === after.templateID && JSON.stringify(before.items ?? []) === JSON.stringify(items)) return;
    let fields: Map<string, StoredField> | null = null;
    if (after.templateID !== null) {
      const template = await findTemplate(tx, accountId, after.templateID, this.lock('share'));
      if (!template) throw invalidField('customFieldsFormTemplateID', `no custom field template ${after.templateID}`);
      fields = new Map(template.fields.map((f) => [f.externalID, f]));
    }
    items.forEach((item, i) => {
      const at = `customFieldFormItems[${i}]`;
      const field = fields?.get(item.externalID);
      if (fields && !field) throw invalidField(`${at}.externalID`, `is not a field of template ${after.templateID}`);
      const type = knownType(field?.type ?? item.type);
      if (!type) throw invalidField(`${at}.type`, `must be one of ${customFieldTypes.join(', ')}`);
      if (field && knownType(item.type) !== type) throw invalidField(`${at}.type`, `must be ${field.type}, the type of the template's field`);
      const problem = valueProblem(type, item.value, field?.values);
      if (problem) throw invalidField(`${at}.value`, problem);
      item.values?.forEach((value, j) => {
        const why = valueProblem(type, value, field?.values);
        if (why) throw invalidField(`${at}.values[${j}]`, why);
      });
    });
  }

  private lock(kind: 'share' | 'update'): 'share' | 'update' | null {
    return this.database.dialect === 'postgres' ? kind : null;
  }
}

function storedFields(fields: TemplateField[]): StoredField[] {
  const seen = new Set<string>();
  return fields.map((field, i) => {
    if (!knownType(field.type)) throw invalidField(`customFieldFormItems[${i}].type`, `must be one of ${customFieldTypes.join(', ')}`);
    if (seen.has(field.externalID)) throw invalidField(`customFieldFormItems[${i}].externalID`, 'is already a field of this template');
    seen.add(field.externalID);
    return { externalID: field.externalID, name: field.name, type: field.type, isRequired: field.isRequired ?? false, values: field.values ?? [] };
  });
}

function toTemplate(row: TemplateRow): Template {
  return { customFieldsFormTemplateID: row.id, name: row.name, customFieldFormItems: row.fields };
}
