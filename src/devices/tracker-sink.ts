import type { Services } from '../app.js';
import type { TrackerSink } from './tracker-server.js';

/**
 * The listeners' sink over the existing services: one transaction per fix, in order. The lead
 * replaces `ingest` with the ingest queue's group commit; the contract (resolve after commit) stays.
 */
export function serviceTrackerSink(services: Pick<Services, 'employees' | 'locations'>): TrackerSink {
  return {
    resolveDevice: (deviceKey) => services.employees.findByDeviceKey(deviceKey),
    async ingest(accountId, fixes) {
      for (const fix of fixes) await services.locations.ingestDeviceFix(accountId, fix);
    },
  };
}
