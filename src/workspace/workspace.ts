/** The face of workspace: the coordinators' own routes, the live map and the built workspace (see .dependency-cruiser.mjs). */
import type { FastifyRequest } from 'fastify';
import type { WorkspaceSessions } from '../accounts/accounts.js';
import { settings as configSettings, type Config } from '../config.js';
import type { Routes } from '../http/route-types.js';
import type { LiveFixes } from '../positioning/positioning.js';
import { arrivalRoutes, type ArrivalEstimates } from './arrival-routes.js';
import { LiveFeed } from './live-feed.js';
import { builtWorkspaceDir, workspaceStaticFiles } from './static-files.js';
import { twoFactorRoutes } from './two-factor-routes.js';
import { workspaceRoutes, type WorkspaceSettings } from './workspace-routes.js';

export interface WorkspaceDependencies {
  sessions: WorkspaceSessions;
  /** The onRequest hook of /workspace/api: the cookie's session (but for signing in), then the role against the route's permission. */
  authenticate: (request: FastifyRequest) => Promise<void>;
  /** The latest fixes and each batch as it commits: the live map. */
  fixes: LiveFixes;
  /** When each task's assignee is expected at its point (the signals module's estimate). */
  arrivals: ArrivalEstimates;
}

/** What the workspace shows of the server's settings, and where it is built. */
export type WorkspaceConfig = Partial<Pick<Config, 'MAP_TILE_URL' | 'MAP_TILE_ATTRIBUTION'>> & {
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

export function createWorkspace({ sessions, authenticate, fixes, arrivals }: WorkspaceDependencies): Workspace {
  const live = new LiveFeed(fixes);
  return {
    live,
    routes: (config, devices) => {
      const settings = workspaceSettings(config, devices);
      const builtDir = config.workspaceDir === undefined ? builtWorkspaceDir() : config.workspaceDir;
      return async (app) => {
        await app.register(workspaceRoutes(sessions, authenticate, live, settings));
        await app.register(arrivalRoutes(authenticate, arrivals));
        await app.register(twoFactorRoutes(sessions, authenticate));
        if (builtDir) await app.register(workspaceStaticFiles(builtDir, settings.map));
      };
    },
  };
}

/** What the workspace is told of this server: the map's tiles, and the device protocols with their ports. */
function workspaceSettings(config: WorkspaceConfig, devices: WorkspaceSettings['devices']): WorkspaceSettings {
  const tileUrl = config.MAP_TILE_URL ?? configSettings.MAP_TILE_URL.default;
  return {
    map: { tileUrl: tileUrl === 'none' ? null : tileUrl, attribution: config.MAP_TILE_ATTRIBUTION ?? configSettings.MAP_TILE_ATTRIBUTION.default },
    devices,
  };
}
