import { customFieldTypes } from '../employees/employees.js';
import type { EmployeeIdentity } from '../employees/employees.js';
import { formatDateTime, formatUtc, parseDateTime } from '../http/datetime.js';
import { ApiError, invalidField, missingField } from '../http/errors.js';
import type { TasksTable } from '../store/schema.js';
import type { RouteItemInput, Task, TaskWrite, WorkOrderInput } from './task-schema.js';

type WorkOrder = Task['workOrders'][number];
type StoredWorkOrder = Omit<WorkOrder, 'subscriberName' | 'subscriberExternalID'>;

/**
 * A task as stored: the fields of interface 2.8 with its own dates as UTC epoch milliseconds (they
 * are answered in the account's time zone, which may change); the dates inside route items and
 * work orders, which the interface names as UTC, are kept as their `Z` text.
 */
export interface StoredTask extends Omit<Task, 'taskID' | 'startDate' | 'deadline' | 'creationDate' | 'lastStatusChangeDate' | 'workOrders'> {
  startMs: number;
  deadlineMs: number | null;
  creationMs: number;
  lastStatusChangeMs: number;
  workOrders: StoredWorkOrder[];
}

type Draft = Omit<StoredTask, 'title' | 'startMs'> & { title: string | null; startMs: number | null };

/**
 * A task from a POST or PUT body (omitted fields take their defaults; a PUT keeps the creation
 * date) or a PATCH body (`previous` with the fields present changed), with every check of the
 * fields together: code 22 for a missing title, 52 for a missing start date, 2 otherwise.
 */
export function taskFromBody(input: TaskWrite, timeZone: string, previous: StoredTask | null, whole: boolean, nowMs: number): StoredTask {
  const base: Draft = whole || !previous ? defaults(previous?.creationMs ?? nowMs) : { ...previous };
  return settle(applyFields(base, input, timeZone), previous, nowMs);
}

/** The status set by the employee's phone, with the comment the task's commentPolicy may require. */
export function taskWithStatus(previous: StoredTask, status: number, comment: string | null, nowMs: number): StoredTask {
  const policy = previous.commentPolicy;
  // commentPolicy: 1 required when done, 2 required on rejection, 3 both.
  const required = (status === 3 && (policy === 1 || policy === 3)) || (status === 2 && (policy === 2 || policy === 3));
  const text = comment?.trim() ? comment : null;
  if (required && text === null) throw missingField('comment');
  // The same status again changes nothing but, when one is sent, the comment.
  if (status === previous.status) return { ...previous, statusComment: text ?? previous.statusComment };
  return { ...previous, status, statusComment: text, lastStatusChangeMs: nowMs };
}

function defaults(creationMs: number): Draft {
  return {
    subscriberID: null,
    deadlineMs: null,
    title: null,
    description: '',
    address: '',
    longitude: null,
    latitude: null,
    externalID: null,
    clientName: '',
    clientPhone: '',
    clientEmail: '',
    priority: 0,
    startMs: null,
    status: 0,
    taskTypeID: null,
    customStatusID: null,
    customStatusReasonID: null,
    mapObjectID: null,
    mapObjectWorkScheduleID: null,
    commentPolicy: 0,
    serviceTime: 0,
    startInterval: 0,
    isFixed: false,
    isMandatoryInRoute: false,
    creationMs,
    lastStatusChangeMs: creationMs,
    preferredPositionInRoute: null,
    customFieldsFormTemplateID: null,
    routeItems: [],
    workOrders: [],
    competences: [],
    dimensions: null,
    customFieldFormItems: [],
    statusComment: null,
  };
}

function applyFields(base: Draft, input: TaskWrite, timeZone: string): Draft {
  const draft: Draft = { ...base };
  const { startDate, deadline, customFieldFormTemplateID, routeItems, workOrders, competences, dimensions, ...plain } = input;
  for (const [key, value] of Object.entries(plain)) {
    if (value !== undefined) (draft as unknown as Record<string, unknown>)[key] = value;
  }
  if (startDate !== undefined) draft.startMs = startDate === null ? null : instant(startDate, 'startDate', timeZone);
  if (deadline !== undefined) draft.deadlineMs = deadline === null ? null : instant(deadline, 'deadline', timeZone);
  if (input.customFieldsFormTemplateID === undefined && customFieldFormTemplateID !== undefined) {
    draft.customFieldsFormTemplateID = customFieldFormTemplateID;
  }
  if (routeItems) draft.routeItems = routeItems.map((item, i) => routeItem(item, `routeItems[${i}]`, timeZone));
  if (workOrders) draft.workOrders = workOrders.map((order, i) => workOrder(order, `workOrders[${i}]`, timeZone));
  if (competences) {
    draft.competences = competences.map((c) => ({ competenceID: c.competenceID, amount: c.amount ?? null, level: c.level ?? null, efficiency: c.efficiency ?? null }));
  }
  if (dimensions !== undefined) {
    draft.dimensions =
      dimensions === null
        ? null
        : {
            weight: dimensions.weight ?? null,
            unit: dimensions.unit ?? null,
            width: dimensions.width ?? null,
            height: dimensions.height ?? null,
            length: dimensions.length ?? null,
            volume: dimensions.volume ?? null,
          };
  }
  return draft;
}

function settle(draft: Draft, previous: StoredTask | null, nowMs: number): StoredTask {
  const { title, startMs } = draft;
  if (title === null || title.trim() === '') throw new ApiError('TITLE_IS_NEEDED', 'title is required', { title: 'is required' });
  if (startMs === null) throw missingField('startDate');
  if ((draft.latitude === null) !== (draft.longitude === null)) {
    throw invalidField(draft.latitude === null ? 'latitude' : 'longitude', 'latitude and longitude are given together or not at all');
  }
  if (draft.deadlineMs !== null && draft.deadlineMs < startMs) throw invalidField('deadline', 'must not be before startDate');
  if (draft.clientEmail !== '' && !/^[^\s@]+@[^\s@]+$/.test(draft.clientEmail)) throw invalidField('clientEmail', 'must be an e-mail address or empty');
  draft.customFieldFormItems.forEach((item, i) => {
    if (!customFieldTypes.includes(item.type.toLowerCase())) {
      throw invalidField(`customFieldFormItems[${i}].type`, `must be one of ${customFieldTypes.join(', ')}`);
    }
  });
  const task: StoredTask = { ...draft, title, startMs };
  // lastStatusChangeDate records status changes; the employee's comment belongs to the status it came with.
  if (previous && previous.status === task.status) {
    task.lastStatusChangeMs = previous.lastStatusChangeMs;
    task.statusComment = previous.statusComment;
  } else if (previous) {
    task.lastStatusChangeMs = nowMs;
    task.statusComment = null;
  }
  return task;
}

function routeItem(item: RouteItemInput, path: string, timeZone: string): StoredTask['routeItems'][number] {
  const plannedStartDate = utc(item.plannedStartDate, `${path}.plannedStartDate`, timeZone);
  const plannedEndDate = utc(item.plannedEndDate, `${path}.plannedEndDate`, timeZone);
  if (plannedStartDate !== null && plannedEndDate !== null && plannedEndDate < plannedStartDate) {
    throw invalidField(`${path}.plannedEndDate`, 'must not be before plannedStartDate');
  }
  return {
    plannedStartDate,
    plannedEndDate,
    timeToPoint: item.timeToPoint ?? null,
    distanceToPoint: item.distanceToPoint ?? null,
    creationDate: utc(item.creationDate, `${path}.creationDate`, timeZone),
    lastUpdateDate: utc(item.lastUpdateDate, `${path}.lastUpdateDate`, timeZone),
  };
}

function workOrder(order: WorkOrderInput, path: string, timeZone: string): StoredWorkOrder {
  const startTime = utc(order.startTime, `${path}.startTime`, timeZone);
  const endTime = utc(order.endTime, `${path}.endTime`, timeZone);
  if (startTime !== null && endTime !== null && endTime < startTime) throw invalidField(`${path}.endTime`, 'must not be before startTime');
  return {
    workOrderID: order.workOrderID ?? null,
    subscriberID: order.subscriberID,
    startTime,
    endTime,
    serviceTime: order.serviceTime ?? null,
    creationDate: utc(order.creationDate, `${path}.creationDate`, timeZone),
    lastUpdateDate: utc(order.lastUpdateDate, `${path}.lastUpdateDate`, timeZone),
  };
}

function instant(value: string, field: string, timeZone: string): number {
  const parsed = parseDateTime(value, timeZone);
  if (!parsed) throw invalidField(field, 'must be an ISO 8601 date-time such as 2026-05-20T14:30:00+03:00');
  return parsed.epochMs;
}

/** A date-time the interface names as UTC, kept as its `Z` text (which sorts as it compares). */
function utc(value: string | null | undefined, field: string, timeZone: string): string | null {
  return value === undefined || value === null ? null : formatUtc(instant(value, field, timeZone));
}

type Row = Pick<TasksTable, 'subscriber_id' | 'external_id' | 'status' | 'start_ms' | 'deadline_ms' | 'document'>;

export function toRow(task: StoredTask): Row {
  const { subscriberID, externalID, status, startMs, deadlineMs, creationMs: _created, ...document } = task;
  return { subscriber_id: subscriberID, external_id: externalID, status, start_ms: startMs, deadline_ms: deadlineMs, document: JSON.stringify(document) };
}

export function fromRow(row: Row & { created_at: number }): StoredTask {
  const document = JSON.parse(row.document) as Omit<StoredTask, 'subscriberID' | 'externalID' | 'status' | 'startMs' | 'deadlineMs' | 'creationMs'>;
  return {
    ...document,
    subscriberID: row.subscriber_id,
    externalID: row.external_id,
    status: row.status,
    startMs: row.start_ms!,
    deadlineMs: row.deadline_ms,
    creationMs: row.created_at,
  };
}

/** Employees named by the work orders of these tasks, for `toView`. */
export function workOrderEmployees(tasks: StoredTask[]): number[] {
  return [...new Set(tasks.flatMap((t) => t.workOrders.map((w) => w.subscriberID)))];
}

/** Interface 2.8, in its order: own dates in the account's zone, work orders with their employee's name and external id. */
export function toView(taskID: number, t: StoredTask, timeZone: string, employees: Map<number, EmployeeIdentity>): Task {
  return {
    taskID,
    subscriberID: t.subscriberID,
    deadline: t.deadlineMs === null ? null : formatDateTime(t.deadlineMs, timeZone),
    title: t.title,
    description: t.description,
    address: t.address,
    longitude: t.longitude,
    latitude: t.latitude,
    externalID: t.externalID,
    clientName: t.clientName,
    clientPhone: t.clientPhone,
    clientEmail: t.clientEmail,
    priority: t.priority,
    startDate: formatDateTime(t.startMs, timeZone),
    status: t.status,
    taskTypeID: t.taskTypeID,
    customStatusID: t.customStatusID,
    customStatusReasonID: t.customStatusReasonID,
    mapObjectID: t.mapObjectID,
    mapObjectWorkScheduleID: t.mapObjectWorkScheduleID,
    commentPolicy: t.commentPolicy,
    serviceTime: t.serviceTime,
    startInterval: t.startInterval,
    isFixed: t.isFixed,
    isMandatoryInRoute: t.isMandatoryInRoute,
    creationDate: formatDateTime(t.creationMs, timeZone),
    lastStatusChangeDate: formatDateTime(t.lastStatusChangeMs, timeZone),
    preferredPositionInRoute: t.preferredPositionInRoute,
    customFieldsFormTemplateID: t.customFieldsFormTemplateID,
    routeItems: t.routeItems,
    workOrders: t.workOrders.map((w) => {
      const employee = employees.get(w.subscriberID);
      return { ...w, subscriberName: employee?.name ?? null, subscriberExternalID: employee?.externalSubscriberID ?? null };
    }),
    competences: t.competences,
    dimensions: t.dimensions,
    customFieldFormItems: t.customFieldFormItems,
    statusComment: t.statusComment,
  };
}
