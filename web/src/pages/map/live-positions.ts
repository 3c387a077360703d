import { useEffect, useRef, useState } from 'preact/hooks';
import { connectLive } from '../../live-stream';
import type { Location } from '../../types';

export type LiveStatus = 'connecting' | 'live' | 'reconnecting';

export interface LivePositions {
  /** The latest valid fix of each employee, by subscriberID. */
  positions: ReadonlyMap<number, Location>;
  status: LiveStatus;
  /** Whether the stream's first event (every employee's latest fix) has arrived. */
  loaded: boolean;
}

/**
 * The latest fixes from the server-sent `/workspace/api/live` stream. Its status is what the
 * stream does: "live" once positions arrive, "reconnecting" from a failure until they arrive
 * again. The stream is the tab's one, shared with the header's alerts, and reopened by
 * live-stream.ts when lost (an error, a refusal, silence) after a wait that doubles each time.
 * `onCaughtUp` runs when positions arrive after a loss (the list of employees is read again then,
 * and a request notices a session that ended meanwhile).
 */
export function useLivePositions(onCaughtUp: () => void): LivePositions {
  const [positions, setPositions] = useState<ReadonlyMap<number, Location>>(() => new Map());
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [loaded, setLoaded] = useState(false);
  const caughtUp = useRef(onCaughtUp);
  caughtUp.current = onCaughtUp;

  useEffect(() => {
    let lost = false;
    // Batches that arrive within one frame are drawn together: a fleet reporting all the time
    // sends many small batches, and each drawing redraws the map and the list.
    let pending: Location[] = [];
    let frame = 0;
    const flush = () => {
      frame = 0;
      const batch = pending;
      pending = [];
      setPositions((current) => withNewer(current, batch));
      setLoaded(true);
    };
    const connection = connectLive({
      positions: (data) => {
        pending.push(...(JSON.parse(data) as Location[]));
        frame ||= requestAnimationFrame(flush);
        setStatus('live');
        if (lost) {
          lost = false;
          caughtUp.current();
        }
      },
      lost: () => {
        lost = true;
        setStatus('reconnecting');
      },
    });
    return () => {
      cancelAnimationFrame(frame);
      connection.close();
    };
  }, []);

  return { positions, status, loaded };
}

/**
 * `current` with the batch's fixes that are newer than the ones held. The same map when nothing
 * changed: the stream repeats every latest fix every 10 s, and an unchanged map redraws nothing.
 */
export function withNewer(current: ReadonlyMap<number, Location>, batch: readonly Location[]): ReadonlyMap<number, Location> {
  let next: Map<number, Location> | null = null;
  for (const fix of batch) {
    if (!fix.isValid) continue;
    const held = next?.get(fix.subscriberID) ?? current.get(fix.subscriberID);
    if (held && !isNewer(fix, held)) continue;
    next ??= new Map(current);
    next.set(fix.subscriberID, fix);
  }
  return next ?? current;
}

function isNewer(fix: Location, held: Location): boolean {
  const difference = Date.parse(fix.locationDate) - Date.parse(held.locationDate);
  if (difference !== 0) return difference > 0;
  // The same moment: a fix stored again (a resync) changes nothing unless it is another point.
  return fix.latitude !== held.latitude || fix.longitude !== held.longitude || fix.velocity !== held.velocity;
}
