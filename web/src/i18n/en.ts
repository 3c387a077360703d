import { appEn } from './en/app.js';
import { settingsEn } from './en/settings.js';
import { mapEn } from './en/map.js';
import { employeesEn } from './en/employees.js';
import { tasksEn } from './en/tasks.js';
import { objectsEn } from './en/objects.js';
import { zonesEn } from './en/zones.js';
import { eventsEn } from './en/events.js';
import { deliveriesEn } from './en/deliveries.js';
import { tracksEn } from './en/tracks.js';
import { reportsEn } from './en/reports.js';
import { alertsEn } from './en/alerts.js';
import { replayEn } from './en/replay.js';
import { mobileEn } from './en/mobile.js';
import { auditEn } from './en/audit.js';
import { peopleEn } from './en/people.js';

/** The English catalogue: the source of every key and of the placeholders each message takes. */
export const en = { ...appEn, ...settingsEn, ...mapEn, ...employeesEn, ...tasksEn, ...objectsEn, ...zonesEn, ...eventsEn, ...deliveriesEn, ...tracksEn, ...reportsEn, ...alertsEn, ...replayEn, ...mobileEn, ...auditEn, ...peopleEn } as const;
