import type { EmployeeService } from '../employees/employees.js';
import type { LocationService } from '../positioning/positioning.js';
import type { EgtsRetranslators } from './retranslators.js';
import type { ThreadTrackerSink } from './tracker-listeners.js';

/**
 * The listeners' sink: a frame's fixes go through the ingest queue (group commit with whatever
 * else arrives meanwhile, in order). `ingest` resolves only after their commit is on disk;
 * `ingestVisible`, for the tracker thread, as soon as it is visible (see ThreadTrackerSink).
 */
export function serviceTrackerSink(services: { employees: EmployeeService; locations: LocationService; retranslators?: EgtsRetranslators }): ThreadTrackerSink {
  const { retranslators } = services;
  return {
    authenticateDevice: (protocol, deviceKey, password) => services.employees.authenticateDevice(protocol, deviceKey, password),
    ingest: (accountId, fixes) => services.locations.ingest(accountId, fixes, 'tracker'),
    ingestVisible: (accountId, fixes) => services.locations.ingestVisible(accountId, fixes, 'tracker'),
    findDevice: (protocol, deviceKey) => services.employees.findDeviceOwner(protocol, deviceKey),
    authenticateRetranslator: async (dispatcherId, password) => (retranslators ? retranslators.authenticate(dispatcherId, password) : null),
    durabilityChannel: services.locations.durabilityChannel,
  };
}
