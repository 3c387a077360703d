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
    /** Each report's column headers after the employee's, by the record's field (kinds/<name>-report.ts lists the columns). */
    columns: {
      trips: {
        trackID: 'Track ID',
        startDate: 'Start',
        finishDate: 'Finish',
        startAddress: 'Start address',
        finishAddress: 'Finish address',
        distance: 'Distance, m',
        duration: 'Duration',
        maxSpeed: 'Max speed, km/h',
        averageSpeed: 'Average speed, km/h',
      },
      stops: {
        startDate: 'Start',
        finishDate: 'Finish',
        duration: 'Duration',
        idleSeconds: 'Idling',
        address: 'Address',
        latitude: 'Latitude',
        longitude: 'Longitude',
      },
      fuel: {
        date: 'Date',
        startFuelLevel: 'Start fuel, l',
        endFuelLevel: 'End fuel, l',
        fillings: 'Fillings',
        filledLitres: 'Filled, l',
        drains: 'Drains',
        drainedLitres: 'Drained, l',
        fuelConsumption: 'Consumption, l',
        mileage: 'Mileage, km',
        consumptionPer100Km: 'l/100 km',
      },
      zoneVisits: {
        zoneID: 'Zone ID',
        zoneName: 'Zone',
        enteredDate: 'Entered',
        leftDate: 'Left',
        duration: 'Time inside',
        latitude: 'Latitude',
        longitude: 'Longitude',
      },
      speeding: {
        date: 'Date',
        maxSpeed: 'Max speed, km/h',
        speedLimit: 'Limit, km/h',
        prolonged: 'Prolonged',
        latitude: 'Latitude',
        longitude: 'Longitude',
      },
      summary: {
        date: 'Date',
        mileage: 'Mileage, km',
        trips: 'Trips',
        drivingSeconds: 'Driving',
        engineMotohours: 'Engine, h',
        idleSeconds: 'Idling',
        maxSpeed: 'Max speed, km/h',
        fuelConsumption: 'Fuel used, l',
        filledLitres: 'Filled, l',
        drainedLitres: 'Drained, l',
        speedings: 'Speedings',
        zoneVisits: 'Zone visits',
      },
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
