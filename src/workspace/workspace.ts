/** The face of workspace: the coordinators' own routes, the live map and the built workspace (see .dependency-cruiser.mjs). */
import type { FastifyRequest } from 'fastify';
import type { WorkspaceSessions } from '../accounts/accounts.js';
import type { AlertFeed } from '../alerts/alerts.js';
import { settings as configSettings, type Config } from '../config.js';
import type { Routes } from '../http/route-types.js';
import type { LiveFixes, PlaceSearch } from '../positioning/positioning.js';
import { arrivalRoutes, type ArrivalEstimates } from './arrival-routes.js';
import { LiveFeed } from './live-feed.js';
import { placeRoutes } from './place-routes.js';
import { builtWorkspaceDir, workspaceStaticFiles } from './static-files.js';
import { twoFactorRoutes } from './two-factor-routes.js';
import { workspaceRoutes, type WorkspaceSettings } from './workspace-routes.js';

export interface WorkspaceDependencies {
  sessions: WorkspaceSessions;
  /** The onRequest hook of /workspace/api: the cookie's session (but for signing in), then the role against the route's permission. */
  authenticate: (request: FastifyRequest) => Promise<void>;
  /** The latest fixes and each batch as it commits: the live map. */
  fixes: LiveFixes;
  /** What the live stream tells of alerts: the newest one and the unhandled count. */
  alerts: AlertFeed;
  /** When each task's assignee is expected at its point (the signals module's estimate). */
  arrivals: ArrivalEstimates;
  /** The maps' address search (GEOCODER_URL); null: none, and the search box is hidden. */
  places?: PlaceSearch | null;
}

/** What the workspace shows of the server's settings, and where it is built. */
export type WorkspaceConfig = Partial<Pick<Config, 'MAP_TILE_URL' | 'MAP_TILE_ATTRIBUTION' | 'PUBLIC_URL'>> & {
  /** The built workspace (web/dist); found beside the package when not given, not served when absent. */
  workspaceDir?: string | null;
};

export interface Workspace {
  /** Ends the open live streams (the server's close). */
  live: Pick<LiveFeed, 'close'>;
  /**
   * At the root: sign-in, the live stream and arrivals under `/workspace/api`, and the built
   * workspace at `/`; `devices` are the connection settings the Employees tab shows.
   */
  routes(config: WorkspaceConfig, devices: WorkspaceSettings['devices']): Routes;
}

export function createWorkspace({ sessions, authenticate, fixes, alerts, arrivals, places = null }: WorkspaceDependencies): Workspace {
  const live = new LiveFeed(fixes, alerts);
  return {
    live,
    routes: (config, devices) => {
      const settings = workspaceSettings(config, devices, places !== null);
      const builtDir = config.workspaceDir === undefined ? builtWorkspaceDir() : config.workspaceDir;
      return async (app) => {
        await app.register(workspaceRoutes(sessions, authenticate, live, settings));
        await app.register(arrivalRoutes(authenticate, arrivals));
        await app.register(twoFactorRoutes(sessions, authenticate));
        // Without a geocoder there is no address search: the route is absent (404), as the search box is.
        if (places) await app.register(placeRoutes(sessions, places));
        if (builtDir) await app.register(workspaceStaticFiles(builtDir, settings.map));
      };
    },
  };
}

/** What the workspace is told of this server: the map's tiles and address search, the device protocols with their ports, and where devices reach it. */
function workspaceSettings(config: WorkspaceConfig, devices: WorkspaceSettings['devices'], placeSearch: boolean): WorkspaceSettings {
  const tileUrl = config.MAP_TILE_URL ?? configSettings.MAP_TILE_URL.default;
  return {
    map: { tileUrl: tileUrl === 'none' ? null : tileUrl, attribution: config.MAP_TILE_ATTRIBUTION ?? configSettings.MAP_TILE_ATTRIBUTION.default, placeSearch },
    devices,
    // Its origin only: whatever else the URL carries (a path, credentials) is not the workspace's to show.
    publicUrl: config.PUBLIC_URL ? new URL(config.PUBLIC_URL).origin : null,
  };
}
