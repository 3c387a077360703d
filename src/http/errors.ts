/**
 * The closed catalogue of API errors (CONTRACT §1). Codes below 1000 are the real API's and
 * real clients switch on them; ours start at 1000.
 */
export const errorKinds = {
  USER_UNAUTHORIZED: { code: 1, status: 401 },
  BAD_REQUEST: { code: 2, status: 400 },
  INTERNAL_SERVER_ERROR: { code: 3, status: 500 },
  SUBSCRIBER_EXTERNAL_ID_EXISTS: { code: 4, status: 409 },
  NO_SUCH_SUBSCRIBER: { code: 12, status: 404 },
  TASK_NOT_FOUND: { code: 18, status: 404 },
  TITLE_IS_NEEDED: { code: 22, status: 400 },
  NULL_ARGUMENT: { code: 52, status: 400 },
  // The original's limit on its mobile positioning lists: more than 200 elements asked for.
  COUNT_LIMIT_EXCEEDED: { code: 66, status: 400 },
  INVALID_NUMBER_OF_ELEMENTS: { code: 67, status: 400 },
  REQUEST_DATE_TIME_INCONSISTENT_FORMAT: { code: 225, status: 400 },
  // The original's result code of a location request: one asked for too soon after the last (429 here, with Retry-After).
  REQUESTED_TOO_OFTEN: { code: 588, status: 429 },
  LOCATION_NOT_FOUND: { code: 1001, status: 404 },
  TRACK_NOT_FOUND: { code: 1002, status: 404 },
  ZONE_NOT_FOUND: { code: 1003, status: 404 },
  ZONE_GROUP_NOT_FOUND: { code: 1004, status: 404 },
  MAP_OBJECT_NOT_FOUND: { code: 1005, status: 404 },
  EVENT_RULE_NOT_FOUND: { code: 1006, status: 404 },
  ZONE_GROUP_NOT_EMPTY: { code: 1007, status: 409 },
  CONFLICT: { code: 1008, status: 409 },
  METHOD_NOT_ALLOWED: { code: 1009, status: 405 },
  PAYLOAD_TOO_LARGE: { code: 1010, status: 413 },
  UNSUPPORTED_MEDIA_TYPE: { code: 1011, status: 415 },
  RATE_LIMITED: { code: 1012, status: 429 },
  ROUTE_NOT_FOUND: { code: 1013, status: 404 },
  // Not in the contract's list: /ready when the database is down, and requests during shutdown.
  SERVICE_UNAVAILABLE: { code: 1014, status: 503 },
  // Not in the contract's list: the deliveries log (CONTRACT §4) names a delivery that is not the account's.
  DELIVERY_NOT_FOUND: { code: 1015, status: 404 },
  // Not in the contract's list: a workspace request without its session's CSRF token.
  FORBIDDEN: { code: 1016, status: 403 },
  // Not in the contract's list: a request whose headers and body did not all arrive within REQUEST_TIMEOUT.
  REQUEST_TIMEOUT: { code: 1017, status: 408 },
  // Not in the contract's list: the client routes (docs/integrators/clients.md).
  SUBSCRIBER_GROUP_NOT_FOUND: { code: 1018, status: 404 },
  SUBSCRIBER_GROUP_NOT_EMPTY: { code: 1019, status: 409 },
  CUSTOM_FIELD_TEMPLATE_NOT_FOUND: { code: 1020, status: 404 },
  FORM_NOT_FOUND: { code: 1021, status: 404 },
  SUBSCRIBER_REQUEST_NOT_FOUND: { code: 1022, status: 404 },
  // Not in the contract's list: the report schedules (docs/integrators/reports.md).
  REPORT_SCHEDULE_NOT_FOUND: { code: 1023, status: 404 },
  // Not in the contract's list: the EGTS retranslators of an account (docs/operators/devices-egts.md).
  RETRANSLATOR_NOT_FOUND: { code: 1024, status: 404 },
  // Not in the contract's list: the role of the user or token may not do this (docs/integrators/users-and-tokens.md).
  // FORBIDDEN (1016) stays the missing CSRF token's.
  NOT_PERMITTED: { code: 1025, status: 403 },
  // Not in the contract's list: the users and API tokens of an account (docs/integrators/users-and-tokens.md).
  USER_NOT_FOUND: { code: 1026, status: 404 },
  TOKEN_NOT_FOUND: { code: 1027, status: 404 },
  // Not in the contract's list: the workspace alerts (docs/integrators/alerts.md).
  ALERT_NOT_FOUND: { code: 1028, status: 404 },
  // Not in the contract's list: a form file (docs/integrators/mobile-app-api.md) that is not the account's.
  FILE_NOT_FOUND: { code: 1029, status: 404 },
} as const satisfies Record<string, { code: number; status: number }>;

export type ErrorKind = keyof typeof errorKinds;

export type ValidationErrors = Record<string, string>;

export class ApiError extends Error {
  readonly status: number;
  readonly code: number;

  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly validationErrors?: ValidationErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = errorKinds[kind].status;
    this.code = errorKinds[kind].code;
  }
}

/** The error body every error path answers with (CONTRACT §1, real API). */
export interface ErrorEnvelope {
  status: number;
  code: number;
  description: ErrorKind;
  message: string;
  validationErrors?: ValidationErrors;
}

export function toEnvelope(error: ApiError): ErrorEnvelope {
  const envelope: ErrorEnvelope = {
    status: error.status,
    code: error.code,
    description: error.kind,
    message: error.message,
  };
  if (error.validationErrors && Object.keys(error.validationErrors).length > 0) {
    envelope.validationErrors = error.validationErrors;
  }
  return envelope;
}

/** A field that is bad for a reason other than being absent: 400 code 2. */
export function invalidField(field: string, why: string): ApiError {
  return new ApiError('BAD_REQUEST', `${field}: ${why}`, { [field]: why });
}

/** A required field that is missing or null: 400 code 52. */
export function missingField(field: string): ApiError {
  return new ApiError('NULL_ARGUMENT', `${field} is required`, { [field]: 'is required' });
}
