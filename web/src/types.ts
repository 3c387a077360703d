/**
 * The v6 shapes the workspace reads (interface section 2, CONTRACT §4), taken from the server's
 * own schemas as types only: `import type` is erased, so nothing of the server is bundled.
 */
import type { EmployeePatch, EmployeeView as Employee, EmployeeWrite, VehicleSettings } from '../../src/employees/employee-schema';
import type { ReadingMapOverride } from '../../src/employees/reading-map-schema';
import type { SubscriberGroup } from '../../src/employees/subscriber-group-schema';
import type { MapObject } from '../../src/geozones/map-object-schema';
import type { ZoneGroup } from '../../src/geozones/zone-group-schema';
import type { Zone } from '../../src/geozones/zone-schema';
import type { Location as StoredLocation } from '../../src/positioning/location-schema';
import type { RecordOf, ReportKind } from '../../src/reports/report-schema';
import type { ReportSchedule, ReportScheduleWrite } from '../../src/reports/schedule-schema';
import type { Task, TaskChange, TaskWrite } from '../../src/tasks/task-schema';

export type {
  Employee, EmployeePatch, EmployeeWrite, MapObject, ReadingMapOverride, RecordOf, ReportKind, ReportSchedule, ReportScheduleWrite, SubscriberGroup,
  Task, TaskChange, TaskWrite, VehicleSettings, Zone, ZoneGroup,
};

/** An employee as the create answers it: the only answer that carries the whole device key. */
export type CreatedEmployee = Omit<Employee, 'deviceKeyHint'> & { deviceKey: string | null };

/** A location (interface 2.1); one pushed by the live stream straight from a batch has no id yet. */
export type Location = Omit<StoredLocation, 'locationID'> & { locationID?: number };
