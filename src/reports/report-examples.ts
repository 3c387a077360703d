import { Type, type TSchema } from 'typebox';
import { withExamples } from '../http/examples.js';
import { ReportQuery } from './report-schema.js';

/**
 * What the OpenAPI document says of each report beyond its summary, and one true answer of each,
 * by report name. test/http/openapi-examples.test.ts checks each answer against its kind's schema.
 */
export const reportDocs: Record<string, { description: string; records: unknown[] }> = {
  trips: {
    description: 'One record per track (as route 3 lists them) that started in the period, with its highest and average speeds.',
    records: [
      {
        trackID: 1207,
        startDate: '2026-03-02T08:02:11+03:00',
        finishDate: '2026-03-02T08:41:50+03:00',
        startAddress: 'Warehouse Sokolniki',
        finishAddress: '55.75583, 37.61173',
        startLat: 55.7892,
        startLon: 37.6805,
        finishLat: 55.75583,
        finishLon: 37.61173,
        distance: 7412,
        duration: 2379,
        maxSpeed: 64.8,
        averageSpeed: 11.2,
        inProgress: false,
      },
    ],
  },
  stops: {
    description: 'One record per stop: the time between two tracks, where the vehicle stood, and how long its engine ran while it did.',
    records: [
      {
        startDate: '2026-03-02T08:41:50+03:00',
        finishDate: '2026-03-02T09:05:30+03:00',
        duration: 1420,
        latitude: 55.75583,
        longitude: 37.61173,
        address: 'Pharmacy on Tverskaya',
        idleSeconds: 240,
      },
    ],
  },
  fuel: {
    description:
      'One record per employee and day of the account’s time zone: fuel at the first and last fix, fillings and drains, and consumption per 100 ' +
      'km.',
    records: [
      {
        date: '2026-03-02',
        startFuelLevel: 23,
        endFuelLevel: 50.3,
        fillings: 1,
        filledLitres: 38.5,
        drains: 0,
        drainedLitres: 0,
        fuelConsumption: 11.2,
        mileage: 84.3,
        consumptionPer100Km: 13.3,
      },
    ],
  },
  zoneVisits: {
    description: 'One record per visit of an enabled zone: when the vehicle entered and left it, and how long it stayed.',
    records: [
      { zoneID: 5, zoneName: 'Warehouse Sokolniki', enteredDate: '2026-03-02T07:58:02+03:00', leftDate: '2026-03-02T08:02:11+03:00', duration: 249, latitude: 55.7892, longitude: 37.6805 },
    ],
  },
  speeding: {
    description: 'One record per speed-exceeded event (route 6, type 4), with the vehicle’s limit and whether it became prolonged speeding (type 5).',
    records: [{ date: '2026-03-02T08:15:40+03:00', latitude: 55.77121, longitude: 37.65234, maxSpeed: 97, speedLimit: 90, prolonged: false }],
  },
  summary: {
    description: 'One record per employee and day of the account’s time zone: what a fleet manager reads first.',
    records: [
      {
        date: '2026-03-02',
        mileage: 84.3,
        trips: 6,
        drivingSeconds: 15120,
        engineMotohours: 3.5,
        idleSeconds: 1260,
        maxSpeed: 97,
        fuelConsumption: 11.2,
        filledLitres: 38.5,
        drainedLitres: 0,
        speedings: 1,
        zoneVisits: 3,
      },
    ],
  },
};

/** A report's JSON answer schema with its example: the records of one vehicle. */
export function reportAnswerWithExample<T extends TSchema>(answer: T, kind: string): T {
  const records = reportDocs[kind]?.records ?? [];
  return withExamples(answer, { data: [{ subscriberID: 23, name: 'Truck 12 (Ivan Petrov)', records }] } as never);
}

/** The query every report takes, with example values. */
export const ReportQueryWithExamples = Type.Object({
  ...ReportQuery.properties,
  dateFrom: withExamples(ReportQuery.properties.dateFrom, '2026-03-02T00:00:00+03:00'),
  dateTo: withExamples(ReportQuery.properties.dateTo, '2026-03-02T23:59:59+03:00'),
  subscriberIDs: withExamples(ReportQuery.properties.subscriberIDs, [23]),
});
