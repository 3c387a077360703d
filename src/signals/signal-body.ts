import { formatDateTime } from '../http/datetime.js';
import type { SignalFinding } from './signal-types.js';

/**
 * The body of one signal (interface 6.3, CONTRACT §4): the fields of 6.3 in its order, the
 * kind's own fields (sensor, task, zone), then `eventID` (the rule), `latitude`, `longitude`
 * and `velocity` (km/h), which every signal carries.
 */
export function signalBody(
  finding: SignalFinding,
  signalID: number,
  subscriber: { id: number; externalId: string | null },
  timeZone: string,
): Record<string, unknown> {
  return {
    signalID,
    signalDate: formatDateTime(finding.atMs, timeZone),
    signalTypeID: finding.kind,
    subscriberID: subscriber.id,
    subscriberExternalID: subscriber.externalId,
    ...finding.fields,
    eventID: finding.ruleId,
    latitude: finding.latitude,
    longitude: finding.longitude,
    velocity: finding.velocityKmh,
  };
}
