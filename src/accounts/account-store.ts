import type { Db, Tx } from '../store/database.js';

/** The statements of accounts (their tokens: token-store.ts). An account's own row is found by its id, the account's id. */

export type AccountRow = {
  id: number;
  name: string;
  time_zone: string;
  sms_enabled: number;
  settings: string;
  retention_days: number | null;
  locale: string;
  settings_confirmed_at: number | null;
};
const accountColumns = ['id', 'name', 'time_zone', 'sms_enabled', 'settings', 'retention_days', 'locale', 'settings_confirmed_at'] as const;

export async function findAccount(db: Db | Tx, accountId: number): Promise<AccountRow | null> {
  const row = await db.selectFrom('accounts').select(accountColumns).where('id', '=', accountId).executeTakeFirst();
  return row ?? null;
}

/**
 * The operator's change: the paid SMS option and the days of fixes kept; or the account's own
 * settings document (JSON); fields left out stay (at least one is given).
 */
export async function changeAccount(db: Db | Tx, accountId: number, change: { smsEnabled?: boolean; retentionDays?: number | null; settings?: string }): Promise<void> {
  const set = {
    ...(change.smsEnabled === undefined ? {} : { sms_enabled: change.smsEnabled ? 1 : 0 }),
    ...(change.retentionDays === undefined ? {} : { retention_days: change.retentionDays }),
    ...(change.settings === undefined ? {} : { settings: change.settings }),
  };
  await db.updateTable('accounts').set(set).where('id', '=', accountId).execute();
}

/**
 * The account's own change of its name, zone and language (fields left out stay); the first one
 * marks the zone and language as confirmed, which ends the workspace's first-sign-in question.
 */
export async function changeAccountProfile(db: Db | Tx, accountId: number, change: { name?: string; timeZone?: string; locale?: string }, now: number): Promise<void> {
  await db
    .updateTable('accounts')
    .set((eb) => ({
      ...(change.name === undefined ? {} : { name: change.name }),
      ...(change.timeZone === undefined ? {} : { time_zone: change.timeZone }),
      ...(change.locale === undefined ? {} : { locale: change.locale }),
      settings_confirmed_at: eb.fn.coalesce('settings_confirmed_at', eb.val(now)),
    }))
    .where('id', '=', accountId)
    .execute();
}

/** Whether any account exists (the first start creates one). */
export async function anyAccount(db: Db): Promise<boolean> {
  const row = await db.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Every account, for the operator. */
export async function listAccounts(db: Db): Promise<AccountRow[]> {
  return db.selectFrom('accounts').select(accountColumns).orderBy('id').execute();
}

export async function insertAccount(tx: Tx, account: { name: string; timeZone: string }, now: number): Promise<AccountRow> {
  return tx
    .insertInto('accounts')
    .values({ name: account.name, time_zone: account.timeZone, sms_enabled: 0, created_at: now })
    .returning(accountColumns)
    .executeTakeFirstOrThrow();
}
