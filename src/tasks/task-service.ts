import type { Account, Principal } from '../accounts/accounts.js';
import { noAudit, type AuditRecorder } from '../audit/audit.js';
import { initiatorOf, type Change, type ChangeRecorder, type Initiator } from '../events/events.js';
import type { EmployeeDirectory } from '../employees/employees.js';
import { actedAtMs } from '../http/acted-at.js';
import { formatDateTime, parseDateTime } from '../http/datetime.js';
import { resolveBounds } from '../http/list-params.js';
import type { CustomFieldTemplates } from '../customfields/customfields.js';
import { ApiError, invalidField, type ValidationErrors } from '../http/errors.js';
import type { Database, Db, Tx } from '../store/database.js';
import { fillForm, fromRow, taskFromBody, taskWithStatus, toRow, toView, workOrderEmployees, type StoredTask } from './task-model.js';
import * as store from './task-store.js';
import { recordTaskChange, taskChanges } from './task-history.js';
import type { FormFill, MobileIdentity, MobileTaskList, StatusChange, Task, TaskChange, TaskListQuery, TaskWrite } from './task-schema.js';

const notFound = (id: number) => new ApiError('TASK_NOT_FOUND', `no task ${id}`);

/**
 * Tasks (CONTRACT §5, interface 2.8) and their change events (interface 6.4): every change is
 * written with its event in one transaction. Deleted tasks are kept as rows but are gone from
 * every route.
 */
export interface TaskServiceOptions {
  database: Database;
  /** The employees a task names are the account's living ones, and its views carry their names. */
  employees: Pick<EmployeeDirectory, 'identitiesOf'>;
  /** Where every change becomes its change event (interface 6.4). */
  events: ChangeRecorder;
  clock?: () => number;
  /** Checks the custom-field template and values a task names; none: not checked. */
  templates?: CustomFieldTemplates | null;
  /** Which of these file ids are files uploaded for the task: a form's picture and file fields may name only those. None: not checked. */
  formFiles?: FormFileCheck | null;
  /** Where every change is logged, in its transaction. */
  audit?: AuditRecorder;
}

/** Which of `ids` are living files of the task, in the caller's transaction. */
export type FormFileCheck = (executor: Db, accountId: number, taskID: number, ids: number[]) => Promise<Set<number>>;

/** The task statuses of interface 2.8, as the employee's app names them. */
const STATUS_KEYS = ['new', 'accepted', 'rejected', 'done', 'inProgress'] as const;
const DAY_MS = 86_400_000;

export class TaskService {
  private readonly database: Database;
  private readonly employees: Pick<EmployeeDirectory, 'identitiesOf'>;
  private readonly events: ChangeRecorder;
  private readonly clock: () => number;
  private readonly templates: CustomFieldTemplates | null;
  private readonly formFiles: FormFileCheck | null;
  private readonly audit: AuditRecorder;

  constructor({ database, employees, events, clock = Date.now, templates = null, formFiles = null, audit = noAudit }: TaskServiceOptions) {
    this.audit = audit;
    this.database = database;
    this.employees = employees;
    this.events = events;
    this.clock = clock;
    this.templates = templates;
    this.formFiles = formFiles;
  }

  /**
   * By start date, then id. A task is listed when its planned period (startDate to deadline, or
   * its start alone) overlaps the window, or when it changed within the window (created, a status
   * changed, edited: `updated_at`): a poll of the last minutes sees a task started hours ago and
   * finished a minute ago. `dateFrom`/`dateTo` each bound only when given.
   */
  async list(account: Account, query: TaskListQuery): Promise<Task[]> {
    const { fromMs, toMs } = resolveBounds(query, { from: 'dateFrom', to: 'dateTo' }, account.timeZone);
    const rows = await store.listTasks(this.database.db, account.id, {
      fromMs,
      toMs,
      subscriberIds: query.subscriberIDs,
      statuses: query.statuses,
      taskTypeIds: query.taskTypeIDs,
      count: query.count ?? 1000,
      offset: query.offset ?? 0,
    });
    return this.views(this.database.db, account, rows.map((row) => ({ id: row.id, task: fromRow(row) })));
  }

  async get(account: Account, taskID: number): Promise<Task> {
    const row = await this.find(this.database.db, account, taskID, null, false);
    return (await this.views(this.database.db, account, [row]))[0]!;
  }

  /** The task's changes, oldest first; a deleted task, or another account's, is a 404 code 18. */
  async history(account: Account, taskID: number): Promise<TaskChange[]> {
    await this.find(this.database.db, account, taskID, null, false);
    return taskChanges(this.database.db, account.id, taskID, account.timeZone);
  }

  async create(principal: Principal, input: TaskWrite): Promise<Task> {
    const { account } = principal;
    return this.database.transaction(async (tx) => {
      const now = this.clock();
      const task = taskFromBody(input, account.timeZone, null, true, now);
      await this.checkEmployees(tx, account, task);
      await this.templates?.checkUse(tx, account.id, templateUse(task), null);
      const id = await store.insertTask(tx, account.id, toRow(task), task.creationMs, now);
      const [after] = await this.views(tx, account, [{ id, task }]);
      await this.commit(tx, account, id, { type: 'add', after: after! }, initiatorOf(principal), now);
      return after!;
    });
  }

  async replace(principal: Principal, taskID: number, input: TaskWrite): Promise<void> {
    await this.update(principal.account, taskID, null, initiatorOf(principal), (before, now) =>
      taskFromBody(input, principal.account.timeZone, before, true, now),
    );
  }

  async patch(principal: Principal, taskID: number, input: TaskWrite): Promise<void> {
    await this.update(principal.account, taskID, null, initiatorOf(principal), (before, now) =>
      taskFromBody(input, principal.account.timeZone, before, false, now),
    );
  }

  async delete(principal: Principal, taskID: number): Promise<void> {
    const { account } = principal;
    await this.database.transaction(async (tx) => {
      const row = await this.find(tx, account, taskID, null, true);
      const now = this.clock();
      await store.markTaskDeleted(tx, account.id, taskID, now);
      const [before] = await this.views(tx, account, [row]);
      await this.commit(tx, account, taskID, { type: 'delete', before: before! }, initiatorOf(principal), now);
    });
  }

  /**
   * The employee's phone sets the status of one of the employee's own tasks (another's, or
   * another account's, is a 404 code 18); the change event names the employee as initiator. The
   * change is dated `actedAt`, when the employee acted, however much later it arrives.
   */
  async setStatusByEmployee(account: Account, subscriberID: number, taskID: number, input: StatusChange): Promise<Task> {
    const actedMs = actedAtMs(input.actedAt, account.timeZone, this.clock());
    const fields = await this.formFieldsOf(account, subscriberID, taskID, input.customFieldFormItems);
    return this.update(account, taskID, subscriberID, { subscriberID }, (before) => {
      const after = taskWithStatus(before, input.status, input.comment ?? null, actedMs);
      if (!input.customFieldFormItems) return after;
      return { ...after, customFieldFormItems: fillForm(before.customFieldFormItems, input.customFieldFormItems, (id) => fields.get(id)) };
    }, actedMs);
  }

  /** The employee fills the form of one of their own tasks without changing its status; checked as every form is. */
  async saveFormByEmployee(account: Account, subscriberID: number, taskID: number, input: FormFill): Promise<Task> {
    const actedMs = actedAtMs(input.actedAt, account.timeZone, this.clock());
    const fields = await this.formFieldsOf(account, subscriberID, taskID, input.customFieldFormItems);
    return this.update(account, taskID, subscriberID, { subscriberID }, (before) => ({
      ...before,
      customFieldFormItems: fillForm(before.customFieldFormItems, input.customFieldFormItems, (id) => fields.get(id)),
    }), actedMs);
  }

  /**
   * The employee's tasks of today (in the account's zone) and the `days` after, by start date,
   * then id, each with its form's template: what the employee's app shows.
   */
  async listForEmployee(account: Account, subscriberID: number, days: number): Promise<MobileTaskList> {
    const today = formatDateTime(this.clock(), account.timeZone).slice(0, 10);
    const fromMs = parseDateTime(`${today}T00:00`, account.timeZone)!.epochMs;
    const lastDay = new Date(Date.parse(`${today}T00:00:00Z`) + (days + 1) * DAY_MS).toISOString().slice(0, 10);
    const toMs = parseDateTime(`${lastDay}T00:00`, account.timeZone)!.epochMs - 1;
    const rows = await store.listTasks(this.database.db, account.id, { fromMs, toMs, subscriberIds: [subscriberID], count: 1000, offset: 0 });
    const tasks = await this.views(this.database.db, account, rows.map((row) => ({ id: row.id, task: fromRow(row) })));
    const forms = new Map<number, MobileTaskList['tasks'][number]['form']>();
    for (const id of new Set(tasks.map((t) => t.customFieldsFormTemplateID))) {
      if (id === null || !this.templates) continue;
      const template = await this.templates.find(this.database.db, account.id, id);
      forms.set(id, template && {
        customFieldsFormTemplateID: id,
        templateName: template.name,
        fields: template.customFieldFormItems.map((f) => ({ externalID: f.externalID, name: f.name, type: f.type.toLowerCase(), isRequired: f.isRequired, values: f.values })),
      });
    }
    return {
      timeZone: account.timeZone,
      from: formatDateTime(fromMs, account.timeZone),
      to: formatDateTime(toMs, account.timeZone),
      statuses: STATUS_KEYS.map((key, status) => ({ status, key })),
      tasks: tasks.map((task) => ({ ...task, form: task.customFieldsFormTemplateID === null ? null : (forms.get(task.customFieldsFormTemplateID) ?? null) })),
    };
  }

  /** The employee a device key names, as the app shows whose key it holds. */
  async employeeOfDevice(account: Account, subscriberID: number): Promise<MobileIdentity> {
    const identity = (await this.employees.identitiesOf(this.database.db, account.id, [subscriberID])).get(subscriberID);
    if (!identity?.living) throw new ApiError('USER_UNAUTHORIZED', 'the device key is unknown', undefined, { 'www-authenticate': 'Device' });
    return { subscriberID, name: identity.name, accountName: account.name, timeZone: account.timeZone, locale: account.locale };
  }

  /** For a filled form: the fields new to the task take their name and type from its template (checked for the employee's own task). */
  private async formFieldsOf(account: Account, subscriberID: number, taskID: number, filled: readonly unknown[] | undefined) {
    const fields = new Map<string, { name: string; type: string }>();
    if (!filled?.length || !this.templates) return fields;
    const { task } = await this.find(this.database.db, account, taskID, subscriberID, false);
    const template = task.customFieldsFormTemplateID === null ? null : await this.templates.find(this.database.db, account.id, task.customFieldsFormTemplateID);
    for (const f of template?.customFieldFormItems ?? []) fields.set(f.externalID, f);
    return fields;
  }

  /** The account's living tasks among `ids`, by id; for forms (`formManagement`). */
  async listByIds(account: Account, ids: number[]): Promise<Task[]> {
    if (ids.length === 0) return [];
    const rows = await store.tasksByIds(this.database.db, account.id, ids);
    return this.views(this.database.db, account, rows.map((row) => ({ id: row.id, task: fromRow(row) })));
  }

  private async update(
    account: Account,
    taskID: number,
    assignee: number | null,
    initiator: Initiator,
    change: (before: StoredTask, now: number) => StoredTask,
    /** When it happened, if earlier than now: the employee's `actedAt`. */
    actedMs?: number,
  ): Promise<Task> {
    return this.database.transaction(async (tx) => {
      const row = await this.find(tx, account, taskID, assignee, true);
      const now = this.clock();
      const task = change(row.task, now);
      // Employees are checked when they are named anew (a PATCH or status change that leaves them keeps the same array).
      if (task.subscriberID !== row.task.subscriberID || task.workOrders !== row.task.workOrders) await this.checkEmployees(tx, account, task);
      await this.templates?.checkUse(tx, account.id, templateUse(task), templateUse(row.task));
      await this.checkFormFiles(tx, account, taskID, task, row.task);
      await store.updateTask(tx, account.id, taskID, toRow(task), now);
      const [before, after] = await this.views(tx, account, [row, { id: taskID, task }]);
      await this.commit(tx, account, taskID, { type: 'edit', before: before!, after: after! }, initiator, now, actedMs ?? now);
      return after!;
    });
  }

  /** A living task of the account (and of `assignee`, when given); locked on PostgreSQL when about to change. */
  private async find(executor: Db, account: Account, taskID: number, assignee: number | null, forUpdate: boolean) {
    const row = await store.findTask(executor, account.id, taskID, assignee, forUpdate && this.database.dialect === 'postgres');
    if (!row) throw notFound(taskID);
    return { id: row.id, task: fromRow(row) };
  }

  /** The assignee and the employees of the work orders are living employees of the account (400 code 2 otherwise). */
  private async checkEmployees(tx: Tx, account: Account, task: StoredTask): Promise<void> {
    const named: [string, number][] = task.workOrders.map((w, i) => [`workOrders[${i}].subscriberID`, w.subscriberID]);
    if (task.subscriberID !== null) named.unshift(['subscriberID', task.subscriberID]);
    if (named.length === 0) return;
    const known = await this.employees.identitiesOf(tx, account.id, [...new Set(named.map(([, id]) => id))]);
    const problems: ValidationErrors = {};
    for (const [field, id] of named) if (!known.get(id)?.living) problems[field] = `no subscriber ${id}`;
    const fields = Object.keys(problems);
    if (fields.length === 1) throw invalidField(fields[0]!, problems[fields[0]!]!);
    if (fields.length > 1) throw new ApiError('BAD_REQUEST', 'the task names unknown subscribers', problems);
  }

  private async views(executor: Db, account: Account, rows: { id: number; task: StoredTask }[]): Promise<Task[]> {
    const employees = await this.employees.identitiesOf(executor, account.id, workOrderEmployees(rows.map((r) => r.task)));
    return rows.map(({ id, task }) => toView(id, task, account.timeZone, employees));
  }

  /**
   * The task's history, and the change event of interface 6.4 for the rules of the employees
   * assigned before and after; both dated `atMs`, when it happened (the employee's `actedAt`),
   * the event fired `now`.
   */
  private async commit(tx: Tx, account: Account, taskID: number, change: Change<Task>, initiator: Initiator, now: number, atMs = now): Promise<void> {
    await recordTaskChange(tx, account.id, taskID, change, initiator, atMs);
    const verb = change.type === 'add' ? 'create' : change.type === 'edit' ? 'update' : 'delete';
    await this.audit.record(tx, account.id, {
      kind: `task.${verb}`,
      objectId: taskID,
      before: change.type === 'add' ? null : change.before,
      after: change.type === 'delete' ? null : change.after,
    });
    const assignees = [change.type === 'add' ? null : change.before.subscriberID, change.type === 'delete' ? null : change.after.subscriberID];
    await this.events.record(tx, account, 'task', [{ change, entityId: taskID, subscriberIds: assignees, initiator, atMs, firedMs: now }]);
  }

  /**
   * A picture or file field's value names files by id (a comma list): each must be a file
   * uploaded for this task (400 code 2 naming the item otherwise). Only values that changed are
   * looked at, so a coordinator's edit of another field never trips on them.
   */
  private async checkFormFiles(tx: Tx, account: Account, taskID: number, task: StoredTask, before: StoredTask): Promise<void> {
    if (!this.formFiles) return;
    const named: { index: number; ids: number[] }[] = [];
    task.customFieldFormItems.forEach((item, index) => {
      if (!/^(picture|file)$/i.test(item.type) || !item.value) return;
      const previous = before.customFieldFormItems.find((b) => b.externalID === item.externalID);
      if (previous?.value === item.value) return;
      const parts = item.value.split(',').map((part) => part.trim());
      if (!parts.every((part) => /^[1-9]\d{0,15}$/.test(part))) throw invalidField(`customFieldFormItems[${index}].value`, 'must be the fileID of a file uploaded for this task, or a comma list of them');
      named.push({ index, ids: parts.map(Number) });
    });
    if (named.length === 0) return;
    const known = await this.formFiles(tx, account.id, taskID, named.flatMap((n) => n.ids));
    for (const { index, ids } of named) {
      const missing = ids.find((id) => !known.has(id));
      if (missing !== undefined) throw invalidField(`customFieldFormItems[${index}].value`, `no file ${missing} was uploaded for this task`);
    }
  }
}

const templateUse = (task: StoredTask) => ({ templateID: task.customFieldsFormTemplateID, items: task.customFieldFormItems });
