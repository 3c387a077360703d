import { useEffect, useRef, useState } from 'preact/hooks';
import { api, describe, query } from '../../api';
import type { Location } from '../../types';
import { t } from '../../i18n/i18n';
import { MOVING_FROM_KMH, type Today } from './fleet-state';

const POSITIONING = '/v6/api/globalPositioningManagement';
/** The details are read again when the position changes, but not more often than this. */
const AT_MOST_EVERY_MS = 15_000;
/** A trip that ended this close to where the employee stands names the place they stand at. */
const SAME_PLACE_M = 150;
/** The newest positions read to find the one on the map (newer ones the GPS filter set aside may come first). */
const NEWEST = 10;

/** What the card shows beyond the live position: all read through the v6 routes. */
export interface CardDetails {
  /** The place of the latest fix as the server names it; null: it names none (the card shows coordinates). */
  address: string | null;
  /** Kilometres since today's midnight in the account's zone. */
  distanceKm: number | null;
  /** Litres at the latest fix of today; null: the vehicle reports no fuel level. */
  fuelLitres: number | null;
}

/** The mobile positioning routes' location: interface 2.1 with the place the server names. */
type PlacedLocation = Location & { address: string | null };
interface TodayStatistics {
  data: { subscriberID: number; statistics: { mileage: number; endFuelLevel: number | null }[] }[];
}
interface Trip {
  finishDate: string;
  finishAddress: string;
  finishLat: number;
  finishLon: number;
}

/**
 * The card's details of one employee: the address, today's distance and the fuel level. Read when
 * the card opens and again as the employee moves (at most every 15 s); a failure is shown with a
 * Retry (`reload`).
 */
export function useCardDetails(subscriberID: number, position: Location | undefined, today: Today) {
  const [details, setDetails] = useState<CardDetails | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const lastRead = useRef(0);
  const positionKey = position ? `${position.locationDate}|${position.latitude}|${position.longitude}` : '';

  useEffect(() => {
    setDetails(null);
    setError(null);
    lastRead.current = 0;
  }, [subscriberID]);

  useEffect(() => {
    let current = true;
    const read = () => {
      lastRead.current = Date.now();
      readDetails(subscriberID, position, today)
        .then((answer) => {
          if (!current) return;
          setDetails(answer);
          setError(null);
        })
        .catch((failure: unknown) => current && setError(t('map.card.detailsFailed', { reason: describe(failure) })));
    };
    const waitMs = lastRead.current + AT_MOST_EVERY_MS - Date.now();
    if (waitMs <= 0) read();
    const timer = waitMs > 0 ? setTimeout(read, waitMs) : undefined;
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [subscriberID, positionKey, today.day, attempt]);

  const reload = () => {
    lastRead.current = 0;
    setAttempt((n) => n + 1);
  };
  return { details, error, reload };
}

async function readDetails(subscriberID: number, position: Location | undefined, today: Today): Promise<CardDetails> {
  const period = { dateFrom: `${today.day}T00:00:00`, dateTo: `${today.day}T23:59:59.999` };
  const [placed, statistics, trips] = await Promise.all([
    position ? api.get<PlacedLocation[]>(`/v6/api/mobilePositioningManagement/locations${query({ subscriberIDs: subscriberID, count: NEWEST })}`) : [],
    api.get<TodayStatistics>(`${POSITIONING}/statistics${query({ subscriberIDs: subscriberID, interval: 1, ...period })}`),
    position ? api.get<Trip[]>(`${POSITIONING}/tracks${query({ subscriberIDs: subscriberID, count: 1000, ...period })}`) : [],
  ]);
  const record = statistics.data.find((entry) => entry.subscriberID === subscriberID)?.statistics.at(-1);
  return {
    address: position ? addressOf(position, placed, trips.at(-1)) : null,
    distanceKm: record?.mileage ?? (position ? 0 : null),
    fuelLitres: record?.endFuelLevel ?? null,
  };
}

/**
 * Where the employee is, in words: standing where today's last trip ended, that trip's finish
 * address (the reverse geocoder's street address when the server has one, GEOCODER_URL); else the
 * zone or map object the server names for the fix on the map; else none.
 */
function addressOf(position: Location, placed: readonly PlacedLocation[], lastTrip: Trip | undefined): string | null {
  const standing = position.velocity < MOVING_FROM_KMH;
  if (standing && lastTrip && Date.parse(lastTrip.finishDate) <= Date.parse(position.locationDate) && metresBetween(position, lastTrip.finishLat, lastTrip.finishLon) <= SAME_PLACE_M) {
    return lastTrip.finishAddress;
  }
  const same = placed.find((fix) => fix.isValid && fix.latitude === position.latitude && fix.longitude === position.longitude);
  return same?.address ?? null;
}

/** The distance between a fix and a point, on a sphere: plenty for "the same place". */
function metresBetween(position: Location, latitude: number, longitude: number): number {
  const radians = Math.PI / 180;
  const dLat = (latitude - position.latitude) * radians;
  const dLon = (longitude - position.longitude) * radians;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(position.latitude * radians) * Math.cos(latitude * radians) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(a));
}
