/**
 * The SQL the stores send, per module and dialect, as readable files in src/queries/ (the habit of
 * immich's src/queries/*.sql): a change to a query shows as a SQL diff in review. Each store
 * function runs once with representative arguments against a recorder (scripts/sql-recorder.ts)
 * that compiles and records every statement and runs nothing.
 *
 *   npm run sql:snapshots    # writes src/queries/<module>.<dialect>.sql
 *
 * test/architecture/sql-snapshots.test.ts fails when a file differs from what this writes, and
 * when a store function or a file with SQL is missing from the catalogue below.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'sql-formatter';
import * as accounts from '../src/accounts/account-store.js';
import * as sessions from '../src/accounts/session-store.js';
import * as alertStore from '../src/alerts/alert-store.js';
import * as tokens from '../src/accounts/token-store.js';
import * as twoFactor from '../src/accounts/two-factor-store.js';
import * as users from '../src/accounts/user-store.js';
import * as audit from '../src/audit/audit-store.js';
import * as templates from '../src/customfields/custom-field-store.js';
import { DeliveryQueue, type AttemptResult, type Head } from '../src/delivery/delivery-queue.js';
import * as deliveryLog from '../src/delivery/delivery-log-store.js';
import { Outbox } from '../src/delivery/outbox.js';
import * as secrets from '../src/delivery/signing-secret-store.js';
import * as retranslators from '../src/devices/retranslator-store.js';
import * as employees from '../src/employees/employee-store.js';
import * as formFiles from '../src/files/form-file-store.js';
import * as groups from '../src/employees/subscriber-group-store.js';
import * as idempotency from '../src/http/idempotency-store.js';
import * as mapObjects from '../src/geozones/map-object-store.js';
import * as zoneGroups from '../src/geozones/zone-group-store.js';
import * as zones from '../src/geozones/zone-store.js';
import { bumpZoneVersion, lockZoneWrites, ZoneVersionReader } from '../src/geozones/zone-version-store.js';
import { LocationPartitions } from '../src/positioning/location-partitions.js';
import { findLocation, insertionOf, latestFixes, listLocations, LocationStore, subscribersWithData, validFixesBetween } from '../src/positioning/location-store.js';
import * as positionRetention from '../src/positioning/retention-store.js';
import * as pipeline from '../src/positioning/pipeline/pipeline-store.js';
import { SubscriberWrites } from '../src/positioning/pipeline/pipeline-writes.js';
import type { SubscriberState } from '../src/positioning/pipeline/subscriber-pipeline.js';
import { bucketEdges, bucketRows, engineTotalsAt, fuelChanges, periodEdges, processedFixes, windowEdges } from '../src/positioning/statistics-store.js';
import * as tracks from '../src/positioning/track-store.js';
import { listVehicleEvents } from '../src/positioning/vehicle-event-store.js';
import * as requests from '../src/positioning/subscriber-request-store.js';
import { listZoneVisits } from '../src/positioning/zone-visit-store.js';
import * as schedules from '../src/reports/schedule-store.js';
import * as runLock from '../src/retention/run-lock-store.js';
import type { ScheduleFields } from '../src/reports/schedule-store.js';
import * as rules from '../src/signals/event-rule-store.js';
import type { StoredRule } from '../src/signals/event-rule-schema.js';
import { allocateSignalIds } from '../src/signals/signal-ids.js';
import { openTaskDestinations } from '../src/tasks/task-destinations.js';
import * as tasks from '../src/tasks/task-store.js';
import type { Database, Dialect, Tx } from '../src/store/database.js';
import { weekStartMs } from '../src/store/weeks.js';
import { SqlRecorder } from './sql-recorder.js';

const root = new URL('..', import.meta.url).pathname;
export const QUERIES_DIR = join(root, 'src/queries');

export interface Entry {
  /** The store file under src/, and the function (or Class.method) whose statements these are. */
  file: string;
  name: string;
  run: (context: { database: Database; tx: Tx }) => Promise<unknown>;
  /** Rows answered to the entry's statements in turn, where a later statement depends on them. */
  answers?: unknown[][] | ((dialect: Dialect) => unknown[][]);
  /** Only on this store (the other has no such statement). */
  only?: Dialect;
}

const ACCOUNT = 1;
const SUBSCRIBER = 10;
const T = Date.parse('2026-06-01T09:00:00Z');
const HOUR = 3_600_000;
const WEEK = 7 * 24 * HOUR;
/** The Monday 00:00 UTC of T's week: weekly partitions start there. */
const MONDAY = weekStartMs(T);

/** A weekly partition of the locations as PostgreSQL lists it (store/time-partitions.ts reads the bounds back). */
const partition = (name: string, fromMs: number, toMs: number) => ({ name, bound: `FOR VALUES FROM ('${fromMs}') TO ('${toMs}')`, pending: false });
/** Before an insert on PostgreSQL: the partition lock, then the partitions (the newest past the fixes: none is made). */
const partitionsCovering = (dialect: Dialect) => (dialect === 'postgres' ? [[], [partition('locations_w20260601', MONDAY, MONDAY + WEEK)]] : []);

const rule = { id: 3, name: 'Speeding', kind: 1, enabled: true, subscriberIDs: [SUBSCRIBER], parameters: { speedLimit: 90 } } as unknown as StoredRule;
const delivery = { id: 41, accountId: ACCOUNT, eventRuleId: 3, channel: 'webhook', target: 'https://hooks.example.com/', messageId: 'msg_1', payload: '{}', attemptCount: 0, nextAttemptAt: T, createdAt: T } as const;
const attempt: AttemptResult = { delivery, attemptedAt: T, durationMs: 40, statusCode: 503, error: 'HTTP 503', status: 'pending', nextAttemptAt: T + 60_000 };
const head: Head = { id: 41, key: 'k', nextAttemptAt: T, lockedUntil: null, delivery };

/** One subscriber's run that writes a row of every kind, and a replay window to clear. */
function everyWrite(): SubscriberWrites {
  const writes = new SubscriberWrites(SUBSCRIBER);
  const metrics = { cumDistanceM: 1200, cumTrackM: 1100, cumEngineS: 600, fuelSmoothed: 40, odoAnchorKm: null, odoAnchorCumM: 0, odoAnchorTrackM: 0 };
  writes.state = { lastFixMs: T } as unknown as SubscriberState;
  writes.checkpoint({ atMs: T, state: '{}' });
  writes.track({ startMs: T - HOUR, finishMs: T, startLat: 55.75, startLon: 37.6, finishLat: 55.76, finishLon: 37.62, distanceM: 1100, isOpen: false, maxSpeedKmh: 72 });
  writes.dropTrack(T - 2 * HOUR);
  writes.event({ type: 4, eventMs: T - 600_000, detail: 0, latitude: 55.75, longitude: 37.61, value: 95 });
  writes.bucket({ bucketMs: T, firstFixMs: T, lastFixMs: T, fixCount: 1, before: metrics, firstFuel: 40, end: metrics });
  writes.metrics.push([1001, metrics, true, 0]);
  writes.zoneVisit({ zoneId: 7, zoneName: 'Depot', enteredMs: T - 900_000, leftMs: T - 300_000, latitude: 55.75, longitude: 37.61 });
  writes.replay = { fromMs: T - 2 * HOUR, staleTrackStarts: [T - 3 * HOUR], staleEventKeys: [`${T - 700_000}:4:0`] };
  return writes;
}

const zoneColumns = { name: 'Depot', color: 0, enabled: 1, zone_group_id: 2, comment: '', custom_fields_form_template_id: null, bounds: '[]', custom_field_form_items: '[]' };
const mapObject = { name: 'Depot', address: 'Tverskaya 1', latitude: 55.76, longitude: 37.61, external_id: null, comment: '', group_id: null };

const employeeRow = { name: 'Ivan Petrov', external_id: 'TRUCK-7', is_active: 1, group_id: 4, device_key: 'k3y', device_protocol: 'wialonIps', device_password: 'scrypt$hash', document: '{}', vehicle_settings: '{}' };

const taskRow = { subscriber_id: SUBSCRIBER, external_id: 'T-1', status: 0, start_ms: T, deadline_ms: T + HOUR, document: '{}', task_type_id: 2 };

const metricRow = { cum_distance_m: 1200, cum_track_m: 1100, cum_engine_s: 600, fuel_smoothed: 40, odo_anchor_km: null, odo_anchor_cum_m: 0, odo_anchor_track_m: 0 };

const schedule: ScheduleFields = {
  name: 'Fleet week', report: 'summary', subscriber_ids: '[]', subscriber_group_ids: '[3]', recipients: '["fleet@example.com"]', frequency: 'weekly', weekday: 1, month_day: null,
  time_of_day: '08:00', enabled: 1, next_run_ms: T, updated_at: T,
};

const fix = { subscriberId: SUBSCRIBER, locationDateMs: T, isValid: true, latitude: 55.75, longitude: 37.6, angle: 90, velocityKmh: 42, fuelLevel: null, ignition: true, externalPower: null, odometer: null, engineHours: null, sensors: null };

export const catalogue: Entry[] = [
  // accounts
  { file: 'alerts/alert-store.ts', name: 'insertAlerts', run: ({ tx }) => alertStore.insertAlerts(tx, ACCOUNT, [{ kind: '1', eventRuleId: 3, ruleName: 'Over 60', subscriberId: 7, occurredAtMs: T, latitude: 55.75, longitude: 37.6, zoneName: null, address: null, facts: {} }], T) },
  { file: 'alerts/alert-store.ts', name: 'listAlerts', run: ({ database }) => alertStore.listAlerts(database.db, ACCOUNT, { kinds: ['1'], subscriberIds: [7, 8], fromMs: T - HOUR, toMs: T, handled: false, beforeId: 50, count: 50 }) },
  { file: 'alerts/alert-store.ts', name: 'markHandled', run: ({ database }) => alertStore.markHandled(database.db, ACCOUNT, 41, { id: 2, login: 'coordinator' }, T) },
  { file: 'alerts/alert-store.ts', name: 'alertState', run: ({ database }) => alertStore.alertState(database.db, ACCOUNT, 1000) },
  { file: 'accounts/session-store.ts', name: 'userLogins', run: ({ database }) => sessions.userLogins(database.db, ACCOUNT, [2, 3]) },
  { file: 'accounts/account-store.ts', name: 'findAccount', run: ({ database }) => accounts.findAccount(database.db, ACCOUNT) },
  { file: 'accounts/account-store.ts', name: 'changeAccount', run: ({ database }) => accounts.changeAccount(database.db, ACCOUNT, { smsEnabled: true, retentionDays: 90 }) },
  { file: 'accounts/account-store.ts', name: 'changeAccountProfile', run: ({ database }) => accounts.changeAccountProfile(database.db, ACCOUNT, { name: 'A', timeZone: 'Europe/Moscow', locale: 'ru' }, T) },
  { file: 'accounts/account-store.ts', name: 'anyAccount', run: ({ database }) => accounts.anyAccount(database.db) },
  { file: 'accounts/account-store.ts', name: 'listAccounts', run: ({ database }) => accounts.listAccounts(database.db) },
  { file: 'accounts/account-store.ts', name: 'insertAccount', run: ({ tx }) => accounts.insertAccount(tx, { name: 'Fleet', timeZone: 'UTC' }, T) },
  { file: 'accounts/token-store.ts', name: 'findTokenPrincipal', run: ({ database }) => tokens.findTokenPrincipal(database.db, 'digest') },
  { file: 'accounts/token-store.ts', name: 'touchToken', run: ({ database }) => tokens.touchToken(database.db, ACCOUNT, 4, T, T - 60_000) },
  { file: 'accounts/token-store.ts', name: 'listTokens', run: ({ database }) => tokens.listTokens(database.db, ACCOUNT) },
  { file: 'accounts/token-store.ts', name: 'findToken', run: ({ database }) => tokens.findToken(database.db, ACCOUNT, 4) },
  { file: 'accounts/token-store.ts', name: 'insertToken', run: ({ tx }) => tokens.insertToken(tx, { accountId: ACCOUNT, userId: 5, tokenHash: 'digest', label: 'First token', role: 'admin', subscriberGroupIds: null }, T) },
  { file: 'accounts/token-store.ts', name: 'changeToken', run: ({ tx }) => tokens.changeToken(tx, ACCOUNT, 4, { label: 'Warehouse', role: 'viewer', subscriberGroupIds: '[3]' }) },
  { file: 'accounts/token-store.ts', name: 'revokeToken', run: ({ tx }) => tokens.revokeToken(tx, ACCOUNT, 4, T) },
  { file: 'accounts/user-store.ts', name: 'listUsers', run: ({ database }) => users.listUsers(database.db, ACCOUNT) },
  { file: 'accounts/user-store.ts', name: 'findUser', run: ({ database }) => users.findUser(database.db, ACCOUNT, 5) },
  { file: 'accounts/user-store.ts', name: 'findUser (update lock)', run: ({ tx }) => users.findUser(tx, ACCOUNT, 5, true), only: 'postgres' },
  { file: 'accounts/user-store.ts', name: 'activeAdminIds', run: ({ tx }) => users.activeAdminIds(tx, ACCOUNT, false) },
  { file: 'accounts/user-store.ts', name: 'activeAdminIds (update lock)', run: ({ tx }) => users.activeAdminIds(tx, ACCOUNT, true), only: 'postgres' },
  { file: 'accounts/user-store.ts', name: 'changeUser', run: ({ tx }) => users.changeUser(tx, ACCOUNT, 5, { name: 'Anna', role: 'viewer', subscriberGroupIds: '[3]', isActive: false, passwordHash: 'scrypt$…', mustChangePassword: true }) },
  { file: 'accounts/user-store.ts', name: 'deleteUserSessions', run: ({ tx }) => users.deleteUserSessions(tx, ACCOUNT, 5) },
  { file: 'accounts/user-store.ts', name: 'forgetTokenMaker', run: ({ tx }) => users.forgetTokenMaker(tx, ACCOUNT, 5) },
  { file: 'accounts/user-store.ts', name: 'deleteUser', run: ({ tx }) => users.deleteUser(tx, ACCOUNT, 5) },
  { file: 'accounts/user-store.ts', name: 'recordSignIn', run: ({ database }) => users.recordSignIn(database.db, ACCOUNT, 5, T) },
  { file: 'accounts/session-store.ts', name: 'findUserByLogin', run: ({ database }) => sessions.findUserByLogin(database.db, 'dispatcher') },
  { file: 'accounts/session-store.ts', name: 'insertUser', run: ({ database }) => sessions.insertUser(database.db, ACCOUNT, { login: 'dispatcher', passwordHash: 'scrypt$…', role: 'dispatcher', subscriberGroupIds: '[3]', mustChangePassword: true }, T) },
  { file: 'accounts/session-store.ts', name: 'findPasswordHash', run: ({ database }) => sessions.findPasswordHash(database.db, ACCOUNT, 5) },
  { file: 'accounts/session-store.ts', name: 'setPasswordHash', run: ({ tx }) => sessions.setPasswordHash(tx, ACCOUNT, 5, 'scrypt$…') },
  { file: 'accounts/session-store.ts', name: 'deleteEndedSessions', run: ({ tx }) => sessions.deleteEndedSessions(tx, T) },
  { file: 'accounts/session-store.ts', name: 'insertSession', run: ({ tx }) => sessions.insertSession(tx, { tokenHash: 'h', accountId: ACCOUNT, userId: 5, createdAt: T, expiresAt: T + HOUR, setupOnly: false }) },
  { file: 'accounts/session-store.ts', name: 'findSession', run: ({ database }) => sessions.findSession(database.db, 'h') },
  { file: 'accounts/session-store.ts', name: 'extendSession', run: ({ database }) => sessions.extendSession(database.db, ACCOUNT, 'h', T + HOUR) },
  { file: 'accounts/session-store.ts', name: 'deleteSession', run: ({ database }) => sessions.deleteSession(database.db, 'h') },
  { file: 'accounts/session-store.ts', name: 'deleteOtherSessions', run: ({ tx }) => sessions.deleteOtherSessions(tx, ACCOUNT, 5, 'h') },
  { file: 'accounts/session-store.ts', name: 'countTry', run: ({ database }) => sessions.countTry(database.db, 'digest', T, 900_000) },
  { file: 'accounts/session-store.ts', name: 'clearTries', run: ({ database }) => sessions.clearTries(database.db, 'digest') },
  { file: 'accounts/session-store.ts', name: 'deleteTriesBefore', run: ({ database }) => sessions.deleteTriesBefore(database.db, T - 900_000) },
  { file: 'accounts/two-factor-store.ts', name: 'findTwoFactor', run: ({ database }) => twoFactor.findTwoFactor(database.db, ACCOUNT, 5) },
  { file: 'accounts/two-factor-store.ts', name: 'setPendingSecret', run: ({ database }) => twoFactor.setPendingSecret(database.db, ACCOUNT, 5, 'BASE32') },
  { file: 'accounts/two-factor-store.ts', name: 'enableTotp', run: ({ tx }) => twoFactor.enableTotp(tx, ACCOUNT, 5, 'BASE32', 59_000_000, T) },
  { file: 'accounts/two-factor-store.ts', name: 'disableTotp', run: ({ tx }) => twoFactor.disableTotp(tx, ACCOUNT, 5) },
  { file: 'accounts/two-factor-store.ts', name: 'takeTotpStep', run: ({ database }) => twoFactor.takeTotpStep(database.db, ACCOUNT, 5, 59_000_000) },
  { file: 'accounts/two-factor-store.ts', name: 'replaceRecoveryCodes', run: ({ tx }) => twoFactor.replaceRecoveryCodes(tx, ACCOUNT, 5, ['h1', 'h2']) },
  { file: 'accounts/two-factor-store.ts', name: 'useRecoveryCode', run: ({ database }) => twoFactor.useRecoveryCode(database.db, ACCOUNT, 5, 'h1', T) },
  { file: 'accounts/two-factor-store.ts', name: 'unusedRecoveryCodes', run: ({ database }) => twoFactor.unusedRecoveryCodes(database.db, ACCOUNT, 5) },
  { file: 'accounts/two-factor-store.ts', name: 'endSetupOnly', run: ({ tx }) => twoFactor.endSetupOnly(tx, ACCOUNT, 5) },
  // audit
  {
    file: 'audit/audit-store.ts',
    name: 'insertAuditEntry',
    run: ({ tx }) =>
      audit.insertAuditEntry(tx, { accountId: ACCOUNT, at: T, actorKind: 'user', actorId: 5, actorLabel: 'anna', address: '203.0.113.7', kind: 'zone.update', objectId: 3, changes: '{}' }),
  },
  {
    file: 'audit/audit-store.ts',
    name: 'listAuditEntries',
    run: ({ database }) =>
      audit.listAuditEntries(database.db, ACCOUNT, { beforeId: 100, count: 50, actorKind: 'user', actorId: 5, kindPrefix: 'employee', fromMs: T - HOUR, toMs: T }),
  },
  { file: 'audit/audit-store.ts', name: 'deleteAuditEntriesBefore', run: ({ database }) => audit.deleteAuditEntriesBefore(database.db, ACCOUNT, T, 500) },

  // customfields
  { file: 'customfields/custom-field-store.ts', name: 'listTemplates', run: ({ database }) => templates.listTemplates(database.db, ACCOUNT) },
  { file: 'customfields/custom-field-store.ts', name: 'findTemplate', run: ({ database }) => templates.findTemplate(database.db, ACCOUNT, 7) },
  { file: 'customfields/custom-field-store.ts', name: 'findTemplate (share lock)', run: ({ tx }) => templates.findTemplate(tx, ACCOUNT, 7, 'share'), only: 'postgres' },
  { file: 'customfields/custom-field-store.ts', name: 'findTemplate (update lock)', run: ({ tx }) => templates.findTemplate(tx, ACCOUNT, 7, 'update'), only: 'postgres' },
  { file: 'customfields/custom-field-store.ts', name: 'insertTemplate', run: ({ tx }) => templates.insertTemplate(tx, ACCOUNT, 'Visit', [], T) },
  { file: 'customfields/custom-field-store.ts', name: 'updateTemplate', run: ({ tx }) => templates.updateTemplate(tx, ACCOUNT, 7, 'Visit', [], T) },
  { file: 'customfields/custom-field-store.ts', name: 'deleteTemplate', run: ({ tx }) => templates.deleteTemplate(tx, ACCOUNT, 7, T) },

  // delivery
  { file: 'delivery/delivery-log-store.ts', name: 'listDeliveries', run: ({ database }) => deliveryLog.listDeliveries(database.db, ACCOUNT, { fromMs: T - HOUR, toMs: T, status: 'failed', eventRuleId: 3, beforeId: 50, count: 1000, offset: 0 }) },
  { file: 'delivery/delivery-log-store.ts', name: 'findDelivery', run: ({ database }) => deliveryLog.findDelivery(database.db, ACCOUNT, 41) },
  { file: 'delivery/delivery-log-store.ts', name: 'requeueDelivery', run: ({ tx }) => deliveryLog.requeueDelivery(tx, ACCOUNT, 41, T) },
  { file: 'delivery/delivery-log-store.ts', name: 'attemptsOf', run: ({ database }) => deliveryLog.attemptsOf(database.db, ACCOUNT, [41, 42]) },
  { file: 'delivery/delivery-log-store.ts', name: 'finishedDeliveriesBefore', run: ({ tx }) => deliveryLog.finishedDeliveriesBefore(tx, ACCOUNT, T - 30 * 24 * HOUR, 500) },
  { file: 'delivery/delivery-log-store.ts', name: 'deleteAttemptsOf', run: ({ tx }) => deliveryLog.deleteAttemptsOf(tx, ACCOUNT, [41, 42]) },
  { file: 'delivery/delivery-log-store.ts', name: 'deleteDeliveries', run: ({ tx }) => deliveryLog.deleteDeliveries(tx, ACCOUNT, [41, 42]) },
  { file: 'delivery/delivery-log-store.ts', name: 'notifyWorkers', run: ({ tx }) => deliveryLog.notifyWorkers(tx, 'lokator_deliveries'), only: 'postgres' },
  { file: 'delivery/signing-secret-store.ts', name: 'insertCurrentSecret', run: ({ database }) => secrets.insertCurrentSecret(database.db, ACCOUNT, 'whsec_…', T) },
  { file: 'delivery/signing-secret-store.ts', name: 'findCurrentSecret', run: ({ database }) => secrets.findCurrentSecret(database.db, ACCOUNT) },
  { file: 'delivery/signing-secret-store.ts', name: 'expireCurrentSecret', run: ({ database }) => secrets.expireCurrentSecret(database.db, ACCOUNT, T + 24 * HOUR) },
  { file: 'delivery/signing-secret-store.ts', name: 'liveSecrets', run: ({ database }) => secrets.liveSecrets(database.db, ACCOUNT, T) },
  { file: 'devices/retranslator-store.ts', name: 'listRetranslators', run: ({ database }) => retranslators.listRetranslators(database.db, ACCOUNT) },
  { file: 'devices/retranslator-store.ts', name: 'findRetranslator', run: ({ database }) => retranslators.findRetranslator(database.db, ACCOUNT, 1) },
  {
    file: 'devices/retranslator-store.ts',
    name: 'insertRetranslator',
    run: ({ database }) => retranslators.insertRetranslator(database.db, { account_id: ACCOUNT, dispatcher_id: 2002, name: 'Regional dispatch', password_hash: 'scrypt$…', created_at: T }),
  },
  { file: 'devices/retranslator-store.ts', name: 'deleteRetranslator', run: ({ database }) => retranslators.deleteRetranslator(database.db, ACCOUNT, 1) },
  { file: 'devices/retranslator-store.ts', name: 'retranslatorsWithDispatcherId', run: ({ database }) => retranslators.retranslatorsWithDispatcherId(database.db, 2002) },
  {
    file: 'files/form-file-store.ts',
    name: 'insertFile',
    run: ({ database }) =>
      formFiles.insertFile(database.db, {
        account_id: ACCOUNT,
        task_id: 311,
        subscriber_id: 17,
        storage_key: '1/6f1c',
        content_type: 'image/jpeg',
        size_bytes: 183204,
        sha256: 'ab12',
        file_name: 'door.jpg',
        acted_at: T,
        created_at: T,
      }),
  },
  { file: 'files/form-file-store.ts', name: 'filesByIds', run: ({ database }) => formFiles.filesByIds(database.db, ACCOUNT, [41, 42]) },
  { file: 'files/form-file-store.ts', name: 'filesCreatedBefore', run: ({ database }) => formFiles.filesCreatedBefore(database.db, ACCOUNT, T, 500) },
  { file: 'files/form-file-store.ts', name: 'taskIdsWithFiles', run: ({ database }) => formFiles.taskIdsWithFiles(database.db, ACCOUNT, 0, 500) },
  { file: 'files/form-file-store.ts', name: 'filesOfTasks', run: ({ database }) => formFiles.filesOfTasks(database.db, ACCOUNT, [311, 312]) },
  { file: 'files/form-file-store.ts', name: 'markFilesDeleted', run: ({ database }) => formFiles.markFilesDeleted(database.db, ACCOUNT, [41, 42], T) },
  { file: 'files/form-file-store.ts', name: 'deleteFileRows', run: ({ database }) => formFiles.deleteFileRows(database.db, ACCOUNT, [41, 42]) },
  { file: 'files/form-file-store.ts', name: 'markedFiles', run: ({ database }) => formFiles.markedFiles(database.db, ACCOUNT, 500) },
  { file: 'delivery/outbox.ts', name: 'Outbox.enqueue', run: ({ database, tx }) => new Outbox(database, () => T).enqueue(tx, [{ accountId: ACCOUNT, eventRuleId: 3, channel: 'webhook', target: 'https://hooks.example.com/', payload: {} }, { accountId: ACCOUNT, eventRuleId: 3, channel: 'email', target: 'ops@example.com', payload: {} }]) },
  { file: 'delivery/delivery-queue.ts', name: 'DeliveryQueue.findHeads', run: ({ database }) => new DeliveryQueue(database).findHeads(100) },
  { file: 'delivery/delivery-queue.ts', name: 'DeliveryQueue.claimHeads', run: ({ database }) => new DeliveryQueue(database).claimHeads([head], 'worker-1', T, T + 30_000), only: 'postgres' },
  { file: 'delivery/delivery-queue.ts', name: 'DeliveryQueue.claimRun', run: ({ database }) => new DeliveryQueue(database).claimRun(delivery, 41, 'worker-1', T, T + 30_000, 32), answers: (dialect) => (dialect === 'postgres' ? [[], [{ id: 42, locked_until: null }]] : []) },
  { file: 'delivery/delivery-queue.ts', name: 'DeliveryQueue.renewLeases', run: ({ database }) => new DeliveryQueue(database).renewLeases('worker-1', T + 30_000), only: 'postgres' },
  { file: 'delivery/delivery-queue.ts', name: 'DeliveryQueue.releaseAllClaims', run: ({ database }) => new DeliveryQueue(database).releaseAllClaims() },
  { file: 'delivery/delivery-queue.ts', name: 'DeliveryQueue.record', run: ({ database }) => new DeliveryQueue(database).record([attempt, attempt], [41], 'worker-1'), answers: [[{ synchronous: 2 }]] },

  // employees
  { file: 'employees/employee-store.ts', name: 'listEmployees', run: ({ database }) => employees.listEmployees(database.db, ACCOUNT, { isActive: true, ids: [SUBSCRIBER, 11], groupIds: [4], limit: 100, offset: 100 }) },
  { file: 'employees/employee-store.ts', name: 'findEmployee', run: ({ database }) => employees.findEmployee(database.db, ACCOUNT, SUBSCRIBER) },
  { file: 'employees/employee-store.ts', name: 'recordDeviceConnection', run: ({ tx }) => employees.recordDeviceConnection(tx, ACCOUNT, SUBSCRIBER, '203.0.113.7', T) },
  { file: 'employees/employee-store.ts', name: 'findEmployee (locked)', run: ({ tx }) => employees.findEmployee(tx, ACCOUNT, SUBSCRIBER, true), only: 'postgres' },
  { file: 'employees/employee-store.ts', name: 'findEmployeeByExternalId', run: ({ database }) => employees.findEmployeeByExternalId(database.db, ACCOUNT, 'TRUCK-7') },
  { file: 'employees/employee-store.ts', name: 'insertEmployee', run: ({ tx }) => employees.insertEmployee(tx, ACCOUNT, employeeRow, T) },
  { file: 'employees/employee-store.ts', name: 'updateEmployee', run: ({ tx }) => employees.updateEmployee(tx, ACCOUNT, SUBSCRIBER, employeeRow, T) },
  { file: 'employees/employee-store.ts', name: 'markEmployeeDeleted', run: ({ tx }) => employees.markEmployeeDeleted(tx, ACCOUNT, SUBSCRIBER, T) },
  { file: 'employees/employee-store.ts', name: 'vehicleSettingsRows', run: ({ database }) => employees.vehicleSettingsRows(database.db, ACCOUNT, [SUBSCRIBER, 11]) },
  { file: 'employees/employee-store.ts', name: 'ingestTargetRows', run: ({ tx, database }) => employees.ingestTargetRows(tx, database, ACCOUNT, [SUBSCRIBER, 11]) },
  { file: 'employees/employee-store.ts', name: 'livingIds', run: ({ database }) => employees.livingIds(database.db, ACCOUNT, [SUBSCRIBER, 11]) },
  { file: 'employees/employee-store.ts', name: 'identityRows', run: ({ database }) => employees.identityRows(database.db, ACCOUNT, [SUBSCRIBER, 11]) },
  { file: 'employees/employee-store.ts', name: 'findByDeviceKeys', run: ({ database }) => employees.findByDeviceKeys(database.db, database, ['k3y', 'k4y']) },
  { file: 'employees/employee-store.ts', name: 'touchSeenAt', run: ({ tx, database }) => employees.touchSeenAt(tx, database, ACCOUNT, [SUBSCRIBER, 11], T) },
  { file: 'employees/employee-store.ts', name: 'silentOnline', run: ({ database }) => employees.silentOnline(database.db, T - 600_000, 500) },
  { file: 'employees/employee-store.ts', name: 'presenceToFlip (going offline; locked on PostgreSQL)', run: ({ database, tx }) => employees.presenceToFlip(tx, database, ACCOUNT, [SUBSCRIBER, 11], { online: false, silentSince: T - 600_000, forUpdate: database.dialect === 'postgres' }) },
  { file: 'employees/employee-store.ts', name: 'writeOnline', run: ({ tx, database }) => employees.writeOnline(tx, database, ACCOUNT, [SUBSCRIBER, 11], { atMs: T }) },
  { file: 'employees/subscriber-group-store.ts', name: 'listGroups', run: ({ database }) => groups.listGroups(database.db, ACCOUNT) },
  { file: 'employees/subscriber-group-store.ts', name: 'findGroup', run: ({ database }) => groups.findGroup(database.db, ACCOUNT, 4) },
  { file: 'employees/subscriber-group-store.ts', name: 'findGroup (share lock)', run: ({ tx }) => groups.findGroup(tx, ACCOUNT, 4, 'share'), only: 'postgres' },
  { file: 'employees/subscriber-group-store.ts', name: 'findGroup (update lock)', run: ({ tx }) => groups.findGroup(tx, ACCOUNT, 4, 'update'), only: 'postgres' },
  { file: 'employees/subscriber-group-store.ts', name: 'insertGroup', run: ({ tx }) => groups.insertGroup(tx, ACCOUNT, { name: 'Couriers', regionID: null, comment: '' }, T) },
  { file: 'employees/subscriber-group-store.ts', name: 'updateGroup', run: ({ tx }) => groups.updateGroup(tx, ACCOUNT, { subscriberGroupID: 4, name: 'Couriers', regionID: null, comment: '' }, T) },
  { file: 'employees/subscriber-group-store.ts', name: 'groupHasEmployees', run: ({ tx }) => groups.groupHasEmployees(tx, ACCOUNT, 4) },
  { file: 'employees/subscriber-group-store.ts', name: 'groupIdsAmong', run: ({ database }) => groups.groupIdsAmong(database.db, ACCOUNT, [3, 4]) },
  { file: 'employees/subscriber-group-store.ts', name: 'deleteGroup', run: ({ tx }) => groups.deleteGroup(tx, ACCOUNT, 4) },

  // geozones
  { file: 'geozones/zone-store.ts', name: 'listZones', run: ({ database }) => zones.listZones(database.db, ACCOUNT) },
  { file: 'geozones/zone-store.ts', name: 'findZone', run: ({ database }) => zones.findZone(database.db, ACCOUNT, 12) },
  { file: 'geozones/zone-store.ts', name: 'insertZone', run: ({ tx }) => zones.insertZone(tx, ACCOUNT, zoneColumns, 3, T) },
  { file: 'geozones/zone-store.ts', name: 'updateZone', run: ({ tx }) => zones.updateZone(tx, ACCOUNT, 12, zoneColumns, 4, T) },
  { file: 'geozones/zone-store.ts', name: 'deleteZone', run: ({ tx }) => zones.deleteZone(tx, ACCOUNT, 12) },
  { file: 'geozones/zone-store.ts', name: 'groupHasZones', run: ({ tx }) => zones.groupHasZones(tx, ACCOUNT, 2) },
  { file: 'geozones/zone-store.ts', name: 'zoneVersions', run: ({ database }) => zones.zoneVersions(database.db, ACCOUNT) },
  { file: 'geozones/zone-store.ts', name: 'zonesForIndex', run: ({ database }) => zones.zonesForIndex(database.db, ACCOUNT, [12, 13]) },
  { file: 'geozones/zone-group-store.ts', name: 'listZoneGroups', run: ({ database }) => zoneGroups.listZoneGroups(database.db, ACCOUNT) },
  { file: 'geozones/zone-group-store.ts', name: 'findZoneGroup', run: ({ database }) => zoneGroups.findZoneGroup(database.db, ACCOUNT, 2) },
  { file: 'geozones/zone-group-store.ts', name: 'insertZoneGroup', run: ({ tx }) => zoneGroups.insertZoneGroup(tx, ACCOUNT, { name: 'Depots', parent_id: null, region_id: null }, T) },
  { file: 'geozones/zone-group-store.ts', name: 'updateZoneGroup', run: ({ tx }) => zoneGroups.updateZoneGroup(tx, ACCOUNT, 2, { name: 'Depots', parent_id: 1, region_id: null }, T) },
  { file: 'geozones/zone-group-store.ts', name: 'groupHasChildren', run: ({ tx }) => zoneGroups.groupHasChildren(tx, ACCOUNT, 2) },
  { file: 'geozones/zone-group-store.ts', name: 'deleteZoneGroup', run: ({ tx }) => zoneGroups.deleteZoneGroup(tx, ACCOUNT, 2) },
  { file: 'geozones/map-object-store.ts', name: 'listMapObjects', run: ({ database }) => mapObjects.listMapObjects(database.db, ACCOUNT, { addressWords: ['приморский', '1'], ids: [5, 6], groupIds: [1] }) },
  { file: 'geozones/map-object-store.ts', name: 'findMapObject', run: ({ database }) => mapObjects.findMapObject(database.db, ACCOUNT, 5) },
  { file: 'geozones/map-object-store.ts', name: 'mapObjectsInBoxes', run: ({ database }) => mapObjects.mapObjectsInBoxes(database, database.db, ACCOUNT, [{ minLat: 55.7, maxLat: 55.8, minLon: 37.5, maxLon: 37.7 }, { minLat: 59.9, maxLat: 60, minLon: 30.2, maxLon: 30.4 }]) },
  { file: 'geozones/map-object-store.ts', name: 'insertMapObject', run: ({ database }) => mapObjects.insertMapObject(database.db, ACCOUNT, mapObject, T) },
  { file: 'geozones/map-object-store.ts', name: 'updateMapObject', run: ({ database }) => mapObjects.updateMapObject(database.db, ACCOUNT, 5, { name: 'Depot 2', address: 'Tverskaya 1', comment: '' }, T) },
  { file: 'geozones/map-object-store.ts', name: 'deleteMapObject', run: ({ database }) => mapObjects.deleteMapObject(database.db, ACCOUNT, 5) },
  { file: 'geozones/zone-version-store.ts', name: 'bumpZoneVersion', run: ({ tx }) => bumpZoneVersion(tx, ACCOUNT) },
  { file: 'geozones/zone-version-store.ts', name: 'lockZoneWrites', run: ({ tx }) => lockZoneWrites(tx, ACCOUNT) },
  { file: 'geozones/zone-version-store.ts', name: 'ZoneVersionReader.read', run: ({ database, tx }) => new ZoneVersionReader(database).read(ACCOUNT, tx) },

  // http
  { file: 'http/idempotency-store.ts', name: 'deleteStaleKey', run: ({ database }) => idempotency.deleteStaleKey(database.db, ACCOUNT, 'key-1', T - 24 * HOUR, T - 60_000) },
  { file: 'http/idempotency-store.ts', name: 'claimKey', run: ({ database }) => idempotency.claimKey(database.db, ACCOUNT, 'key-1', 'sha256', T) },
  { file: 'http/idempotency-store.ts', name: 'findKey', run: ({ database }) => idempotency.findKey(database.db, ACCOUNT, 'key-1') },
  { file: 'http/idempotency-store.ts', name: 'deleteKey', run: ({ database }) => idempotency.deleteKey(database.db, ACCOUNT, 'key-1') },
  { file: 'http/idempotency-store.ts', name: 'deleteExpiredKeys', run: ({ database }) => idempotency.deleteExpiredKeys(database.db, ACCOUNT, T - 24 * HOUR, 500) },
  { file: 'http/idempotency-store.ts', name: 'storeAnswer', run: ({ database }) => idempotency.storeAnswer(database.db, ACCOUNT, 'key-1', { statusCode: 201, body: '{}', headers: '{}' }) },

  // positioning
  { file: 'positioning/location-store.ts', name: 'LocationStore.insert (2 fixes)', run: ({ database, tx }) => new LocationStore(database).insert(tx, insertionOf(ACCOUNT, T, [fix, { ...fix, locationDateMs: T + 10_000 }], [null, null])) },
  { file: 'positioning/location-store.ts', name: 'LocationStore.coverWeeksOf (2 fixes)', run: ({ database, tx }) => new LocationStore(database).coverWeeksOf(tx, [fix, { ...fix, locationDateMs: T + 10_000 }]), answers: partitionsCovering, only: 'postgres' },
  { file: 'positioning/location-store.ts', name: 'LocationStore.updateMetrics (2 fixes, after a replay)', run: ({ database, tx }) => new LocationStore(database).updateMetrics(tx, T - 2 * HOUR, [{ account_id: ACCOUNT, id: 1001, is_valid: 1, filter_reason: null, ...metricRow }, { account_id: ACCOUNT, id: 1002, is_valid: 0, filter_reason: 3, ...metricRow }]) },
  { file: 'positioning/location-store.ts', name: 'listLocations', run: ({ database }) => listLocations(database.db, ACCOUNT, { fromMs: T - HOUR, toMs: T, subscriberIds: [SUBSCRIBER], beforeId: 5000, count: 1000, offset: 0 }) },
  { file: 'positioning/location-store.ts', name: 'findLocation', run: ({ database }) => findLocation(database.db, ACCOUNT, 1001) },
  { file: 'positioning/location-store.ts', name: 'validFixesBetween', run: ({ database }) => validFixesBetween(database.db, ACCOUNT, SUBSCRIBER, T - HOUR, T) },
  { file: 'positioning/location-store.ts', name: 'latestFixes', run: ({ database }) => latestFixes(database, database.db, ACCOUNT, [SUBSCRIBER, 11]) },
  { file: 'positioning/location-store.ts', name: 'subscribersWithData', run: ({ database }) => subscribersWithData(database.db, ACCOUNT) },
  {
    file: 'positioning/location-partitions.ts',
    name: 'LocationPartitions.makeAhead (one week more)',
    run: ({ database }) => new LocationPartitions(database).makeAhead(T),
    answers: [[], [partition('locations_w20260601', MONDAY, MONDAY + 4 * WEEK)]],
    only: 'postgres',
  },
  {
    file: 'positioning/location-partitions.ts',
    name: 'LocationPartitions.dropBefore (one week due)',
    run: ({ database }) => new LocationPartitions(database).dropBefore(MONDAY - WEEK),
    answers: [[partition('locations_w20260518', MONDAY - 2 * WEEK, MONDAY - WEEK), partition('locations_w20260525', MONDAY - WEEK, MONDAY)], [], [], [], [partition('locations_w20260525', MONDAY - WEEK, MONDAY)]],
    only: 'postgres',
  },
  { file: 'positioning/retention-store.ts', name: 'removedBefore', run: ({ database }) => positionRetention.removedBefore(database.db, ACCOUNT) },
  { file: 'positioning/retention-store.ts', name: 'markRemovedBefore', run: ({ database }) => positionRetention.markRemovedBefore(database.db, ACCOUNT, T - 30 * 24 * HOUR) },
  { file: 'positioning/retention-store.ts', name: 'subscribersWithRowsBefore (locations)', run: ({ database }) => positionRetention.subscribersWithRowsBefore(database, 'locations', ACCOUNT, [SUBSCRIBER, 11], T) },
  { file: 'positioning/retention-store.ts', name: 'nthOldestOfSubscriber (locations)', run: ({ tx }) => positionRetention.nthOldestOfSubscriber(tx, 'locations', ACCOUNT, SUBSCRIBER, T, 500) },
  { file: 'positioning/retention-store.ts', name: 'deleteOfSubscriberUpTo (locations)', run: ({ tx }) => positionRetention.deleteOfSubscriberUpTo(tx, 'locations', ACCOUNT, SUBSCRIBER, T, T - 2 * HOUR) },
  { file: 'positioning/retention-store.ts', name: 'nthOldestTrackStart', run: ({ tx }) => positionRetention.nthOldestTrackStart(tx, ACCOUNT, T, 500) },
  { file: 'positioning/retention-store.ts', name: 'deleteTracksUpTo', run: ({ tx }) => positionRetention.deleteTracksUpTo(tx, ACCOUNT, T, T - 2 * HOUR) },
  { file: 'positioning/retention-store.ts', name: 'nthOldestClosedVisit', run: ({ tx }) => positionRetention.nthOldestClosedVisit(tx, ACCOUNT, SUBSCRIBER, T, 500) },
  { file: 'positioning/retention-store.ts', name: 'deleteClosedVisitsUpTo', run: ({ tx }) => positionRetention.deleteClosedVisitsUpTo(tx, ACCOUNT, SUBSCRIBER, T, T - 2 * HOUR) },
  { file: 'positioning/retention-store.ts', name: 'deleteRequestsBefore', run: ({ tx }) => positionRetention.deleteRequestsBefore(tx, ACCOUNT, SUBSCRIBER, T) },
  { file: 'positioning/statistics-store.ts', name: 'bucketEdges', run: ({ database }) => bucketEdges(database, database.db, ACCOUNT, [SUBSCRIBER, 11], T - 24 * HOUR, T) },
  { file: 'positioning/statistics-store.ts', name: 'periodEdges', run: ({ database }) => periodEdges(database, database.db, ACCOUNT, [SUBSCRIBER], T - HOUR, T), answers: [[{ subscriber_id: SUBSCRIBER, last_id: 3, first_id: 2, before_id: 1 }]] },
  { file: 'positioning/statistics-store.ts', name: 'bucketRows', run: ({ database }) => bucketRows(database.db, ACCOUNT, [SUBSCRIBER, 11], T - HOUR, T) },
  { file: 'positioning/statistics-store.ts', name: 'processedFixes', run: ({ database }) => processedFixes(database.db, ACCOUNT, [SUBSCRIBER, 11], { fromMs: T - HOUR, toMs: T, count: 1000, offset: 0 }) },
  { file: 'positioning/statistics-store.ts', name: 'fuelChanges', run: ({ database }) => fuelChanges(database.db, ACCOUNT, [SUBSCRIBER, 11], T - HOUR, T) },
  { file: 'positioning/statistics-store.ts', name: 'windowEdges', run: ({ database }) => windowEdges(database, database.db, ACCOUNT, [SUBSCRIBER, 11], [{ fromMs: T - 24 * HOUR, toMs: T }, { fromMs: T, toMs: T + 24 * HOUR }]) },
  { file: 'positioning/statistics-store.ts', name: 'engineTotalsAt', run: ({ database }) => engineTotalsAt(database.db, ACCOUNT, SUBSCRIBER, [T - HOUR, T]) },
  { file: 'positioning/track-store.ts', name: 'listTracks', run: ({ database }) => tracks.listTracks(database.db, ACCOUNT, { fromMs: T - HOUR, toMs: T, subscriberIds: [SUBSCRIBER], running: [19], afterId: 20, count: 1000, offset: 0 }) },
  { file: 'positioning/track-store.ts', name: 'listTracks (the account\'s)', run: ({ database }) => tracks.listTracks(database.db, ACCOUNT, { fromMs: T - HOUR, toMs: T, running: [], count: 1000, offset: 0 }) },
  { file: 'positioning/track-store.ts', name: 'tracksRunningAt', run: ({ database }) => tracks.tracksRunningAt(database, database.db, ACCOUNT, [SUBSCRIBER, 11], T - HOUR) },
  { file: 'positioning/track-store.ts', name: 'findTrack', run: ({ database }) => tracks.findTrack(database.db, ACCOUNT, 21) },
  { file: 'positioning/track-store.ts', name: 'unnamedTracks', run: ({ database }) => tracks.unnamedTracks(database.db, 20) },
  { file: 'positioning/track-store.ts', name: 'tracksBySubscriber', run: ({ database }) => tracks.tracksBySubscriber(database.db, ACCOUNT, [SUBSCRIBER, 11], T - HOUR, T) },
  { file: 'positioning/track-store.ts', name: "tracksBySubscriber (a page from its block's key)", run: ({ database }) => tracks.tracksBySubscriber(database.db, ACCOUNT, [SUBSCRIBER, 11], T - HOUR, T, { after: { subscriberId: 11, startMs: T - 600_000 }, limit: 1000, offset: 20 }) },
  { file: 'positioning/track-store.ts', name: 'trackKeysBySubscriber', run: ({ database }) => tracks.trackKeysBySubscriber(database.db, ACCOUNT, [SUBSCRIBER, 11], T - HOUR, T) },
  { file: 'positioning/track-store.ts', name: 'adjacentTrack (before)', run: ({ database }) => tracks.adjacentTrack(database.db, ACCOUNT, SUBSCRIBER, 'before', T - HOUR) },
  { file: 'positioning/track-store.ts', name: 'adjacentTrack (after)', run: ({ database }) => tracks.adjacentTrack(database.db, ACCOUNT, SUBSCRIBER, 'after', T) },
  { file: 'positioning/track-store.ts', name: 'nameTrackEnds', run: ({ database }) => tracks.nameTrackEnds(database.db, ACCOUNT, 21, { start: 'Tverskaya 1', finish: 'Arbat 2' }) },
  { file: 'positioning/vehicle-event-store.ts', name: 'listVehicleEvents', run: ({ database }) => listVehicleEvents(database.db, ACCOUNT, { subscriberIds: [SUBSCRIBER, 11], fromMs: T - HOUR, toMs: T, count: 1000, offset: 0 }) },
  { file: 'positioning/vehicle-event-store.ts', name: 'listVehicleEvents (some types, unpaged: the reports)', run: ({ database }) => listVehicleEvents(database.db, ACCOUNT, { subscriberIds: [SUBSCRIBER, 11], fromMs: T - HOUR, toMs: T, types: [4, 5] }) },
  { file: 'positioning/zone-visit-store.ts', name: 'listZoneVisits', run: ({ database }) => listZoneVisits(database.db, ACCOUNT, [SUBSCRIBER, 11], T - HOUR, T, { limit: 1000, offset: 0 }) },
  { file: 'positioning/subscriber-request-store.ts', name: 'insertRequest', run: ({ tx }) => requests.insertRequest(tx, ACCOUNT, { subscriber_id: SUBSCRIBER, requested_at: T, result_code: 0, location_id: null, message: '' }) },
  { file: 'positioning/subscriber-request-store.ts', name: 'lockEmployeeRequests', run: ({ tx }) => requests.lockEmployeeRequests(tx, ACCOUNT, SUBSCRIBER), only: 'postgres' },
  { file: 'positioning/subscriber-request-store.ts', name: 'lastAnsweredAt', run: ({ tx }) => requests.lastAnsweredAt(tx, ACCOUNT, SUBSCRIBER, 5) },
  { file: 'positioning/subscriber-request-store.ts', name: 'listRequests', run: ({ database }) => requests.listRequests(database.db, ACCOUNT, { fromMs: T - HOUR, toMs: T, subscriberIds: [SUBSCRIBER], count: 200, offset: 0 }) },
  { file: 'positioning/subscriber-request-store.ts', name: 'findRequest', run: ({ database }) => requests.findRequest(database.db, ACCOUNT, 8) },
  { file: 'positioning/pipeline/pipeline-store.ts', name: 'loadPipelineStates', run: ({ tx }) => pipeline.loadPipelineStates(tx, ACCOUNT, [SUBSCRIBER, 11]) },
  { file: 'positioning/pipeline/pipeline-store.ts', name: 'lockPipelineStateTexts', run: ({ database, tx }) => pipeline.lockPipelineStateTexts(tx, database, ACCOUNT, [SUBSCRIBER, 11]) },
  { file: 'positioning/pipeline/pipeline-store.ts', name: 'lockSubscribers', run: ({ tx }) => pipeline.lockSubscribers(tx, [SUBSCRIBER, 11]), only: 'postgres' },
  { file: 'positioning/pipeline/pipeline-store.ts', name: 'loadCheckpoint', run: ({ tx }) => pipeline.loadCheckpoint(tx, ACCOUNT, SUBSCRIBER, T) },
  { file: 'positioning/pipeline/pipeline-store.ts', name: 'loadFixes', run: ({ tx }) => pipeline.loadFixes(tx, ACCOUNT, SUBSCRIBER, T - HOUR) },
  { file: 'positioning/pipeline/pipeline-store.ts', name: 'fixKeysAt', run: ({ tx }) => pipeline.fixKeysAt(tx, ACCOUNT, SUBSCRIBER, [T, T + 10_000]) },
  { file: 'positioning/pipeline/pipeline-store.ts', name: 'trackStartsFrom', run: ({ tx }) => pipeline.trackStartsFrom(tx, ACCOUNT, SUBSCRIBER, T - HOUR) },
  { file: 'positioning/pipeline/pipeline-store.ts', name: 'eventKeysFrom', run: ({ tx }) => pipeline.eventKeysFrom(tx, ACCOUNT, SUBSCRIBER, T - HOUR) },
  { file: 'positioning/pipeline/pipeline-store.ts', name: 'deleteTracksStartingAt', run: ({ tx }) => pipeline.deleteTracksStartingAt(tx, ACCOUNT, SUBSCRIBER, [T]) },
  { file: 'positioning/pipeline/pipeline-store.ts', name: 'deleteEvent', run: ({ tx }) => pipeline.deleteEvent(tx, ACCOUNT, SUBSCRIBER, { eventMs: T, type: 4, detail: 0 }) },
  { file: 'positioning/pipeline/pipeline-store.ts', name: 'deleteVisitsEnteredFrom', run: ({ tx }) => pipeline.deleteVisitsEnteredFrom(tx, ACCOUNT, SUBSCRIBER, T) },
  { file: 'positioning/pipeline/pipeline-store.ts', name: 'reopenVisitsLeftFrom', run: ({ tx }) => pipeline.reopenVisitsLeftFrom(tx, ACCOUNT, SUBSCRIBER, T) },
  { file: 'positioning/pipeline/pipeline-store.ts', name: 'deleteBucketsFrom', run: ({ tx }) => pipeline.deleteBucketsFrom(tx, ACCOUNT, SUBSCRIBER, T) },
  { file: 'positioning/pipeline/pipeline-store.ts', name: 'deleteCheckpointsAfter', run: ({ tx }) => pipeline.deleteCheckpointsAfter(tx, ACCOUNT, SUBSCRIBER, T) },
  { file: 'positioning/pipeline/pipeline-store.ts', name: 'deleteCheckpointsBefore', run: ({ tx, database }) => pipeline.deleteCheckpointsBefore(tx, database, ACCOUNT, [SUBSCRIBER, 11], T) },
  { file: 'positioning/pipeline/pipeline-store.ts', name: 'PipelineStore.apply (one row of each kind, after a replay)', run: ({ database, tx }) => new pipeline.PipelineStore(database).apply(tx, ACCOUNT, [everyWrite()], new Map()) },
  { file: 'positioning/pipeline/pipeline-store.ts', name: 'PipelineStore.apply (with the batch\'s fixes, no replay: one statement on PostgreSQL)', run: ({ database, tx }) => new pipeline.PipelineStore(database).apply(tx, ACCOUNT, [Object.assign(everyWrite(), { replay: null })], new Map(), [insertionOf(ACCOUNT, T, [fix], [null])]) },
  { file: 'positioning/pipeline/pipeline-store.ts', name: 'PipelineStore.applyZoneVisits (after a replay)', run: ({ database, tx }) => new pipeline.PipelineStore(database).applyZoneVisits(tx, ACCOUNT, [everyWrite()]) },

  // reports
  { file: 'reports/schedule-store.ts', name: 'listSchedules', run: ({ database }) => schedules.listSchedules(database.db, ACCOUNT) },
  { file: 'reports/schedule-store.ts', name: 'findSchedule', run: ({ database }) => schedules.findSchedule(database.db, ACCOUNT, 6) },
  { file: 'reports/schedule-store.ts', name: 'insertSchedule', run: ({ tx }) => schedules.insertSchedule(tx, ACCOUNT, schedule, T), answers: [[{ id: 6 }]] },
  { file: 'reports/schedule-store.ts', name: 'updateSchedule', run: ({ tx }) => schedules.updateSchedule(tx, ACCOUNT, 6, schedule) },
  { file: 'reports/schedule-store.ts', name: 'deleteSchedule', run: ({ tx }) => schedules.deleteSchedule(tx, ACCOUNT, 6) },
  { file: 'reports/schedule-store.ts', name: 'dueSchedules', run: ({ database }) => schedules.dueSchedules(database.db, T, 50) },
  { file: 'reports/schedule-store.ts', name: 'claimRun', run: ({ tx }) => schedules.claimRun(tx, ACCOUNT, 6, { fromMs: T - 7 * 24 * HOUR, toMs: T }, T) },
  { file: 'reports/schedule-store.ts', name: 'advanceSchedule', run: ({ tx }) => schedules.advanceSchedule(tx, ACCOUNT, 6, T, T + 7 * 24 * HOUR) },
  { file: 'reports/schedule-store.ts', name: 'deleteRunsBefore', run: ({ database }) => schedules.deleteRunsBefore(database.db, ACCOUNT, T - 31 * 24 * HOUR, 500) },

  // retention
  { file: 'retention/run-lock-store.ts', name: 'tryLockRun', run: ({ database }) => runLock.tryLockRun(database.db), only: 'postgres' },
  { file: 'retention/run-lock-store.ts', name: 'unlockRun', run: ({ database }) => runLock.unlockRun(database.db), only: 'postgres' },

  // signals
  { file: 'signals/event-rule-store.ts', name: 'listRules', run: ({ database }) => rules.listRules(database.db, ACCOUNT) },
  { file: 'signals/event-rule-store.ts', name: 'findRule', run: ({ database }) => rules.findRule(database.db, ACCOUNT, 3) },
  { file: 'signals/event-rule-store.ts', name: 'insertRule', run: ({ database }) => rules.insertRule(database.db, ACCOUNT, rule, T) },
  { file: 'signals/event-rule-store.ts', name: 'updateRule', run: ({ database }) => rules.updateRule(database.db, ACCOUNT, rule, T) },
  { file: 'signals/event-rule-store.ts', name: 'deleteRule', run: ({ database }) => rules.deleteRule(database.db, ACCOUNT, 3) },
  { file: 'signals/event-rule-store.ts', name: 'activeRules', run: ({ database }) => rules.activeRules(database.db, { id: ACCOUNT, name: 'A', timeZone: 'UTC', smsEnabled: false, settings: {}, retentionDays: null, locale: 'en', settingsConfirmed: true }, 1, SUBSCRIBER, T) },
  { file: 'signals/event-rule-store.ts', name: 'enabledRuleStamps', run: ({ database }) => rules.enabledRuleStamps(database.db, ACCOUNT, [1, 24]) },
  { file: 'signals/event-rule-store.ts', name: 'enabledRuleRows', run: ({ database }) => rules.enabledRuleRows(database.db, ACCOUNT, [1, 24]) },
  { file: 'signals/signal-ids.ts', name: 'allocateSignalIds', run: ({ tx }) => allocateSignalIds(tx, 2), answers: [[{ id: 1 }, { id: 2 }]] },

  // tasks
  { file: 'tasks/task-store.ts', name: 'listTasks', run: ({ database }) => tasks.listTasks(database.db, ACCOUNT, { fromMs: T - HOUR, toMs: T, subscriberIds: [SUBSCRIBER], statuses: [0, 1], taskTypeIds: [2], count: 1000, offset: 0 }) },
  { file: 'tasks/task-store.ts', name: 'findTask', run: ({ database }) => tasks.findTask(database.db, ACCOUNT, 30, null, false) },
  { file: 'tasks/task-store.ts', name: "findTask (the assignee's, locked on PostgreSQL)", run: ({ database, tx }) => tasks.findTask(tx, ACCOUNT, 30, SUBSCRIBER, database.dialect === 'postgres') },
  { file: 'tasks/task-store.ts', name: 'tasksByIds', run: ({ database }) => tasks.tasksByIds(database.db, ACCOUNT, [30, 31]) },
  { file: 'tasks/task-store.ts', name: 'insertTask', run: ({ tx }) => tasks.insertTask(tx, ACCOUNT, taskRow, T, T) },
  { file: 'tasks/task-store.ts', name: 'updateTask', run: ({ tx }) => tasks.updateTask(tx, ACCOUNT, 30, taskRow, T) },
  { file: 'tasks/task-store.ts', name: 'markTaskDeleted', run: ({ tx }) => tasks.markTaskDeleted(tx, ACCOUNT, 30, T) },
  {
    file: 'tasks/task-store.ts',
    name: 'insertTaskChange',
    run: ({ tx }) =>
      tasks.insertTaskChange(tx, { account_id: ACCOUNT, task_id: 30, changed_at: T, change_type: 2, initiator_kind: 'userID', initiator_id: 1, previous_values: '{"status":0}', new_values: '{"status":1}' }),
  },
  { file: 'tasks/task-store.ts', name: 'listTaskChanges', run: ({ database }) => tasks.listTaskChanges(database.db, ACCOUNT, 30) },
  { file: 'tasks/task-destinations.ts', name: 'openTaskDestinations', run: ({ database }) => openTaskDestinations(database.db, ACCOUNT, [SUBSCRIBER, 11], T) },
];

const moduleOf = (file: string) => file.split('/')[0]!;

/** Every entry's statements, per dialect, in catalogue order. */
export async function captureAll(): Promise<{ entry: Entry; dialect: Dialect; statements: string[] }[]> {
  const captured = [];
  for (const dialect of ['sqlite', 'postgres'] as const) {
    const recorder = new SqlRecorder(dialect);
    for (const entry of catalogue) {
      if (entry.only && entry.only !== dialect) continue;
      const statements = await recorder.capture(entry.run, typeof entry.answers === 'function' ? entry.answers(dialect) : entry.answers);
      if (statements.length === 0) throw new Error(`${entry.file} ${entry.name} sent no SQL on ${dialect}`);
      captured.push({ entry, dialect, statements });
    }
  }
  return captured;
}

/** The text of every snapshot file, by its name in src/queries/. */
export async function renderSnapshots(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const { entry, dialect, statements } of await captureAll()) {
    const module = moduleOf(entry.file);
    const name = `${module}.${dialect}.sql`;
    const language = dialect === 'postgres' ? 'postgresql' : 'sqlite';
    const text = statements.map((s) => `${format(s, { language, keywordCase: 'upper', expressionWidth: 100 })};`).join('\n\n');
    const heading = `-- Generated by \`npm run sql:snapshots\` (scripts/sql-snapshots.ts): the SQL the ${module} stores send on ${dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}. Do not edit.\n`;
    files.set(name, `${files.get(name) ?? heading}\n-- ${entry.file}: ${entry.name}\n${text}\n`);
  }
  return files;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = await renderSnapshots();
  mkdirSync(QUERIES_DIR, { recursive: true });
  for (const name of readdirSync(QUERIES_DIR)) if (name.endsWith('.sql') && !files.has(name)) rmSync(join(QUERIES_DIR, name));
  for (const [name, text] of files) writeFileSync(join(QUERIES_DIR, name), text);
  process.stdout.write(`wrote ${files.size} files to src/queries/\n`);
}
