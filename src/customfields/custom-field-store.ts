import type { Db, Tx } from '../store/database.js';
import type { StoredField } from './custom-field-schema.js';

export interface TemplateRow {
  id: number;
  name: string;
  fields: StoredField[];
}

const columns = ['id', 'name', 'fields'] as const;
const toRow = (row: { id: number; name: string; fields: string }): TemplateRow => ({ ...row, fields: JSON.parse(row.fields) as StoredField[] });

/** The account's living templates, by id. */
export async function listTemplates(db: Db, accountId: number): Promise<TemplateRow[]> {
  const rows = await db.selectFrom('custom_field_templates').select(columns).where('account_id', '=', accountId).where('deleted_at', 'is', null).orderBy('id').execute();
  return rows.map(toRow);
}

/** One living template of the account; on PostgreSQL a write's read locks it against a concurrent delete. */
export async function findTemplate(executor: Db | Tx, accountId: number, id: number, lock: 'share' | 'update' | null = null): Promise<TemplateRow | null> {
  let select = executor.selectFrom('custom_field_templates').select(columns).where('account_id', '=', accountId).where('id', '=', id).where('deleted_at', 'is', null);
  if (lock === 'share') select = select.forShare();
  if (lock === 'update') select = select.forUpdate();
  const row = await select.executeTakeFirst();
  return row ? toRow(row) : null;
}

export async function insertTemplate(tx: Tx, accountId: number, name: string, fields: StoredField[], now: number): Promise<number> {
  const { id } = await tx
    .insertInto('custom_field_templates')
    .values({ account_id: accountId, name, fields: JSON.stringify(fields), created_at: now, updated_at: now, deleted_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Rewrites a living template; false when there is none of that id. */
export async function updateTemplate(tx: Tx, accountId: number, id: number, name: string, fields: StoredField[], now: number): Promise<boolean> {
  const result = await tx
    .updateTable('custom_field_templates')
    .set({ name, fields: JSON.stringify(fields), updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Marks a living template deleted (its id is never reused); false when there is none of that id. */
export async function deleteTemplate(tx: Tx, accountId: number, id: number, now: number): Promise<boolean> {
  const result = await tx
    .updateTable('custom_field_templates')
    .set({ deleted_at: now, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
