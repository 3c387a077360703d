import { Type, type Static, type TSchema } from 'typebox';
import { CustomFieldItem } from '../employees/employees.js';
import { withExamples } from '../http/examples.js';
import { Count, DateTimeText, Id, IdList, Offset } from '../http/list-params.js';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const text = (maxLength: number) => Type.String({ maxLength });
const amount = (maximum: number, description?: string) => Type.Number({ minimum: 0, maximum, ...(description ? { description } : {}) });
const choice = (maximum: number, description: string) => Type.Integer({ minimum: 0, maximum, description });

export const TASK_STATUSES = '0 new, 1 accepted, 2 rejected, 3 done, 4 in progress';
export const Status = choice(4, TASK_STATUSES);

const RouteItemInput = Type.Object(
  {
    plannedStartDate: Type.Optional(nullable(DateTimeText)),
    plannedEndDate: Type.Optional(nullable(DateTimeText)),
    timeToPoint: Type.Optional(nullable(amount(1e7, 'minutes'))),
    distanceToPoint: Type.Optional(nullable(amount(1e9, 'metres'))),
    creationDate: Type.Optional(nullable(DateTimeText)),
    lastUpdateDate: Type.Optional(nullable(DateTimeText)),
  },
  { additionalProperties: false },
);

/** `subscriberName` and `subscriberExternalID` are the employee's, read with the task; they are not written. */
const WorkOrderInput = Type.Object(
  {
    workOrderID: Type.Optional(nullable(Id)),
    subscriberID: Id,
    startTime: Type.Optional(nullable(DateTimeText)),
    endTime: Type.Optional(nullable(DateTimeText)),
    serviceTime: Type.Optional(nullable(amount(1e6, 'accounting for efficiency'))),
    creationDate: Type.Optional(nullable(DateTimeText)),
    lastUpdateDate: Type.Optional(nullable(DateTimeText)),
  },
  { additionalProperties: false },
);

const CompetenceInput = Type.Object(
  {
    competenceID: Id,
    amount: Type.Optional(nullable(amount(1e6))),
    level: Type.Optional(nullable(amount(1e6))),
    efficiency: Type.Optional(nullable(amount(1e6))),
  },
  { additionalProperties: false },
);

const DimensionsInput = Type.Object(
  {
    weight: Type.Optional(nullable(amount(1e9, 'kg'))),
    unit: Type.Optional(nullable(amount(1e9))),
    width: Type.Optional(nullable(amount(1e9, 'm'))),
    height: Type.Optional(nullable(amount(1e9, 'm'))),
    length: Type.Optional(nullable(amount(1e9, 'm'))),
    volume: Type.Optional(nullable(amount(1e9, 'm3'))),
  },
  { additionalProperties: false },
);

/**
 * The writable fields of a task (interface 2.8). `title` and `startDate` are required on POST and
 * PUT (and may not be set to null by PATCH); the service checks them so that a missing title answers code 22 (TITLE_IS_NEEDED) and a
 * missing start date code 52. `taskID`, `creationDate`, `lastStatusChangeDate` and
 * `statusComment` are the service's; in a body they are ignored. Both spellings of the template id
 * are accepted; the sample's is answered.
 */
const fields = {
  title: Type.Optional(nullable(Type.String({ maxLength: 500, description: 'required (code 22 when missing, null or blank)' }))),
  startDate: Type.Optional(nullable(DateTimeText)),
  subscriberID: Type.Optional(nullable(Id)),
  deadline: Type.Optional(nullable(DateTimeText)),
  description: Type.Optional(text(10_000)),
  address: Type.Optional(text(1000)),
  longitude: Type.Optional(nullable(Type.Number({ minimum: -180, maximum: 180, description: 'degrees; given together with latitude' }))),
  latitude: Type.Optional(nullable(Type.Number({ minimum: -90, maximum: 90, description: 'degrees; given together with longitude' }))),
  externalID: Type.Optional(nullable(Type.String({ minLength: 1, maxLength: 200 }))),
  clientName: Type.Optional(text(200)),
  clientPhone: Type.Optional(text(50)),
  clientEmail: Type.Optional(Type.String({ maxLength: 254, description: 'an e-mail address, or empty' })),
  priority: Type.Optional(choice(2, '0 low, 1 medium, 2 high')),
  status: Type.Optional(Status),
  taskTypeID: Type.Optional(nullable(Id)),
  customStatusID: Type.Optional(nullable(Id)),
  customStatusReasonID: Type.Optional(nullable(Id)),
  mapObjectID: Type.Optional(nullable(Id)),
  mapObjectWorkScheduleID: Type.Optional(nullable(Id)),
  commentPolicy: Type.Optional(choice(3, '0 not required, 1 required when done, 2 required on rejection, 3 required in both cases')),
  serviceTime: Type.Optional(amount(1e6, 'task execution time')),
  startInterval: Type.Optional(amount(1e6, 'interval of task start')),
  isFixed: Type.Optional(Type.Boolean()),
  isMandatoryInRoute: Type.Optional(Type.Boolean()),
  preferredPositionInRoute: Type.Optional(nullable(Type.Integer({ minimum: 0, maximum: 1_000_000 }))),
  customFieldsFormTemplateID: Type.Optional(nullable(Id)),
  customFieldFormTemplateID: Type.Optional(nullable(Id)),
  routeItems: Type.Optional(Type.Array(RouteItemInput, { maxItems: 100 })),
  workOrders: Type.Optional(Type.Array(WorkOrderInput, { maxItems: 100 })),
  competences: Type.Optional(Type.Array(CompetenceInput, { maxItems: 200 })),
  dimensions: Type.Optional(nullable(DimensionsInput)),
  customFieldFormItems: Type.Optional(Type.Array(CustomFieldItem, { maxItems: 200 })),
};

/** POST and PUT: every field; omitted ones take their defaults. PATCH: only the fields present change. */
const taskFields = {
  title: 'Deliver order 5531',
  startDate: '2026-03-02T10:00:00+03:00',
  subscriberID: 17,
  deadline: '2026-03-02T12:00:00+03:00',
  description: 'Two boxes, one fragile',
  address: 'Tverskaya St, 7, Moscow',
  longitude: 37.61173,
  latitude: 55.75583,
  externalID: 'ORD-5531',
  clientName: 'Anna Volkova',
  clientPhone: '79031234567',
  clientEmail: 'anna.volkova@example.com',
  priority: 1,
  mapObjectID: 8,
  commentPolicy: 2,
  serviceTime: 15,
  dimensions: { weight: 3.5, unit: 2, width: 0.4, height: 0.3, length: 0.6, volume: 0.072 },
  customFieldsFormTemplateID: 9,
  customFieldFormItems: [{ externalID: 'payment', name: 'Payment', value: 'card', type: 'select' }],
};
export const TaskWrite = withExamples(Type.Object(fields, { additionalProperties: false }), taskFields);
export type TaskWrite = Static<typeof TaskWrite>;
export type RouteItemInput = Static<typeof RouteItemInput>;
export type WorkOrderInput = Static<typeof WorkOrderInput>;

const dateTime = nullable(Type.String());

/** Interface 2.8, with `statusComment` (the employee's comment on the last status change, ours). */
export const Task = Type.Object({
  taskID: Type.Integer(),
  subscriberID: nullable(Type.Integer()),
  deadline: dateTime,
  title: Type.String(),
  description: Type.String(),
  address: Type.String(),
  longitude: nullable(Type.Number()),
  latitude: nullable(Type.Number()),
  externalID: nullable(Type.String()),
  clientName: Type.String(),
  clientPhone: Type.String(),
  clientEmail: Type.String(),
  priority: Type.Integer(),
  startDate: Type.String(),
  status: Type.Integer(),
  taskTypeID: nullable(Type.Integer()),
  customStatusID: nullable(Type.Integer()),
  customStatusReasonID: nullable(Type.Integer()),
  mapObjectID: nullable(Type.Integer()),
  mapObjectWorkScheduleID: nullable(Type.Integer()),
  commentPolicy: Type.Integer(),
  serviceTime: Type.Number(),
  startInterval: Type.Number(),
  isFixed: Type.Boolean(),
  isMandatoryInRoute: Type.Boolean(),
  creationDate: Type.String(),
  lastStatusChangeDate: Type.String(),
  preferredPositionInRoute: nullable(Type.Integer()),
  customFieldsFormTemplateID: nullable(Type.Integer()),
  routeItems: Type.Array(
    Type.Object({
      plannedStartDate: dateTime,
      plannedEndDate: dateTime,
      timeToPoint: nullable(Type.Number()),
      distanceToPoint: nullable(Type.Number()),
      creationDate: dateTime,
      lastUpdateDate: dateTime,
    }),
  ),
  workOrders: Type.Array(
    Type.Object({
      workOrderID: nullable(Type.Integer()),
      subscriberID: Type.Integer(),
      startTime: dateTime,
      endTime: dateTime,
      serviceTime: nullable(Type.Number()),
      creationDate: dateTime,
      lastUpdateDate: dateTime,
      subscriberName: nullable(Type.String()),
      subscriberExternalID: nullable(Type.String()),
    }),
  ),
  competences: Type.Array(
    Type.Object({
      competenceID: Type.Integer(),
      amount: nullable(Type.Number()),
      level: nullable(Type.Number()),
      efficiency: nullable(Type.Number()),
    }),
  ),
  dimensions: nullable(
    Type.Object({
      weight: nullable(Type.Number()),
      unit: nullable(Type.Number()),
      width: nullable(Type.Number()),
      height: nullable(Type.Number()),
      length: nullable(Type.Number()),
      volume: nullable(Type.Number()),
    }),
  ),
  customFieldFormItems: Type.Array(
    Type.Object({
      externalID: Type.String(),
      name: Type.String(),
      value: Type.Optional(nullable(Type.String())),
      values: Type.Optional(Type.Array(Type.String())),
      type: Type.String(),
    }),
  ),
  statusComment: nullable(Type.String()),
});
export type Task = Static<typeof Task>;

export const taskExample: Task = {
  taskID: 311,
  ...taskFields,
  status: 0,
  taskTypeID: null,
  customStatusID: null,
  customStatusReasonID: null,
  mapObjectWorkScheduleID: null,
  startInterval: 0,
  isFixed: false,
  isMandatoryInRoute: false,
  creationDate: '2026-03-02T08:30:12+03:00',
  lastStatusChangeDate: '2026-03-02T08:30:12+03:00',
  preferredPositionInRoute: null,
  routeItems: [],
  workOrders: [],
  competences: [],
  dimensions: { weight: 3.5, unit: 2, width: 0.4, height: 0.3, length: 0.6, volume: 0.072 },
  statusComment: null,
};

export const TaskListQuery = Type.Object({
  subscriberIDs: Type.Optional(withExamples(IdList, [17])),
  dateFrom: Type.Optional(withExamples(DateTimeText, '2026-03-02T00:00:00+03:00')),
  dateTo: Type.Optional(withExamples(DateTimeText, '2026-03-02T23:59:59+03:00')),
  statuses: Type.Optional(
    withExamples(Type.Array(Status, { maxItems: 100, description: `${TASK_STATUSES}; repeated, comma-separated or statuses[] form` }), [0, 1, 4]),
  ),
  taskTypeIDs: Type.Optional(IdList),
  count: Type.Optional(Count),
  offset: Type.Optional(Offset),
});
export type TaskListQuery = Static<typeof TaskListQuery>;

/** `POST /mobile/v1/tasks/{taskID}/status`: the employee's phone sets a status, with a comment where the task's commentPolicy asks for one. */
/** The form the employee filled on the task: values of the task's custom fields, by externalID. */
const FilledItems = Type.Array(
  Type.Object(
    {
      externalID: Type.String({ minLength: 1, maxLength: 200 }),
      value: Type.Optional(nullable(Type.String({ maxLength: 10_000, description: 'a picture or file field: the fileID of an upload for this task, or a comma list of them' }))),
      values: Type.Optional(Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 100 })),
    },
    { additionalProperties: false },
  ),
  { maxItems: 200 },
);

const ActedAt = Type.Optional(
  Type.String({
    maxLength: 64,
    description: 'when the employee acted (a write queued offline sends it later); the change is dated so. Omitted: now; ahead of the server: now; over 30 days ago: 400',
  }),
);

export const StatusChange = withExamples(
  Type.Object(
    {
      status: Status,
      comment: Type.Optional(nullable(Type.String({ maxLength: 2000 }))),
      customFieldFormItems: Type.Optional(FilledItems),
      actedAt: ActedAt,
    },
    { additionalProperties: false },
  ),
  { status: 3, comment: 'Handed to the client in person', customFieldFormItems: [{ externalID: 'payment', value: 'cash' }], actedAt: '2026-03-02T11:20:31+03:00' },
);
export type StatusChange = Static<typeof StatusChange>;

/** One entry of a task's history (`GET …/tasks/{taskID}/history`, ours; see task-history.ts). */
export const TaskChange = Type.Object({
  changeID: Type.Integer(),
  changeDate: Type.String({ description: 'when the change was made, in the account’s time zone' }),
  changeTypeID: Type.Integer({ description: '1 created, 2 changed, 3 deleted (signalTypeID of interface 2.10)' }),
  userID: Type.Optional(Type.Integer({ description: 'the initiator, one of userID, subscriberID (the employee’s phone), agentID (the service); none for a creation older than the history' })),
  subscriberID: Type.Optional(Type.Integer()),
  agentID: Type.Optional(Type.Integer()),
  tokenID: Type.Optional(Type.Integer({ description: 'an API token whose maker was removed' })),
  changedValues: Type.Record(Type.String(), Type.Unknown(), { description: 'the changed fields as they were before (interface 6.4’s changedValues)' }),
  newValues: Type.Record(Type.String(), Type.Unknown(), { description: 'the same fields as the change left them' }),
});
export type TaskChange = Static<typeof TaskChange>;

export const taskHistoryExample: TaskChange[] = [
  {
    changeID: 901,
    changeDate: '2026-03-02T08:30:12+03:00',
    changeTypeID: 1,
    userID: 1,
    changedValues: {},
    newValues: { title: 'Deliver order 5531', status: 0, subscriberID: 17 },
  },
  { changeID: 905, changeDate: '2026-03-02T09:02:44+03:00', changeTypeID: 2, subscriberID: 17, changedValues: { status: 0 }, newValues: { status: 1 } },
];

/** The employee's form, saved without a status change. */
export const FormFill = withExamples(
  Type.Object({ customFieldFormItems: FilledItems, actedAt: ActedAt }, { additionalProperties: false }),
  { customFieldFormItems: [{ externalID: 'payment', value: 'cash' }, { externalID: 'photo', value: '41' }], actedAt: '2026-03-02T11:19:40+03:00' },
);
export type FormFill = Static<typeof FormFill>;

export const MobileTaskQuery = Type.Object({
  days: Type.Optional(withExamples(Type.Integer({ minimum: 0, maximum: 31, description: 'today and this many days after (default 7)' }), 7)),
});
export type MobileTaskQuery = Static<typeof MobileTaskQuery>;

/** A task's custom-field template as the employee's app renders it. */
const MobileForm = Type.Object({
  customFieldsFormTemplateID: Type.Integer(),
  templateName: Type.String(),
  fields: Type.Array(
    Type.Object({
      externalID: Type.String(),
      name: Type.String(),
      type: Type.String({ description: 'string, text, date, time, integer, double, boolean, select, picture or file' }),
      isRequired: Type.Boolean(),
      values: Type.Array(Type.String(), { description: 'the choices of a select field' }),
    }),
  ),
});

export const MobileTaskList = Type.Object({
  timeZone: Type.String(),
  from: Type.String({ description: 'the start of today in the account’s zone' }),
  to: Type.String({ description: 'the end of the last day listed' }),
  statuses: Type.Array(Type.Object({ status: Type.Integer(), key: Type.String({ description: 'new, accepted, rejected, done, inProgress' }) })),
  tasks: Type.Array(Type.Object({ ...Task.properties, form: nullable(MobileForm) })),
});
export type MobileTaskList = Static<typeof MobileTaskList>;

export const mobileTaskListExample: MobileTaskList = {
  timeZone: 'Europe/Moscow',
  from: '2026-03-02T00:00:00+03:00',
  to: '2026-03-09T23:59:59.999+03:00',
  statuses: ['new', 'accepted', 'rejected', 'done', 'inProgress'].map((key, status) => ({ status, key })),
  tasks: [
    {
      ...taskExample,
      form: {
        customFieldsFormTemplateID: 9,
        templateName: 'Delivery report',
        fields: [
          { externalID: 'payment', name: 'Payment', type: 'select', isRequired: true, values: ['cash', 'card'] },
          { externalID: 'photo', name: 'Photo of the door', type: 'picture', isRequired: false, values: [] },
        ],
      },
    },
  ],
};

export const MobileIdentity = Type.Object({
  subscriberID: Type.Integer(),
  name: Type.String(),
  accountName: Type.String(),
  timeZone: Type.String(),
  locale: Type.String(),
});
export type MobileIdentity = Static<typeof MobileIdentity>;
