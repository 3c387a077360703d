import type { CatalogueOf } from './catalogue.js';
import type { en } from './en.js';
import { appRu } from './ru/app.js';
import { settingsRu } from './ru/settings.js';
import { mapRu } from './ru/map.js';
import { employeesRu } from './ru/employees.js';
import { tasksRu } from './ru/tasks.js';
import { objectsRu } from './ru/objects.js';
import { zonesRu } from './ru/zones.js';
import { eventsRu } from './ru/events.js';
import { deliveriesRu } from './ru/deliveries.js';
import { tracksRu } from './ru/tracks.js';
import { reportsRu } from './ru/reports.js';
import { alertsRu } from './ru/alerts.js';
import { replayRu } from './ru/replay.js';
import { mobileRu } from './ru/mobile.js';
import { auditRu } from './ru/audit.js';
import { peopleRu } from './ru/people.js';

/** The Russian catalogue, of the English one's shape: a key missing here fails the typecheck. */
export const ru: CatalogueOf<typeof en> = { ...appRu, ...settingsRu, ...mapRu, ...employeesRu, ...tasksRu, ...objectsRu, ...zonesRu, ...eventsRu, ...deliveriesRu, ...tracksRu, ...reportsRu, ...alertsRu, ...replayRu, ...mobileRu, ...auditRu, ...peopleRu };
