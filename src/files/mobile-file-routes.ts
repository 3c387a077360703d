import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../http/errors.js';
import { described, withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import type { FileService } from './file-service.js';
import { filePath } from './file-service.js';
import { StoredFile, storedFileExample, UploadQuery } from './file-schema.js';
import type { UploadThrottle } from './upload-throttle.js';

export interface UploadLimits {
  /** FILES_MAX_BYTES: a larger body is 413 before it is all read. */
  maxBytes: number;
  throttle: UploadThrottle;
}

/** The address API clients reach this server at, as the request names it. */
export const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** `POST /mobile/v1/tasks/{taskID}/files`: a picture or file for a task's form, as raw bytes. */
export function mobileFileRoutes(files: FileService, { maxBytes, throttle }: UploadLimits) {
  return async (mobile: Api) => {
    // The body is the file as it is, whatever type the request declares: its first bytes decide.
    mobile.removeAllContentTypeParsers();
    mobile.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxBytes }, (_request, body, done) => done(null, body));

    mobile.post(
      '/mobile/v1/tasks/:taskID/files',
      {
        bodyLimit: maxBytes,
        schema: {
          tags: ['Employee app'],
          summary: 'The employee uploads a picture or file for a task’s form',
          description:
            'The body is the file’s bytes (not multipart). Its type is told by its first bytes: JPEG, PNG, WebP or PDF, anything else 415 code 1011; ' +
            'larger than FILES_MAX_BYTES 413 code 1010; more than FILES_UPLOADS_PER_MINUTE uploads a minute from one key 429 code 1012 with ' +
            '`Retry-After`. Only for a task assigned to this employee (404 code 18). `actedAt` is when the picture was taken (a queued upload ' +
            'sends it later); the same `Idempotency-Key` again stores nothing new. The answer’s `fileID` is what the form’s picture or file field names.',
          security: [],
          params: Type.Object({ taskID: withExamples(Id, 311) }),
          querystring: UploadQuery,
          response: { 201: described(withExamples(StoredFile, storedFileExample), 'the stored file'), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody, 429: ErrorBody },
        },
        // Counted before the body is read: a throttled sender costs no upload.
        onRequest: async (request) => {
          const wait = throttle.take(`${request.device.account.id}:${request.device.subscriberID}`);
          if (wait > 0) throw new ApiError('RATE_LIMITED', 'too many uploads from this device; try again later', undefined, { 'retry-after': String(wait) });
        },
      },
      async (request, reply) => {
        const { account, subscriberID } = request.device;
        const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const stored = await files.upload(account, subscriberID, request.params.taskID, { bytes, ...request.query }, originOf(request));
        return reply.code(201).header('location', filePath(stored.fileID)).send(stored);
      },
    );
  };
}
