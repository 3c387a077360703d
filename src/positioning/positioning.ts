/** The face of positioning: what other modules may use of it (see .dependency-cruiser.mjs). */
import { appLocationRoutes } from './app-location-routes.js';
import type { AccountReader, AccountSettingsWriter } from '../accounts/accounts.js';
import type { EmployeeDevices, EmployeeDirectory } from '../employees/employees.js';
import type { Geozones } from '../geozones/geozones.js';
import type { Metrics } from '../http/observability.js';
import type { Routes } from '../http/route-types.js';
import type { Database } from '../store/database.js';
import { AddressFiller } from './address-filler.js';
import { AddressResolver } from './address-resolver.js';
import { NominatimGeocoder, type PlaceSearch } from './geocoder.js';
import { gpsFilterRoutes } from './gps-filter-routes.js';
import { locationRoutes } from './location-routes.js';
import { LocationService } from './location-service.js';
import { MobileLocations } from './mobile-locations.js';
import { mobilePositioningRoutes } from './mobile-positioning-routes.js';
import type { PipelineSignals } from './pipeline/pipeline-signals.js';
import { PositionRetention } from './position-retention.js';
import { ReportData } from './report-data.js';
import { StatisticsService } from './statistics-service.js';
import { subscriberRequestRoutes } from './subscriber-request-routes.js';
import { SubscriberRequestService } from './subscriber-request-service.js';
import { TrackExportService } from './track-export-service.js';
import { trackExportRoutes } from './track-export-routes.js';
import { trackRoutes } from './track-routes.js';
import { TrackService } from './track-service.js';
import { VehicleEventService } from './vehicle-event-service.js';

/** Where fixes come in: the ingest port every device listener feeds, and the ingestion route's batches. */
export type LocationIngest = Pick<LocationService, 'ingest' | 'ingestBatch'>;
/** Each employee's latest fix. */
export type LatestFixes = Pick<LocationService, 'latestOfEach'>;
/** The latest fixes, and every batch as it commits: the workspace's live map. */
export type LiveFixes = Pick<LocationService, 'latestOfEach' | 'onCommitted'>;

export interface PositioningDependencies {
  database: Database;
  clock?: () => number;
  metrics: Metrics;
  /** The account of a device's fixes; the GPS-filter route stores its part of the account's settings. */
  accounts: Pick<AccountReader, 'getCached'> & AccountSettingsWriter;
  /** The owners of device keys and their presence; names, vehicle settings and living ids of employees. */
  employees: EmployeeDevices & Pick<EmployeeDirectory, 'get' | 'livingIds' | 'vehicleSettingsOf'>;
  /** Zone visits, and the places tracks are named after. */
  geozones: Pick<Geozones, 'lookup' | 'places'>;
  /** What batches of fixes fire (the signals module's); none: nothing fires. */
  signals: PipelineSignals | null;
  /** SIGNAL_MAX_AGE: fixes dated longer than this before their arrival fire no signal. */
  signalMaxAgeMs?: number;
  /** GEOCODER_URL and GEOCODER_TIMEOUT_MS: a reverse geocoder that names tracks' ends after ingestion. */
  geocoder?: { url: string; timeoutMs: number } | null;
  /** Rows removed per transaction by retention. */
  retentionBatchRows: number;
}

export interface Positioning extends LocationIngest, LiveFixes {
  /** Tracks, events, zone visits and fixes as the reports read them. */
  reportData: ReportData;
  /** Removal of old fixes and what was derived from them, and the weekly partitions (the retention job's). */
  retention: PositionRetention;
  /** Names tracks' ends from the geocoder, when there is one; started and stopped by main.ts. */
  addressFiller: AddressFiller | null;
  /** The maps' address search, through the geocoder; null without one. */
  places: PlaceSearch | null;
  /** Under `/v6/api`: locations (their ingestion bodies up to `ingestBodyLimitBytes`), tracks and their GPX/KML files, statistics, locate requests, the GPS filter. */
  routes(options: { ingestBodyLimitBytes: number }): Routes;
  /** Under `/mobile/v1` (the device key already checked): the positions the employee's app takes. */
  mobileRoutes: Routes;
}

export function createPositioning(deps: PositioningDependencies): Positioning {
  const { database, clock = Date.now, accounts, employees, geocoder } = deps;
  const addresses = new AddressResolver(deps.geozones);
  const geocoding = geocoder ? new NominatimGeocoder(geocoder.url, geocoder.timeoutMs) : null;
  const locations = new LocationService({ database, accounts, employees, metrics: deps.metrics, addresses, clock, signals: deps.signals, signalMaxAgeMs: deps.signalMaxAgeMs });
  const tracks = new TrackService(database, addresses, clock);
  const vehicleEvents = new VehicleEventService(database, clock);
  const trackFiles = new TrackExportService(database, tracks, employees, clock);
  const statistics = new StatisticsService(database, employees, clock);
  const mobileLocations = new MobileLocations(database, locations, addresses);
  const subscriberRequests = new SubscriberRequestService({ database, employees, locations, clock });
  return {
    ingest: locations.ingest,
    ingestBatch: (account, inputs) => locations.ingestBatch(account, inputs),
    latestOfEach: (account, subscriberIDs) => locations.latestOfEach(account, subscriberIDs),
    onCommitted: (listener) => locations.onCommitted(listener),
    reportData: new ReportData(database, tracks, clock),
    retention: new PositionRetention(database, deps.retentionBatchRows),
    addressFiller: geocoding ? new AddressFiller(database, geocoding) : null,
    places: geocoding,
    routes: ({ ingestBodyLimitBytes }) =>
      async (api) => {
        await api.register(locationRoutes(locations, ingestBodyLimitBytes));
        await api.register(trackRoutes(tracks, vehicleEvents, statistics));
        await api.register(trackExportRoutes(trackFiles));
        await api.register(mobilePositioningRoutes(mobileLocations, tracks));
        await api.register(subscriberRequestRoutes(subscriberRequests));
        await api.register(gpsFilterRoutes(accounts));
      },
    mobileRoutes: appLocationRoutes(locations),
  };
}

export type { Fix } from './fix.js';
export type { FoundPlace, PlaceSearch } from './geocoder.js';
export { GeocoderError } from './geocoder.js';
export { Location } from './location-schema.js';
export { UnknownDevice } from './fix-ingest.js';
export { ingestBounds } from './ingest-port.js';
export type { FixSource, IngestFrame, IngestPort } from './ingest-port.js';
export { LIVE_WINDOW_MS } from './pipeline/pipeline-signals.js';
export type { BatchSignals, FixSignals, PipelineSignals, SignalBatch } from './pipeline/pipeline-signals.js';
export type { PipelineFix, TrackRecord, TrackSettings } from './pipeline/pipeline-types.js';
export type { DerivedRemoved, PositionRetention } from './position-retention.js';
export { EXIT_MARGIN_M, FixZones } from './pipeline/zone-visit-detector.js';
export type { DayEdges, LatestFix, ReportData, ReportEvent, ReportTrack, ReportZoneVisit } from './report-data.js';
export type { FixMetrics } from './pipeline/pipeline-types.js';
