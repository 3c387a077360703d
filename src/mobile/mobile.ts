/** The face of mobile: the OsmAnd listener phones report to, on its own port (see .dependency-cruiser.mjs). */
import { buildOsmAndServer, type OsmAndListener, type OsmAndOptions } from './osmand-server.js';

export type MobileDependencies = OsmAndOptions;

/** The listener, not listening yet: main.ts listens on OSMAND_PORT and closes it on shutdown. */
export function createMobile(deps: MobileDependencies): OsmAndListener {
  return buildOsmAndServer(deps);
}
