import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Account } from '../accounts/accounts.js';
import { CSRF_HEADER, csrfMatches, ROLES, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem, SESSION_COOKIE, SESSION_IDLE_MS, type Session, type WorkspaceSessions } from '../accounts/accounts.js';
import { described, withExamples } from '../http/examples.js';
import { ApiError, invalidField } from '../http/errors.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import type { LiveFeed } from './live-feed.js';

export interface MapSettings {
  /** MAP_TILE_URL; null for a plain background. */
  tileUrl: string | null;
  attribution: string;
  /** Whether the maps have an address search (GEOCODER_URL is set). */
  placeSearch: boolean;
}

/**
 * A device protocol this server takes fixes in (src/devices/protocols.ts), for the connection
 * settings the Employees tab shows: where a device of it reports, and what its key is.
 */
const DeviceConnection = Type.Object({
  protocol: Type.String({ description: "the employee's deviceProtocol" }),
  label: Type.String(),
  transport: Type.Union([Type.Literal('tcp'), Type.Literal('http')]),
  port: Type.Integer({ minimum: 0, maximum: 65535, description: '0: the listener is switched off' }),
  portSetting: Type.String({ description: 'the environment variable of the port' }),
  password: Type.Boolean({ description: 'whether its login carries a device password' }),
  keyHint: Type.Object({ en: Type.String(), ru: Type.String() }, { description: 'what the device key is for this protocol' }),
});

/** What the workspace is told about this server's settings with the session. */
export interface WorkspaceSettings {
  map: MapSettings;
  devices: Static<typeof DeviceConnection>[];
  /** PUBLIC_URL: where phones and trackers reach this server; null: not set. */
  publicUrl: string | null;
}

const SessionView = Type.Object({
  login: Type.String(),
  userID: Type.Integer(),
  role: Type.Union([Type.Literal(ROLES[0]), Type.Literal(ROLES[1]), Type.Literal(ROLES[2])], { description: 'what the user may do; the workspace hides what the role cannot' }),
  subscriberGroupIDs: Type.Union([Type.Array(Type.Integer()), Type.Null()], { description: 'the employee groups the user is limited to; null: the whole account' }),
  mustChangePassword: Type.Boolean({ description: 'the password is a temporary one an admin set: nothing but changing it is allowed until then' }),
  account: Type.Object({ accountID: Type.Integer(), name: Type.String(), timeZone: Type.String(), smsEnabled: Type.Boolean() }),
  csrfToken: Type.String({ description: `send it in the ${CSRF_HEADER} header with every change made with the session cookie` }),
  map: Type.Object({
    tileUrl: Type.Union([Type.String(), Type.Null()]),
    attribution: Type.String(),
    placeSearch: Type.Boolean({ description: 'whether GET /workspace/api/places searches addresses (GEOCODER_URL is set)' }),
  }),
  devices: Type.Array(DeviceConnection, { description: 'the device protocols, in the order of src/devices/protocols.ts, and their ports' }),
  publicUrl: Type.Union([Type.String(), Type.Null()], { description: 'PUBLIC_URL: the address phones and trackers reach this server at; null when not set' }),
  twoFactor: Type.Object(
    {
      enabled: Type.Boolean({ description: 'the user signs in with a TOTP code after the password' }),
      required: Type.Boolean({ description: 'the account requires every user to' }),
      setupRequired: Type.Boolean({ description: 'the session may only set the second factor up: the account requires it and the user has none' }),
      recoveryCodesLeft: Type.Integer({ minimum: 0 }),
    },
    { description: 'the user’s second factor of sign-in' },
  ),
});
const AppSettings = Type.Object({
  map: Type.Object({ tileUrl: Type.Union([Type.String(), Type.Null()]), attribution: Type.String() }),
  osmandPort: Type.Integer({ minimum: 0, maximum: 65535, description: 'the OsmAnd listener’s port; 0 when it is off' }),
});
const tags = ['Workspace'];
const sessionExample = {
  login: 'dispatcher.anna',
  userID: 5,
  role: 'dispatcher' as const,
  subscriberGroupIDs: [3],
  mustChangePassword: false,
  account: { accountID: 2, name: 'Rapid Couriers', timeZone: 'Europe/Moscow', smsEnabled: false },
  csrfToken: 'Xq3T9vLm2PaR8sKd1YwE6nBh',
  map: { tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', attribution: '© OpenStreetMap contributors', placeSearch: true },
  publicUrl: 'https://track.rapid-couriers.example',
  twoFactor: { enabled: true, required: false, setupRequired: false, recoveryCodesLeft: 9 },
  devices: [
    { protocol: 'osmand', label: 'OsmAnd', transport: 'http' as const, port: 5055, portSetting: 'OSMAND_PORT', password: false, keyHint: { en: 'The device identifier set in Traccar Client or the tracker.', ru: 'Идентификатор устройства из настроек Traccar Client или трекера.' } },
    { protocol: 'egts', label: 'EGTS', transport: 'tcp' as const, port: 5162, portSetting: 'EGTS_PORT', password: true, keyHint: { en: 'The terminal’s IMEI, else its terminal or object id (such as 866).', ru: 'IMEI терминала, иначе его идентификатор терминала или объекта (например, 866).' } },
    { protocol: 'wialonIps', label: 'Wialon IPS', transport: 'tcp' as const, port: 5039, portSetting: 'WIALON_IPS_PORT', password: true, keyHint: { en: 'The id of its login (#L#id;…): the IMEI or a short id such as 2002.', ru: 'Идентификатор, с которым терминал входит на сервер: IMEI или короткий номер, например 2002.' } },
    { protocol: 'teltonika', label: 'Teltonika', transport: 'tcp' as const, port: 0, portSetting: 'TELTONIKA_PORT', password: false, keyHint: { en: 'The terminal’s 15-digit IMEI.', ru: 'IMEI терминала, 15 цифр.' } },
  ],
};
const Session = described(withExamples(SessionView, sessionExample), 'the session: who is signed in, and the server settings the workspace needs');
const liveExample =
  'retry: 3000\n\nevent: positions\ndata: [{"locationDate":"2026-03-02T09:14:05+03:00","subscriberID":17,"locationID":905512,"isValid":true,' +
  '"longitude":37.61173,"latitude":55.75583,"angle":90,"velocity":32.5}]\n\n' +
  'event: alerts\ndata: {"latestAlertID":3071,"unhandled":4}\n\n';
/** A comment line keeps proxies from closing an idle live stream. */
const HEARTBEAT_MS = 25_000;

/**
 * The workspace's own routes: sign-in and sign-out with a session cookie, and the live positions
 * stream of the map. Everything else the workspace does goes through /v6/api with the cookie.
 */
export function workspaceRoutes(sessions: WorkspaceSessions, authenticate: (request: FastifyRequest) => Promise<void>, live: LiveFeed, settings: WorkspaceSettings) {
  const view = async (session: Session) => {
    const { account, userID, role, subscriberGroupIDs } = session.principal;
    const { enabled, required, recoveryCodesLeft } = await sessions.twoFactor.status(session);
    return {
      login: session.login,
      userID: userID ?? 0,
      role,
      subscriberGroupIDs,
      mustChangePassword: session.mustChangePassword,
      account: accountView(account),
      csrfToken: session.csrfToken,
      ...settings,
      twoFactor: { enabled, required, setupRequired: session.setupOnly, recoveryCodesLeft },
    };
  };

  const current = (request: FastifyRequest) => request.workspaceSession ?? currentSession(sessions, request);

  return async (api: Api) => {
    api.addHook('onRequest', authenticate);
    // Open live streams, each with its session's token. They would hold the server open on close; end them first.
    const streams = new Map<ServerResponse, string>();
    api.addHook('preClose', async () => {
      for (const stream of streams.keys()) stream.end();
    });
    /**
     * A stream outlives the request that checked its session: it ends once that session has ended
     * (signed out, the password changed, expired, here or on another server), or it would go on
     * showing the account's positions to whoever held the session.
     */
    const endStreamsSignedOut = async (only?: ServerResponse) => {
      for (const [stream, token] of streams) {
        if (only && stream !== only) continue;
        if (!(await sessions.authenticate(token))) stream.end();
      }
    };

    api.post(
      '/workspace/api/session',
      {
        config: { permission: 'public' },
        schema: {
          tags,
          summary: 'Sign in to the workspace',
          description:
            'Sets the HttpOnly session cookie and answers the session with its CSRF token: every change made with the cookie must carry it in ' +
            '`X-CSRF-Token`. Five wrong passwords for a login from one address lock that pair for 15 minutes (429 code 1012). ' +
            'A user with two-factor sign-in on sends `code` too (the app’s current code, or one of the recovery codes): without it the answer is ' +
            '401 with `validationErrors.code` "is required", with a wrong one "is wrong"; five wrong codes lock the user’s codes for 15 minutes. ' +
            'Where the account requires two-factor sign-in and the user has none, the session may only set it up (`twoFactor.setupRequired`). ' +
            'Every sign-in and failed sign-in of a known login is in the audit log.',
          body: withExamples(
            Type.Object(
              {
                login: Type.String({ minLength: 1, maxLength: 200 }),
                password: Type.String({ minLength: 1, maxLength: 1000 }),
                code: Type.Optional(Type.String({ maxLength: 64, description: 'the TOTP code (6 digits) or a recovery code' })),
              },
              { additionalProperties: false },
            ),
            { login: 'dispatcher.anna', password: 'correct horse battery staple' },
            { login: 'dispatcher.anna', password: 'correct horse battery staple', code: '492039' },
          ),
          response: { 200: Session, 400: ErrorBody, 401: ErrorBody, 429: ErrorBody },
        },
      },
      async (request, reply) => {
        const result = await sessions.signIn(request.body.login, request.body.password, request.ip, request.body.code);
        if (!result.ok) {
          if (result.retryAfterSeconds !== undefined) {
            throw new ApiError('RATE_LIMITED', 'too many failed sign-ins; try again later', undefined, {
              'retry-after': String(result.retryAfterSeconds),
            });
          }
          if (result.secondFactor === 'required') throw new ApiError('USER_UNAUTHORIZED', 'a second-factor code is required', { code: 'is required' });
          if (result.secondFactor === 'wrong') throw new ApiError('USER_UNAUTHORIZED', 'wrong second-factor code', { code: 'is wrong' });
          throw new ApiError('USER_UNAUTHORIZED', 'wrong login or password');
        }
        setSessionCookie(request, reply, result.token);
        return await view(result.session);
      },
    );

    api.get(
      '/workspace/api/session',
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'The signed-in user, account and map settings',
          description: 'The session of the cookie. Also renews the cookie, whose lifetime follows the session’s: 7 days from its last use.',
          response: { 200: Session, 401: ErrorBody },
        },
      },
      async (request, reply) => {
        const { token, session } = await current(request);
        setSessionCookie(request, reply, token);
        return await view(session);
      },
    );

    api.delete(
      '/workspace/api/session',
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'Sign out',
          description: 'Ends the session of the cookie (with its CSRF token, 403 code 1016 without) and the live streams it opened.',
          response: { 204: NoContent, 401: ErrorBody, 403: ErrorBody },
        },
      },
      async (request, reply) => {
        const { token } = await current(request);
        requireCsrf(token, request);
        await sessions.signOut(token);
        await endStreamsSignedOut();
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
        return reply.code(204).send(null);
      },
    );

    api.put(
      '/workspace/api/password',
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'Change the signed-in user’s password',
          description: 'Needs the current password (five wrong ones lock the change for 15 minutes) and the CSRF token; the user’s other sessions end.',
          body: withExamples(
            Type.Object(
              {
                currentPassword: Type.String({ minLength: 1, maxLength: 1000 }),
                newPassword: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH, description: `at least ${PASSWORD_MIN_LENGTH} characters` }),
              },
              { additionalProperties: false },
            ),
            { currentPassword: 'correct horse battery staple', newPassword: 'seven tired camels drink tea' },
          ),
          response: { 204: NoContent, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody },
        },
      },
      async (request, reply) => {
        const { token, session } = await current(request);
        requireCsrf(token, request);
        const { currentPassword, newPassword } = request.body;
        const weak = passwordProblem(newPassword);
        if (weak) throw invalidField('newPassword', weak);
        const changed = await sessions.changePassword(token, session.principal, currentPassword, newPassword);
        if (changed === 'wrong') throw invalidField('currentPassword', 'is not the current password');
        if (changed !== 'changed') {
          throw new ApiError('RATE_LIMITED', 'too many wrong current passwords; try again later', undefined, {
            'retry-after': String(changed.retryAfterSeconds),
          });
        }
        await endStreamsSignedOut();
        return reply.code(204).send(null);
      },
    );

    api.get(
      '/workspace/api/live',
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'Live positions (server-sent events)',
          description:
            'A `text/event-stream` for the workspace’s map, with the session cookie: `positions` events, each a JSON array of locations ' +
            '(interface 2.1), first the latest fix of every employee, then each newly stored one; `alerts` events, each the newest ' +
            'alert’s id and the count of unhandled ones (up to 1000), at the start and within about a second of a change (read the ' +
            'alerts themselves from eventManagement/alerts). ' +
            'A comment line every 25 s keeps proxies from closing it; it ends when the session does.',
          response: { 200: { description: 'the stream', content: { 'text/event-stream': { schema: Type.String(), example: liveExample } } }, 401: ErrorBody },
        },
      },
      async (request, reply: FastifyReply) => {
        const { token, session } = await current(request);
        reply.hijack();
        const raw = reply.raw;
        raw.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          connection: 'keep-alive',
          'x-accel-buffering': 'no',
        });
        raw.write('retry: 3000\n\n');
        streams.set(raw, token);
        let closed = false;
        let leave: (() => void) | null = null;
        const heartbeat = setInterval(() => {
          raw.write(': alive\n\n');
          endStreamsSignedOut(raw).catch(() => {});
        }, HEARTBEAT_MS);
        // The open connection keeps the process alive, not its heartbeat.
        heartbeat.unref();
        const end = () => {
          closed = true;
          streams.delete(raw);
          clearInterval(heartbeat);
          leave?.();
        };
        request.raw.once('close', end);
        // A client gone while its session was checked closed before anyone listened (the page reloaded, the server stopped).
        if (request.raw.destroyed) end();
        try {
          leave = await live.join(session.principal.account, {
            send: (positions) => raw.write(`event: positions\ndata: ${JSON.stringify(positions)}\n\n`),
            alerts: (state) => raw.write(`event: alerts\ndata: ${JSON.stringify(state)}\n\n`),
          });
        } catch (error) {
          // The response is hijacked: Fastify can no longer answer. End the stream; the browser retries.
          request.log.error({ err: error }, 'the live stream could not start');
          raw.end();
          return;
        }
        if (closed) leave();
      },
    );

    api.get(
      '/workspace/api/app-settings',
      {
        config: { permission: 'public' },
        schema: {
          tags,
          summary: 'The settings the employee’s app needs before it is signed in',
          description:
            'For the employee’s app at `/m/`: the map’s tiles and the OsmAnd port Traccar Client reports to. Nothing of an account: ' +
            'it answers without a session or key.',
          response: { 200: described(withExamples(AppSettings, { map: { tileUrl: sessionExample.map.tileUrl, attribution: sessionExample.map.attribution }, osmandPort: 5055 }), 'the map and the OsmAnd port (0: off)') },
        },
      },
      async () => ({ map: settings.map, osmandPort: settings.devices.find((device) => device.protocol === 'osmand')?.port ?? 0 }),
    );
  };
}

/** The session the request's cookie names, or 401 code 1. */
export async function currentSession(sessions: Pick<WorkspaceSessions, 'authenticate'>, request: FastifyRequest): Promise<{ token: string; session: Session }> {
  const token = request.cookies[SESSION_COOKIE];
  const session = token ? await sessions.authenticate(token) : null;
  if (!token || !session) throw new ApiError('USER_UNAUTHORIZED', 'not signed in');
  return { token, session };
}

function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: isHttps(request),
    maxAge: SESSION_IDLE_MS / 1000,
  });
}

/** The workspace's own changes need the session's CSRF token too (see src/http/auth.ts). */
export function requireCsrf(token: string, request: FastifyRequest): void {
  if (!csrfMatches(token, request.headers[CSRF_HEADER] as string | undefined)) {
    throw new ApiError('FORBIDDEN', `a change made with the session cookie needs the session's ${CSRF_HEADER} header`);
  }
}

function accountView(account: Account) {
  return { accountID: account.id, name: account.name, timeZone: account.timeZone, smsEnabled: account.smsEnabled };
}

function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https' || request.headers['x-forwarded-proto'] === 'https';
}
