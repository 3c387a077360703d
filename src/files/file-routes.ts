import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ErrorBody, type Api } from '../http/route-types.js';
import type { FileService } from './file-service.js';

/** `/v6/api/fileManagement/files/{fileID}`: a form file's bytes, for API clients. */
export function fileRoutes(files: FileService) {
  return async (api: Api) => {
    api.get(
      '/fileManagement/files/:fileID',
      {
        config: { permission: 'view' },
        schema: {
          tags: ['Files'],
          summary: 'A picture or file an employee uploaded for a form',
          description:
            'The bytes, with their `Content-Type` (image/jpeg, image/png, image/webp or application/pdf), `Content-Length` and a ' +
            '`Content-Disposition` naming the file. The URL is what `formManagement/forms` answers in `items[].pictures[].url`. Another ' +
            'account’s file, or one removed with its task or by retention, is 404 code 1029.',
          params: Type.Object({ fileID: withExamples(Id, 41) }),
          response: {
            200: {
              description: 'the file’s bytes',
              content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' }, example: '(the picture’s bytes)' } },
            },
            400: ErrorBody,
            401: ErrorBody,
            404: ErrorBody,
          },
        },
      },
      async (request, reply) => {
        const file = await files.download(request.principal.account, request.params.fileID);
        // The bytes are not the JSON the error schemas describe: sent as they are, past the serializer.
        const raw = reply as unknown as FastifyReply;
        const asciiName = file.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
        return raw
          .type(file.contentType)
          .header('content-length', file.bytes.length)
          .header('content-disposition', `inline; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`)
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, max-age=3600')
          .send(file.bytes);
      },
    );
  };
}
