import type { MigrationProvider } from 'kysely';
import type { Dialect } from '../dialect.js';
import { foundation } from './0001-foundation.js';
import { pipeline } from './0002-pipeline.js';
import { geozones } from './0003-geozones.js';
import { outgoing } from './0004-outgoing.js';
import { workspace } from './0005-workspace.js';
import { clients } from './0006-clients.js';
import { boundaries } from './0007-boundaries.js';
import { growth } from './0008-growth.js';
import { reports } from './0009-reports.js';
import { taskHistory } from './0010-task-history.js';
import { mapObjectPlaces } from './0011-map-object-places.js';
import { deviceIdentity } from './0012-device-identity.js';
import { egtsRetranslators } from './0013-egts-retranslators.js';
import { gpsFilter } from './0014-gps-filter.js';
import { foldedTexts } from './0015-folded-texts.js';
import { accountLanguage } from './0016-account-language.js';
import { identity } from './0017-identity.js';
import { auditTwoFactor } from './0018-audit-two-factor.js';
import { alerts } from './0019-alerts.js';
import { deviceConnections } from './0020-device-connections.js';
import { formFiles } from './0021-form-files.js';
import type { MigrationFactory } from './migration-helpers.js';

/** Every migration, in order. Names sort by their number prefix; never rename a shipped one. */
const migrations: Record<string, MigrationFactory> = {
  '0001-foundation': foundation,
  '0002-pipeline': pipeline,
  '0003-geozones': geozones,
  '0004-outgoing': outgoing,
  '0005-workspace': workspace,
  '0006-clients': clients,
  '0007-boundaries': boundaries,
  '0008-growth': growth,
  '0009-reports': reports,
  '0010-task-history': taskHistory,
  '0011-map-object-places': mapObjectPlaces,
  '0012-device-identity': deviceIdentity,
  '0013-egts-retranslators': egtsRetranslators,
  '0014-gps-filter': gpsFilter,
  '0015-folded-texts': foldedTexts,
  '0016-account-language': accountLanguage,
  '0017-identity': identity,
  '0018-audit-two-factor': auditTwoFactor,
  '0019-alerts': alerts,
  '0020-device-connections': deviceConnections,
  '0021-form-files': formFiles,
};

export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    async getMigrations() {
      return Object.fromEntries(Object.entries(migrations).map(([name, make]) => [name, make(dialect)]));
    },
  };
}
