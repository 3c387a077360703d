import type { EmployeeDevices } from '../employees/employees.js';
import type { IngestPort } from '../positioning/positioning.js';
import type { EgtsRetranslators } from './retranslators.js';
import type { DeviceDirectory, TrackerSink } from './tracker-server.js';

/** The parts of the composed services the listeners ask about terminals (app.ts's `Services` is one). */
export interface DirectoryServices {
  employees: Pick<EmployeeDevices, 'authenticateDevice' | 'findDeviceOwner'>;
  devices?: { retranslators: Pick<EgtsRetranslators, 'authenticate'> };
}

/** The employees and the accounts' retranslators, as the listeners ask about terminals. */
export function deviceDirectory(services: DirectoryServices): DeviceDirectory {
  const { employees } = services;
  const retranslators = services.devices?.retranslators;
  return {
    authenticateDevice: (protocol, deviceKey, password, address) => employees.authenticateDevice(protocol, deviceKey, password, address ?? null),
    findDevice: (protocol, deviceKey) => employees.findDeviceOwner(protocol, deviceKey),
    authenticateRetranslator: async (dispatcherId, password) => (retranslators ? retranslators.authenticate(dispatcherId, password) : null),
  };
}

/**
 * A listener's sink on this thread (a listener started with startTrackerServer): a frame's fixes
 * go to the ingest port (group commit with whatever else arrives meanwhile, in order) and
 * resolve once their commit is durable.
 */
export function trackerSink(directory: DeviceDirectory, ingest: IngestPort): TrackerSink {
  return {
    ...directory,
    ingest: async (accountId, fixes) => ingest.durable(await ingest.submit({ source: 'tracker', accountId, fixes })),
  };
}

/** `trackerSink` over the services. */
export function serviceTrackerSink(services: DirectoryServices & { positioning: { ingest: IngestPort } }): TrackerSink {
  return trackerSink(deviceDirectory(services), services.positioning.ingest);
}
