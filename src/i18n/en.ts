import { plural, type CatalogueShape } from './shape.js';

/**
 * The server's English texts: what e-mails, SMS, messenger messages and report files say. It
 * defines the keys; `ru.ts` has the same shape (`Catalogue`), so a missing or extra key fails the
 * typecheck. Data (names, addresses, zone and task titles) is never translated.
 */
export const en = {
  /** The BCP 47 tag `Intl` formats numbers, plurals and dates with. */
  intlLocale: 'en-GB',
  /** A time with the zone it is in: the account's zone, named. */
  zoned: (time: string, zone: string) => `${time} (${zone})`,
  message: {
    fallbackEvent: 'Lokator event',
    headline: (eventName: string, what: string) => `${eventName}: ${what}`,
    employee: (id: string) => `employee ${id}`,
    employeeWithExternal: (id: string, externalId: string) => `employee ${id} (${externalId})`,
    speeding: (speed: string) => `Speeding: ${speed}`,
    speedingNoSpeed: 'Speeding',
    zoneEntered: (zone: string) => `Entered zone “${zone}”`,
    zoneLeft: (zone: string) => `Left zone “${zone}”`,
    zoneEvent: 'Zone entry or exit',
    stop: 'Stop',
    powerOff: 'Power off',
    loading: 'Waste loading',
    sensorOutOfRange: (sensor: string, value: string) => `Sensor ${sensor} out of range: ${value}`,
    tripEnded: 'Trip ended',
    arrival: 'Estimated arrival',
    otherSignal: (type: string) => `Signal ${type}`,
    time: (time: string) => `Time: ${time}`,
    position: (latitude: string, longitude: string) => `Position: ${latitude}, ${longitude}`,
    speed: (speed: string) => `Speed: ${speed}`,
    task: (id: string) => `Task ${id}`,
    taskWithClient: (id: string, client: string) => `Task ${id} (${client})`,
    arrivalAt: (time: string) => `Expected at: ${time}`,
    taskAdded: (task: string) => `Task ${task} added`,
    taskChanged: (task: string) => `Task ${task} changed`,
    taskDeleted: (task: string) => `Task ${task} deleted`,
    /** A task whose status changed, by status: 0 new, 1 accepted, 2 rejected, 3 done, 4 in progress. */
    taskStatus: [
      (task: string) => `Task ${task} moved back to new`,
      (task: string) => `Task ${task} accepted`,
      (task: string) => `Task ${task} rejected`,
      (task: string) => `Task ${task} completed`,
      (task: string) => `Task ${task} started`,
    ],
    employeeAdded: (employee: string) => `Employee ${employee} added`,
    employeeChanged: (employee: string) => `Employee ${employee} changed`,
    employeeDeleted: (employee: string) => `Employee ${employee} deleted`,
    /** A task or employee by its title or name, else its id. */
    named: (name: string) => `“${name}”`,
    numbered: (id: string) => `#${id}`,
    changedFields: (fields: string) => `Changed: ${fields}`,
    /** Names of changed fields a reader knows; any other shows as the interface names it. */
    fieldNames: {
      title: 'title',
      description: 'description',
      address: 'address',
      deadline: 'deadline',
      startDate: 'start',
      status: 'status',
      lastStatusChangeDate: 'status time',
      subscriberID: 'employee',
      clientName: 'client',
      clientPhone: 'client’s phone',
      priority: 'priority',
      name: 'name',
      phone: 'phone',
      isActive: 'active',
      subscriberGroupID: 'group',
      externalSubscriberID: 'external ID',
    },
  },
  reports: {
    /** Report titles: sheet names and e-mail subjects. */
    titles: { trips: 'Trips', stops: 'Stops', fuel: 'Fuel', zoneVisits: 'Zone visits', speeding: 'Speeding', summary: 'Summary' },
    employeeId: 'Employee ID',
    employee: 'Employee',
    total: 'Total',
    /** A duration column's header in CSV, where durations are written in seconds. */
    inSeconds: (header: string) => `${header}, s`,
    /** Each report's columns after the employee's, in the order of report-columns.ts. */
    columns: {
      trips: ['Track ID', 'Start', 'Finish', 'Start address', 'Finish address', 'Distance, m', 'Duration', 'Max speed, km/h', 'Average speed, km/h'],
      stops: ['Start', 'Finish', 'Duration', 'Idling', 'Address', 'Latitude', 'Longitude'],
      fuel: ['Date', 'Start fuel, l', 'End fuel, l', 'Fillings', 'Filled, l', 'Drains', 'Drained, l', 'Consumption, l', 'Mileage, km', 'l/100 km'],
      zoneVisits: ['Zone ID', 'Zone', 'Entered', 'Left', 'Time inside', 'Latitude', 'Longitude'],
      speeding: ['Date', 'Max speed, km/h', 'Limit, km/h', 'Prolonged', 'Latitude', 'Longitude'],
      summary: [
        'Date',
        'Mileage, km',
        'Trips',
        'Driving',
        'Engine, h',
        'Idling',
        'Max speed, km/h',
        'Fuel used, l',
        'Filled, l',
        'Drained, l',
        'Speedings',
        'Zone visits',
      ],
    },
    /** A period of days, written by `days` (one day, or the first and last). */
    period: (first: string, last: string) => `${first} to ${last}`,
    mailSubject: (scheduleName: string, title: string, period: string) => `${scheduleName}: ${title} ${period}`,
    mailAttached: (title: string, scheduleName: string, period: string, zone: string) =>
      `${title} report “${scheduleName}” for ${period} (${zone}), attached as an Excel workbook.`,
    mailSchedule: (frequency: string, time: string, next: string) => `Sent by Lokator on schedule (${frequency} at ${time}); next: ${next}.`,
    frequencies: { daily: 'daily', weekly: 'weekly', monthly: 'monthly' },
    /** Whom a scheduled report covers: so many employees (`employees` counts them), or everyone. */
    forEmployees: (counted: string) => `For ${counted}.`,
    forAllEmployees: 'For all employees.',
    employees: plural({ one: 'employee', other: 'employees' }),
  },
} as const;

export type Catalogue = CatalogueShape<typeof en>;
