import type { EmployeeService } from '../employees/employees.js';
import type { LocationService } from '../positioning/positioning.js';
import type { TrackerSink } from './tracker-server.js';

/**
 * The listeners' sink over the existing services: one transaction per fix, in order. The lead
 * replaces `ingest` with the ingest queue's group commit; the contract (resolve after commit) stays.
 */
export function serviceTrackerSink(services: { employees: EmployeeService; locations: LocationService }): TrackerSink {
  return {
    resolveDevice: (deviceKey) => services.employees.findByDeviceKey(deviceKey),
    async ingest(accountId, fixes) {
      for (const fix of fixes) await services.locations.ingestDeviceFix(accountId, fix);
    },
  };
}
