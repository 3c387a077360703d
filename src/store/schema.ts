import type { Generated } from 'kysely';

/**
 * Tables as Kysely sees them. Instants are UTC epoch milliseconds; flags are 0/1 integers on
 * both stores so that rows read the same from SQLite and PostgreSQL; JSON documents are text.
 */
export interface Schema {
  accounts: AccountsTable;
  api_tokens: ApiTokensTable;
  users: UsersTable;
  subscribers: SubscribersTable;
  locations: LocationsTable;
  idempotency_keys: IdempotencyKeysTable;
  pipeline_states: PipelineStatesTable;
  pipeline_checkpoints: PipelineCheckpointsTable;
  tracks: TracksTable;
  vehicle_events: VehicleEventsTable;
  statistics_buckets: StatisticsBucketsTable;
  zone_groups: ZoneGroupsTable;
  zones: ZonesTable;
  zone_versions: ZoneVersionsTable;
  map_objects: MapObjectsTable;
  event_rules: EventRulesTable;
  deliveries: DeliveriesTable;
  delivery_attempts: DeliveryAttemptsTable;
  signing_secrets: SigningSecretsTable;
  egts_retranslators: EgtsRetranslatorsTable;
  tasks: TasksTable;
  signal_ids: SignalIdsTable;
  workspace_sessions: WorkspaceSessionsTable;
  subscriber_groups: SubscriberGroupsTable;
  custom_field_templates: CustomFieldTemplatesTable;
  subscriber_requests: SubscriberRequestsTable;
  sign_in_attempts: SignInAttemptsTable;
  task_changes: TaskChangesTable;
  form_files: FormFilesTable;
  zone_visits: ZoneVisitsTable;
  report_schedules: ReportSchedulesTable;
  report_runs: ReportRunsTable;
  location_retention: LocationRetentionTable;
  alerts: AlertsTable;
  audit_entries: AuditEntriesTable;
  recovery_codes: RecoveryCodesTable;
}

export interface AccountsTable {
  id: Generated<number>;
  name: string;
  time_zone: string;
  sms_enabled: number;
  created_at: number;
  /** Account settings as JSON (track thresholds of CONTRACT §2); `{}` means every default. */
  settings: Generated<string>;
  /** Days of fixes kept: null follows the server's RETENTION_DAYS, 0 keeps them for ever. */
  retention_days: number | null;
  /** The account's language, `ru` or `en`: reports, e-mails and the workspace's default. */
  locale: Generated<string>;
  /** When an admin first confirmed the zone and language; null: still the first start's defaults. */
  settings_confirmed_at: number | null;
}

export interface ApiTokensTable {
  id: Generated<number>;
  account_id: number;
  /** The user who made the token; null once that user is removed (the token is the account's). */
  user_id: number | null;
  token_hash: string;
  /** The token's name. */
  label: string;
  created_at: number;
  revoked_at: number | null;
  /** `admin`, `dispatcher` or `viewer`. */
  role: Generated<string>;
  /** JSON array of employee group ids the token is limited to; null: the whole account. */
  subscriber_group_ids: string | null;
  /** When it last authenticated a request, to the minute (updated at most once a minute). */
  last_used_at: number | null;
}

export interface UsersTable {
  id: Generated<number>;
  account_id: number;
  login: string;
  password_hash: string;
  created_at: number;
  name: Generated<string>;
  /** `admin`, `dispatcher` or `viewer`. */
  role: Generated<string>;
  /** JSON array of employee group ids the user is limited to; null: the whole account. */
  subscriber_group_ids: string | null;
  /** 0: the user cannot sign in, and its sessions end. */
  is_active: Generated<number>;
  /** 1 while the password is a temporary one an admin set: the user must change it before anything else. */
  must_change_password: Generated<number>;
  last_sign_in_at: number | null;
  /** The TOTP secret (base32) while the second factor is on; null when off. */
  totp_secret: string | null;
  /** A secret shown as a QR code and not yet confirmed with a code. */
  totp_pending_secret: string | null;
  totp_enabled_at: number | null;
  /** The time step of the last code accepted: a code is good once. */
  totp_last_step: number | null;
}

export interface SubscribersTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  external_id: string | null;
  is_active: number;
  group_id: number | null;
  device_key: string | null;
  /** The protocol whose listener hears `device_key` (`osmand`, `egts`, `wialonIps`, `teltonika`); null: every listener. */
  device_protocol: string | null;
  /** The terminal's password as a scrypt hash (`devicePassword`, write-only); null: its login needs none. */
  device_password: string | null;
  /** The employee's fields of interface 2.9 that are not columns of their own, as JSON. */
  document: string;
  /** Vehicle settings of CONTRACT §2, as JSON. */
  vehicle_settings: string;
  created_at: number;
  updated_at: number;
  /** Deleted employees keep their history of fixes; they are gone from every employee route. */
  deleted_at: number | null;
  /** interface 2.9 isOnline, set by the service only (fixes arriving, or silence). */
  is_online: Generated<number>;
  /** When fixes last arrived, to within a fraction of ONLINE_TIMEOUT; null before the first. */
  seen_at: number | null;
  /** The address the device's last accepted login came from (a tracker's TCP peer); null before one. */
  device_address: Generated<string | null>;
  /** When that login was accepted; null before one. */
  device_connected_at: Generated<number | null>;
}

export interface LocationsTable {
  id: Generated<number>;
  account_id: number;
  subscriber_id: number;
  location_date: number;
  received_at: number;
  is_valid: number;
  latitude: number;
  longitude: number;
  angle: number;
  velocity: number;
  fuel_level: number | null;
  ignition: number | null;
  external_power: number | null;
  odometer: number | null;
  engine_hours: number | null;
  /** `[{"sensorID": int, "value": number}]` as JSON, or null. */
  sensors: string | null;
  /**
   * Why the GPS filter set aside a fix the device sent as valid (pipeline/fix-filter.ts
   * FilterReason); null when it did not. Such a fix is stored with is_valid 0.
   */
  filter_reason: number | null;
  /** The receiver's estimate of its error in metres, where the device sent one. */
  accuracy_m: number | null;
  /** Running totals at this fix (see pipeline FixMetrics); null for invalid or not yet processed fixes. */
  cum_distance_m: number | null;
  cum_track_m: number | null;
  cum_engine_s: number | null;
  fuel_smoothed: number | null;
  odo_anchor_km: number | null;
  odo_anchor_cum_m: number | null;
  odo_anchor_track_m: number | null;
}

export interface IdempotencyKeysTable {
  account_id: number;
  key: string;
  fingerprint: string;
  /** Null while the first request with this key is still being handled. */
  status_code: number | null;
  response_body: string | null;
  response_headers: string | null;
  created_at: number;
}

export interface PipelineStatesTable {
  subscriber_id: number;
  account_id: number;
  last_fix_ms: number | null;
  state: string;
}

export interface PipelineCheckpointsTable {
  account_id: number;
  subscriber_id: number;
  at_ms: number;
  state: string;
}

export interface TracksTable {
  id: Generated<number>;
  account_id: number;
  subscriber_id: number;
  start_ms: number;
  finish_ms: number;
  start_lat: number;
  start_lon: number;
  finish_lat: number;
  finish_lon: number;
  distance_m: number;
  is_open: number;
  start_address: string;
  finish_address: string;
  start_geocoded: Generated<number>;
  finish_geocoded: Generated<number>;
  /** The highest speed of the track's fixes (km/h); null on tracks derived before it was kept. */
  max_speed_kmh: number | null;
}

export interface VehicleEventsTable {
  id: Generated<number>;
  account_id: number;
  subscriber_id: number;
  type: number;
  event_ms: number;
  detail: number;
  latitude: number;
  longitude: number;
  value: number;
}

export interface StatisticsBucketsTable {
  subscriber_id: number;
  bucket_ms: number;
  account_id: number;
  first_fix_ms: number;
  last_fix_ms: number;
  fix_count: number;
  /** FixMetrics as JSON: the running totals before the bucket's first fix, and at its last. */
  metrics_before: string;
  first_fuel: number | null;
  metrics_end: string;
}

export interface ZoneGroupsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  parent_id: number | null;
  region_id: number | null;
  created_at: number;
  updated_at: number;
}

export interface ZonesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  color: number;
  enabled: number;
  zone_group_id: number | null;
  comment: string;
  custom_fields_form_template_id: number | null;
  /** The ring as JSON `[[longitude, latitude], ...]`, without a closing point; `[]` contains nothing. */
  bounds: string;
  /** `[{externalID, name, value, type}]` as JSON. */
  custom_field_form_items: string;
  /** The account's zone version written by the zone's last change: the indexes reuse unchanged zones. */
  version: number;
  created_at: number;
  updated_at: number;
}

/** One row per account, bumped in the transaction of every zone change; servers rebuild their index when it moves. */
export interface ZoneVersionsTable {
  account_id: number;
  version: number;
}

export interface MapObjectsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  address: string;
  /** `address` folded (`foldCase`), what the address filter searches. */
  address_folded: Generated<string>;
  latitude: number;
  longitude: number;
  external_id: string | null;
  comment: string;
  created_at: number;
  updated_at: number;
  /** The object's group id as the client gave it (not checked: Lokator keeps no map object groups). */
  group_id: number | null;
}

export interface EventRulesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** A signal type of interface 6.3 ('1', '2', … '24') or 'taskChanges' / 'employeeChanges'. */
  kind: string;
  /** The rest of the rule (CONTRACT §4) as JSON. */
  document: string;
  enabled: number;
  created_at: number;
  updated_at: number;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveriesTable {
  id: Generated<number>;
  account_id: number;
  event_rule_id: number | null;
  /** 'webhook', 'email', 'sms', 'messenger' or 'messenger2'. */
  channel: string;
  /** URL, e-mail address, phone number or messenger user id. */
  target: string;
  message_id: string;
  payload: string;
  status: DeliveryStatus;
  attempt_count: Generated<number>;
  next_attempt_at: number;
  /** The worker holding a claim on the row, and when its lease ends. */
  locked_by: string | null;
  locked_until: number | null;
  created_at: number;
  finished_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
}

export interface DeliveryAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  account_id: number;
  attempted_at: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}

export interface EgtsRetranslatorsTable {
  id: Generated<number>;
  account_id: number;
  dispatcher_id: number;
  name: string;
  password_hash: string;
  created_at: number;
}

export interface SigningSecretsTable {
  id: Generated<number>;
  account_id: number;
  secret: string;
  created_at: number;
  expires_at: number | null;
}

export interface TasksTable {
  id: Generated<number>;
  account_id: number;
  subscriber_id: number | null;
  external_id: string | null;
  status: number;
  start_ms: number | null;
  deadline_ms: number | null;
  /** The task's fields of interface 2.8 as JSON. */
  document: string;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  /** interface 2.8 taskTypeID, also in the document: a column so that the list filters on it. */
  task_type_id: number | null;
}

/** A signal id is the id of a row inserted here (and deleted again in the same transaction). */
export interface SignalIdsTable {
  id: Generated<number>;
  created_at: number;
}

/** A signed-in workspace user; the cookie holds the token, the table only its SHA-256. */
export interface WorkspaceSessionsTable {
  token_hash: string;
  account_id: number;
  user_id: number;
  created_at: number;
  /** Sliding: moved forward as the session is used. */
  expires_at: number;
  /** 1: the account requires a second factor the user has not set up; the session may only set it up. */
  setup_only: Generated<number>;
}

/** Employee groups (interface 2.9 subscriberGroupID). */
export interface SubscriberGroupsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  region_id: number | null;
  comment: string;
  created_at: number;
  updated_at: number;
}

/** A custom-field template: the typed fields that zones, tasks and employees fill. */
export interface CustomFieldTemplatesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** `[{externalID, name, type, isRequired, values}]` as JSON. */
  fields: string;
  created_at: number;
  updated_at: number;
  /** Deleted templates are gone from the routes; objects that name one keep their values. */
  deleted_at: number | null;
}

/** One "locate now" request of an employee and its result code (the original's codes). */
export interface SubscriberRequestsTable {
  id: Generated<number>;
  account_id: number;
  subscriber_id: number;
  requested_at: number;
  result_code: number;
  /** The fix that answered it, for result 0. */
  location_id: number | null;
  message: string;
}

/**
 * Password tries counted per login and client, or per user (password changes), shared by every
 * server; the key is a digest of that text. `since` is when the counting window began.
 */
export interface SignInAttemptsTable {
  key_digest: string;
  tries: number;
  since: number;
}

/** A file an employee uploaded for a task's form; its bytes are in the file store under `storage_key`. */
export interface FormFilesTable {
  id: Generated<number>;
  account_id: number;
  task_id: number;
  subscriber_id: number;
  storage_key: string;
  /** Decided from the file's first bytes: image/jpeg, image/png, image/webp or application/pdf. */
  content_type: string;
  size_bytes: number;
  sha256: string;
  file_name: string | null;
  /** When the employee took it (the phone's `actedAt`), not when it arrived. */
  acted_at: number;
  created_at: number;
  /** Set while its bytes are being removed; such a row is gone from every route. */
  deleted_at: number | null;
}

/** One change of a task, for its history (the tasks module's `task-history.ts`). */
export interface TaskChangesTable {
  id: Generated<number>;
  account_id: number;
  task_id: number;
  changed_at: number;
  /** signalTypeID of interface 2.10: 1 added, 2 changed, 3 deleted. */
  change_type: number;
  /** `userID`, `subscriberID` or `agentID` (interface 2.10); null for a creation from before the history was kept. */
  initiator_kind: string | null;
  initiator_id: number | null;
  /** The changed fields' values before and after the change, as JSON objects. */
  previous_values: string;
  new_values: string;
}

/** A vehicle's stay in a zone (the pipeline's zone visits): from the first fix inside to the first fix clear of it. */
export interface ZoneVisitsTable {
  id: Generated<number>;
  account_id: number;
  subscriber_id: number;
  zone_id: number;
  /** The zone's name when the visit began (the zone may be renamed or deleted since). */
  zone_name: string;
  entered_ms: number;
  /** Null while the vehicle is inside. */
  left_ms: number | null;
  latitude: number;
  longitude: number;
}

/** A report e-mailed on a schedule: what, to whom, when (in the account's time zone). */
export interface ReportSchedulesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  /** trips, stops, fuel, zoneVisits, speeding or summary. */
  report: string;
  /** JSON arrays of ids: the employees, and the groups whose employees, the report covers (both empty: all). */
  subscriber_ids: string;
  subscriber_group_ids: string;
  /** JSON array of e-mail addresses. */
  recipients: string;
  /** daily, weekly or monthly. */
  frequency: string;
  /** ISO weekday 1-7 (weekly), day of the month 1-28 (monthly); null otherwise. */
  weekday: number | null;
  month_day: number | null;
  /** HH:mm in the account's time zone. */
  time_of_day: string;
  enabled: number;
  /** The next send's instant (UTC ms): the scheduler looks for rows at or before now. */
  next_run_ms: number;
  created_at: number;
  updated_at: number;
}

/** One due occurrence of a schedule, claimed once: its unique key is what keeps a send from being doubled. */
export interface ReportRunsTable {
  id: Generated<number>;
  account_id: number;
  schedule_id: number;
  period_from_ms: number;
  period_to_ms: number;
  created_at: number;
}

/** Per account, the instant below which its fixes have been removed by retention (none before the first run). */
export interface LocationRetentionTable {
  account_id: number;
  removed_before_ms: number;
}

export interface AlertsTable {
  id: Generated<number>;
  account_id: number;
  /** The rule's kind: a signal type of interface 6.3 ('1', '2', …) or 'taskChanges' / 'employeeChanges'. */
  kind: string;
  event_rule_id: number;
  /** The rule's name when it fired. */
  rule_name: string;
  subscriber_id: number | null;
  /** When the thing happened (the signal's or the change's date). */
  occurred_at: number;
  latitude: number | null;
  longitude: number | null;
  zone_name: string | null;
  address: string | null;
  /** The signal body or change element it was made from, as JSON. */
  facts: string;
  created_at: number;
  handled_at: number | null;
  /** The user who marked it handled, and their login then. */
  handled_by: number | null;
  handled_by_login: string | null;
}

/** Who changed what in an account, and every sign-in; kept AUDIT_RETENTION_DAYS. */
export interface AuditEntriesTable {
  id: Generated<number>;
  account_id: number;
  at: number;
  /** `user`, `token` or `system`. */
  actor_kind: string;
  actor_id: number | null;
  /** The user's login or the token's name when known. */
  actor_label: string | null;
  address: string | null;
  /** What happened, `<object>.<verb>`: `employee.update`, `session.signIn`, … */
  kind: string;
  object_id: number | null;
  /** `{field: {before, after}}` as JSON, secrets replaced. */
  changes: string;
}

/** A user's one-time recovery codes for the second factor, as hashes; each is used once. */
export interface RecoveryCodesTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  code_hash: string;
  used_at: number | null;
}

