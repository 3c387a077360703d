import type { Account, Principal } from '../accounts/accounts.js';
import { noAudit, type AuditRecorder } from '../audit/audit.js';
import { initiatorOf, type Change, type ChangeRecorder, type Initiator } from '../events/events.js';
import type { EmployeeDirectory } from '../employees/employees.js';
import { resolveBounds } from '../http/list-params.js';
import type { CustomFieldTemplates } from '../customfields/customfields.js';
import { ApiError, invalidField, type ValidationErrors } from '../http/errors.js';
import type { Database, Db, Tx } from '../store/database.js';
import { fillForm, fromRow, taskFromBody, taskWithStatus, toRow, toView, workOrderEmployees, type StoredTask } from './task-model.js';
import * as store from './task-store.js';
import { recordTaskChange, taskChanges } from './task-history.js';
import type { StatusChange, Task, TaskChange, TaskListQuery, TaskWrite } from './task-schema.js';

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
  /** Where every change is logged, in its transaction. */
  audit?: AuditRecorder;
}

export class TaskService {
  private readonly database: Database;
  private readonly employees: Pick<EmployeeDirectory, 'identitiesOf'>;
  private readonly events: ChangeRecorder;
  private readonly clock: () => number;
  private readonly templates: CustomFieldTemplates | null;
  private readonly audit: AuditRecorder;

  constructor({ database, employees, events, clock = Date.now, templates = null, audit = noAudit }: TaskServiceOptions) {
    this.audit = audit;
    this.database = database;
    this.employees = employees;
    this.events = events;
    this.clock = clock;
    this.templates = templates;
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
   * another account's, is a 404 code 18); the change event names the employee as initiator.
   */
  async setStatusByEmployee(account: Account, subscriberID: number, taskID: number, input: StatusChange): Promise<Task> {
    // A filled form: the fields new to the task take their name and type from its template.
    let fields = new Map<string, { name: string; type: string }>();
    if (input.customFieldFormItems?.length && this.templates) {
      const { task } = await this.find(this.database.db, account, taskID, subscriberID, false);
      const template = task.customFieldsFormTemplateID === null ? null : await this.templates.find(this.database.db, account.id, task.customFieldsFormTemplateID);
      fields = new Map(template?.customFieldFormItems.map((f) => [f.externalID, f]) ?? []);
    }
    return this.update(account, taskID, subscriberID, { subscriberID }, (before, now) => {
      const after = taskWithStatus(before, input.status, input.comment ?? null, now);
      if (!input.customFieldFormItems) return after;
      return { ...after, customFieldFormItems: fillForm(before.customFieldFormItems, input.customFieldFormItems, (id) => fields.get(id)) };
    });
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
  ): Promise<Task> {
    return this.database.transaction(async (tx) => {
      const row = await this.find(tx, account, taskID, assignee, true);
      const now = this.clock();
      const task = change(row.task, now);
      // Employees are checked when they are named anew (a PATCH or status change that leaves them keeps the same array).
      if (task.subscriberID !== row.task.subscriberID || task.workOrders !== row.task.workOrders) await this.checkEmployees(tx, account, task);
      await this.templates?.checkUse(tx, account.id, templateUse(task), templateUse(row.task));
      await store.updateTask(tx, account.id, taskID, toRow(task), now);
      const [before, after] = await this.views(tx, account, [row, { id: taskID, task }]);
      await this.commit(tx, account, taskID, { type: 'edit', before: before!, after: after! }, initiator, now);
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

  /** The task's history, and the change event of interface 6.4 for the rules of the employees assigned before and after. */
  private async commit(tx: Tx, account: Account, taskID: number, change: Change<Task>, initiator: Initiator, now: number): Promise<void> {
    await recordTaskChange(tx, account.id, taskID, change, initiator, now);
    const verb = change.type === 'add' ? 'create' : change.type === 'edit' ? 'update' : 'delete';
    await this.audit.record(tx, account.id, {
      kind: `task.${verb}`,
      objectId: taskID,
      before: change.type === 'add' ? null : change.before,
      after: change.type === 'delete' ? null : change.after,
    });
    const assignees = [change.type === 'add' ? null : change.before.subscriberID, change.type === 'delete' ? null : change.after.subscriberID];
    await this.events.record(tx, account, 'task', [{ change, entityId: taskID, subscriberIds: assignees, initiator, atMs: now, firedMs: now }]);
  }
}

const templateUse = (task: StoredTask) => ({ templateID: task.customFieldsFormTemplateID, items: task.customFieldFormItems });
