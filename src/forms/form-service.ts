import type { Account } from '../accounts/accounts.js';
import type { CustomFieldTemplates } from '../customfields/customfields.js';
import { ApiError } from '../http/errors.js';
import type { Database } from '../store/database.js';
import type { Task, TaskReader } from '../tasks/tasks.js';
import type { Form } from './form-schema.js';

/**
 * Forms filled on tasks (`/v6/api/formManagement/forms`): read from the tasks' custom fields,
 * which coordinators write through the task routes and employees through the phone's status
 * endpoint. A task with neither a template nor a field has no form.
 */
export class FormService {
  constructor(
    private readonly database: Database,
    private readonly tasks: TaskReader,
    private readonly templates: Pick<CustomFieldTemplates, 'find'>,
  ) {}

  /** The forms of the named tasks, by task id; tasks that are not the account's, or have no form, are left out. */
  async list(account: Account, taskIDs: number[]): Promise<Form[]> {
    const tasks = await this.tasks.listByIds(account, [...new Set(taskIDs)]);
    return this.toForms(account, tasks.filter(hasForm));
  }

  async get(account: Account, formID: number): Promise<Form> {
    const [task] = await this.tasks.listByIds(account, [formID]);
    if (!task || !hasForm(task)) throw new ApiError('FORM_NOT_FOUND', `no form ${formID}`);
    return (await this.toForms(account, [task]))[0]!;
  }

  private async toForms(account: Account, tasks: Task[]): Promise<Form[]> {
    const names = new Map<number, string | null>();
    for (const id of new Set(tasks.map((t) => t.customFieldsFormTemplateID))) {
      if (id !== null) names.set(id, (await this.templates.find(this.database.db, account.id, id))?.name ?? null);
    }
    return tasks.map((task) => ({
      formID: task.taskID,
      taskID: task.taskID,
      subscriberID: task.subscriberID,
      customFieldsFormTemplateID: task.customFieldsFormTemplateID,
      templateName: task.customFieldsFormTemplateID === null ? null : (names.get(task.customFieldsFormTemplateID) ?? null),
      status: task.status,
      lastStatusChangeDate: task.lastStatusChangeDate,
      customFieldFormItems: task.customFieldFormItems,
    }));
  }
}

const hasForm = (task: Task) => task.customFieldsFormTemplateID !== null || task.customFieldFormItems.length > 0;
