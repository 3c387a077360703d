import type { EmployeeService } from '../employees/employees.js';
import type { LocationService } from '../positioning/positioning.js';
import type { TrackerSink } from './tracker-server.js';

/**
 * The listeners' sink: a frame's fixes go through the ingest queue (group commit with whatever
 * else arrives meanwhile, in order), and the promise resolves only after their commit.
 */
export function serviceTrackerSink(services: { employees: EmployeeService; locations: LocationService }): TrackerSink {
  return {
    resolveDevice: (deviceKey) => services.employees.findByDeviceKey(deviceKey),
    ingest: (accountId, fixes) => services.locations.ingest(accountId, fixes, 'tracker'),
  };
}
