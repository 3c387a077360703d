import type { EmployeeDevices } from '../employees/employees.js';
import type { LocationIngest } from '../positioning/positioning.js';
import type { EgtsRetranslators } from './retranslators.js';
import type { ThreadTrackerSink } from './tracker-listeners.js';

/** The parts of the composed services the listeners use (app.ts's `Services` is one). */
export interface TrackerSinkServices {
  employees: Pick<EmployeeDevices, 'authenticateDevice' | 'findDeviceOwner'>;
  positioning: Pick<LocationIngest, 'ingest' | 'ingestVisible' | 'durabilityChannel'>;
  devices?: { retranslators: Pick<EgtsRetranslators, 'authenticate'> };
}

/**
 * The listeners' sink: a frame's fixes go through the ingest queue (group commit with whatever
 * else arrives meanwhile, in order). `ingest` resolves only after their commit is on disk;
 * `ingestVisible`, for the tracker thread, as soon as it is visible (see ThreadTrackerSink).
 */
export function serviceTrackerSink(services: TrackerSinkServices): ThreadTrackerSink {
  const { employees, positioning: locations } = services;
  const retranslators = services.devices?.retranslators;
  return {
    authenticateDevice: (protocol, deviceKey, password) => employees.authenticateDevice(protocol, deviceKey, password),
    ingest: (accountId, fixes) => locations.ingest(accountId, fixes, 'tracker'),
    ingestVisible: (accountId, fixes) => locations.ingestVisible(accountId, fixes, 'tracker'),
    findDevice: (protocol, deviceKey) => employees.findDeviceOwner(protocol, deviceKey),
    authenticateRetranslator: async (dispatcherId, password) => (retranslators ? retranslators.authenticate(dispatcherId, password) : null),
    durabilityChannel: locations.durabilityChannel,
  };
}
