import type { Account } from '../accounts/accounts.js';
import type { CustomFieldTemplates } from '../customfields/customfields.js';
import { filePath, type FileFacts } from '../files/files.js';
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
    private readonly files: FormFiles,
  ) {}

  /** The forms of the named tasks, by task id; tasks that are not the account's, or have no form, are left out. */
  /** `origin`: the address the client reached this server at, for the pictures' URLs. */
  async list(account: Account, taskIDs: number[], origin: string): Promise<Form[]> {
    const tasks = await this.tasks.listByIds(account, [...new Set(taskIDs)]);
    return this.toForms(account, tasks.filter(hasForm), origin);
  }

  async get(account: Account, formID: number, origin: string): Promise<Form> {
    const [task] = await this.tasks.listByIds(account, [formID]);
    if (!task || !hasForm(task)) throw new ApiError('FORM_NOT_FOUND', `no form ${formID}`);
    return (await this.toForms(account, [task], origin))[0]!;
  }

  private async toForms(account: Account, tasks: Task[], origin: string): Promise<Form[]> {
    const names = new Map<number, string | null>();
    for (const id of new Set(tasks.map((t) => t.customFieldsFormTemplateID))) {
      if (id !== null) names.set(id, (await this.templates.find(this.database.db, account.id, id))?.name ?? null);
    }
    const fileIds = tasks.flatMap((task) => task.customFieldFormItems.filter(isFileField).flatMap((item) => fileIdsOf(item.value)));
    const files = fileIds.length === 0 ? new Map<number, FileFacts>() : await this.files.describe(account, fileIds);
    return tasks.map((task) => ({
      formID: task.taskID,
      taskID: task.taskID,
      subscriberID: task.subscriberID,
      customFieldsFormTemplateID: task.customFieldsFormTemplateID,
      templateName: task.customFieldsFormTemplateID === null ? null : (names.get(task.customFieldsFormTemplateID) ?? null),
      status: task.status,
      lastStatusChangeDate: task.lastStatusChangeDate,
      customFieldFormItems: task.customFieldFormItems,
      items: task.customFieldFormItems.map(({ externalID, name, type, value, values }) => {
        const item = { externalID, name, type, ...(value !== undefined ? { value } : {}), ...(values !== undefined ? { values } : {}) };
        if (!isFileField({ type })) return item;
        // A file of another task, or one removed since, is not shown.
        const pictures = fileIdsOf(value).flatMap((id) => {
          const file = files.get(id);
          return file && file.taskID === task.taskID ? [{ pictureID: id, url: `${origin}${filePath(id)}`, contentType: file.contentType, size: file.size }] : [];
        });
        return { ...item, pictures };
      }),
    }));
  }
}

/** What forms read of the files module: the files a picture or file field names. */
export type FormFiles = { describe(account: Account, ids: number[]): Promise<Map<number, FileFacts>> };

const isFileField = (item: { type: string }) => /^(picture|file)$/i.test(item.type);

/** A picture or file field's value: a fileID, or a comma list of them. */
const fileIdsOf = (value: string | null | undefined): number[] =>
  (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => /^[1-9]\d{0,15}$/.test(part))
    .map(Number);

const hasForm = (task: Task) => task.customFieldsFormTemplateID !== null || task.customFieldFormItems.length > 0;
