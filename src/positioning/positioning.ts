/** The face of positioning: what other modules may use of it (see .dependency-cruiser.mjs). */
export type { Fix } from './fix.js';
export { Location } from './location-schema.js';
export { UnknownDevice } from './fix-ingest.js';
export { ingestBounds } from './ingest-port.js';
export type { FixSource, IngestFrame, IngestPort } from './ingest-port.js';
export type { LocationService } from './location-service.js';
export { LIVE_WINDOW_MS } from './pipeline/pipeline-signals.js';
export type { BatchSignals, FixSignals, PipelineSignals, SignalBatch } from './pipeline/pipeline-signals.js';
export type { PipelineFix, TrackRecord, TrackSettings } from './pipeline/pipeline-types.js';
export { PositionRetention } from './position-retention.js';
export type { DerivedRemoved } from './position-retention.js';
export { EXIT_MARGIN_M, FixZones } from './pipeline/zone-visit-detector.js';
export { ReportData } from './report-data.js';
export type { DayEdges, LatestFix, ReportEvent, ReportTrack, ReportZoneVisit } from './report-data.js';
export type { FixMetrics } from './pipeline/pipeline-types.js';
