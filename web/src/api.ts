import { language, t } from './i18n/i18n';

/**
 * The workspace talks to the same /v6/api routes as integrators, authenticated by its session
 * cookie. Every change carries the session's CSRF token; errors arrive as CONTRACT §1's envelope.
 */

export interface ErrorEnvelope {
  status: number;
  code: number;
  description: string;
  message: string;
  validationErrors?: Record<string, string>;
}

export class ApiFailure extends Error {
  constructor(readonly envelope: ErrorEnvelope) {
    super(envelope.message);
  }

  /** The message for a field (as the server names it), if the server named one. */
  field(name: string): string | undefined {
    return this.envelope.validationErrors?.[name];
  }
}

export interface SessionInfo {
  login: string;
  userID: number;
  /** What the user may do: the workspace hides what the role cannot (the server refuses it anyway). */
  role: 'admin' | 'dispatcher' | 'viewer';
  /** The employee groups the user is limited to; null: the whole account. */
  subscriberGroupIDs: number[] | null;
  /** The password is a temporary one an admin set: the workspace asks for a new one first. */
  mustChangePassword: boolean;
  account: { accountID: number; name: string; timeZone: string; smsEnabled: boolean };
  csrfToken: string;
  /** `placeSearch`: whether the maps have an address search (GEOCODER_URL is set). */
  map: { tileUrl: string | null; attribution: string; placeSearch: boolean };
  /** The device protocols the server speaks (its src/devices/protocols.ts), in its order, with their ports. */
  devices: DeviceConnection[];
  /** PUBLIC_URL: the address phones and trackers reach the server at; null when not set. */
  publicUrl: string | null;
  /** The user's second factor; `setupRequired`: the account requires it and the session may only set it up. */
  twoFactor: { enabled: boolean; required: boolean; setupRequired: boolean; recoveryCodesLeft: number };
}

/** A device protocol: where a device of it reports (port 0: the listener is off), and what its key is. */
export interface DeviceConnection {
  /** The employee's deviceProtocol. */
  protocol: string;
  label: string;
  transport: 'tcp' | 'http';
  port: number;
  /** The environment variable of the port. */
  portSetting: string;
  /** Whether its login carries a device password. */
  password: boolean;
  keyHint: { en: string; ru: string };
}

let csrfToken = '';
/** Called when the server says the session is over, so the app can show the sign-in page. */
let onSignedOut: () => void = () => {};

export function setSession(info: SessionInfo | null, signedOut: () => void): void {
  csrfToken = info?.csrfToken ?? '';
  onSignedOut = signedOut;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function request<T>(method: Method, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  // A proxy in front of the server may answer an error with its own page, not the envelope.
  const json = (response.headers.get('content-type') ?? '').includes('json');
  const parsed: unknown = text && (json || response.ok) ? JSON.parse(text) : undefined;
  if (!response.ok) {
    const envelope = (parsed as ErrorEnvelope | undefined) ?? {
      status: response.status,
      code: 0,
      description: response.statusText,
      message: `the server answered ${response.status}`,
    };
    if (response.status === 401 && !path.startsWith('/workspace/api/session')) onSignedOut();
    throw new ApiFailure(envelope);
  }
  return parsed as T;
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body ?? {}),
  put: (path: string, body: unknown) => request<void>('PUT', path, body),
  patch: (path: string, body: unknown) => request<void>('PATCH', path, body),
  delete: (path: string) => request<void>('DELETE', path),
};

/** A query string from the defined values; arrays become repeated parameters. */
export function query(params: Record<string, string | number | boolean | undefined | (string | number)[]>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) value.forEach((v) => search.append(key, String(v)));
    else search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * A failure as one line for the user. The server's messages are English (API clients read codes,
 * not words): the English workspace shows them with the fields they name, the Russian one says by
 * the code what went wrong, in Russian (a form shows each field's problem beside the field).
 */
export function describe(error: unknown): string {
  if (error instanceof ApiFailure) {
    if (language() !== 'en') return messageOfCode(error.envelope);
    const message = error.envelope.message;
    const fields = Object.entries(error.envelope.validationErrors ?? {}).map(([field, why]) => `${field}: ${why}`);
    return fields.length > 0 ? t('error.withFields', { message, fields: fields.join('; ') }) : message;
  }
  if (error instanceof TypeError) return t('error.network');
  return error instanceof Error ? error.message : String(error);
}

/** What the server said about one field, in the workspace's language. */
export function fieldProblem(why: string): string {
  if (language() === 'en') return why;
  return why === 'is required' ? t('error.required') : t('error.invalid');
}

function messageOfCode(envelope: ErrorEnvelope): string {
  if (envelope.code === 1007 || envelope.code === 1019) return t('error.groupNotEmpty');
  if (envelope.code === 4) return t('error.externalIdExists');
  switch (envelope.status) {
    case 400:
      return t('error.badRequest');
    case 401:
      return t('error.unauthorized');
    case 404:
      return t('error.notFound');
    case 409:
      return t('error.conflict', { message: envelope.message });
    case 413:
      return t('error.tooLarge');
    case 429:
      return t('error.rateLimited');
    default:
      return t('error.server', { status: envelope.status });
  }
}
