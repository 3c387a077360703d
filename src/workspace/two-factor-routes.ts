import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { WorkspaceSessions } from '../accounts/accounts.js';
import { described, withExamples } from '../http/examples.js';
import { ErrorBody, NoContent, type Api } from '../http/route-types.js';
import { currentSession, requireCsrf } from './workspace-routes.js';

const tags = ['Workspace'];
const CodeBody = withExamples(Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }), { code: '492039' });
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody };

/**
 * The signed-in user's second factor (TOTP, RFC 6238): set up by scanning a QR code and
 * confirming one code, which gives ten one-time recovery codes; turned off with a code. Every
 * signed-in user may, for themselves; a session limited to setting it up (the account requires
 * it) may use these routes (see `authenticate`, /workspace/api's hook).
 */
export function twoFactorRoutes(sessions: WorkspaceSessions, authenticate: (request: FastifyRequest) => Promise<void>) {
  const current = (request: FastifyRequest) => request.workspaceSession ?? currentSession(sessions, request);
  return async (api: Api) => {
    api.addHook('onRequest', authenticate);
    api.post(
      '/workspace/api/twoFactor/setup',
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'Begin setting up two-factor sign-in',
          description:
            'A new TOTP secret for the signed-in user and its `otpauth://` URI, to show as a QR code for an authenticator app. It takes effect once ' +
            'confirmed with a code (`/workspace/api/twoFactor/enable`); a new setup replaces an unconfirmed one. 409 when it is on already.',
          response: {
            200: described(
              withExamples(Type.Object({ secret: Type.String({ description: 'base32, for typing into the app' }), uri: Type.String() }), {
                secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
                uri: 'otpauth://totp/Lokator%20(Rapid%20Couriers):dispatcher.anna?issuer=Lokator%20(Rapid%20Couriers)&secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30',
              }),
              'the secret to scan',
            ),
            ...errors,
          },
        },
      },
      async (request) => {
        const { token, session } = await current(request);
        requireCsrf(token, request);
        return sessions.twoFactor.beginSetup(session);
      },
    );

    api.post(
      '/workspace/api/twoFactor/enable',
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'Turn two-factor sign-in on',
          description:
            'Confirms the secret of the setup with the code the app shows now; from then on sign-in asks for a code after the password. ' +
            'Answers ten recovery codes, shown this once: each signs in once in place of a code.',
          body: CodeBody,
          response: {
            200: described(
              withExamples(Type.Object({ recoveryCodes: Type.Array(Type.String(), { minItems: 10, maxItems: 10 }) }), {
                recoveryCodes: ['k3m9q-7xw2p', 'a8d4f-n6t3r', 'c2v7b-q9m4k', 'p5h8s-w3x6z', 'e7r2t-y4u9m', 'g6j3n-b8c5d', 'h4k7w-s2q9v', 'm9p3x-t6r8a', 'n2b5c-z7e4f', 'q8w3e-r6t2y'],
              }),
              'the recovery codes',
            ),
            ...errors,
          },
        },
      },
      async (request) => {
        const { token, session } = await current(request);
        requireCsrf(token, request);
        return sessions.twoFactor.enable(session, request.body.code, request.ip);
      },
    );

    api.post(
      '/workspace/api/twoFactor/disable',
      {
        config: { permission: 'view' },
        schema: {
          tags,
          summary: 'Turn two-factor sign-in off',
          description: 'Needs the current code or an unused recovery code; the recovery codes are forgotten. 409 while the account requires it.',
          body: CodeBody,
          response: { 204: NoContent, ...errors },
        },
      },
      async (request, reply) => {
        const { token, session } = await current(request);
        requireCsrf(token, request);
        await sessions.twoFactor.disable(session, request.body.code, request.ip);
        return reply.code(204).send(null);
      },
    );
  };
}
