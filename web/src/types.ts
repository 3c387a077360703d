/**
 * The v6 shapes the workspace reads (interface section 2, CONTRACT §4), taken from the server's
 * own schemas as types only: `import type` is erased, so nothing of the server is bundled.
 */
import type { Alert } from '../../src/alerts/alert-schema';
import type { EmployeePatch, EmployeeView as Employee, EmployeeWrite, VehicleSettings } from '../../src/employees/employee-schema';
import type { ReadingMapOverride } from '../../src/employees/reading-map-schema';
import type { SubscriberGroup } from '../../src/employees/subscriber-group-schema';
import type { MapObject } from '../../src/geozones/map-object-schema';
import type { ZoneGroup } from '../../src/geozones/zone-group-schema';
import type { Zone } from '../../src/geozones/zone-schema';
import type { Location as StoredLocation } from '../../src/positioning/location-schema';
import type { ReportScheduleAnswerFields, ReportScheduleFields } from '../../src/reports/schedule-fields';
import type { Task, TaskChange, TaskWrite } from '../../src/tasks/task-schema';
import type { ReportKind } from './generated/kinds';

export type {
  Alert, Employee, EmployeePatch, EmployeeWrite, MapObject, ReadingMapOverride, ReportKind, SubscriberGroup,
  Task, TaskChange, TaskWrite, VehicleSettings, Zone, ZoneGroup,
};

/** A report schedule as written and as answered, its report one of the server's (generated/kinds.ts). */
export type ReportScheduleWrite = ReportScheduleFields & { report: ReportKind };
export type ReportSchedule = ReportScheduleAnswerFields & { report: ReportKind };

/** An employee as the create answers it: the only answer that carries the whole device key. */
export type CreatedEmployee = Omit<Employee, 'deviceKeyHint' | 'deviceStatus'> & { deviceKey: string | null };

/** A location (interface 2.1); one pushed by the live stream straight from a batch has no id yet. */
export type Location = Omit<StoredLocation, 'locationID'> & { locationID?: number };
