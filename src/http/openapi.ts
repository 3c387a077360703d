import swagger from '@fastify/swagger';
import apiReference from '@scalar/fastify-api-reference';
import { compressUnchanging } from './built-files.js';
import type { FastifyInstance } from 'fastify';
import { addErrorExamples } from './openapi-errors.js';
import { introduction, tagGroups, tags } from './openapi-guide.js';

/** Where the reference is read; the document it renders stays at /v6/openapi.json. */
export const DOCS_PATH = '/v6/docs';

/**
 * The OpenAPI 3.1 document, generated from the route schemas (summary, description, tags and
 * examples included), and a reference to read it in: Scalar, served whole from this server, so
 * it works without the Internet and sends nothing anywhere but to this server.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Lokator v6 API', version, description: introduction },
      tags,
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'an API token of the account: `lk_…`' } } },
      security: [{ bearer: [] }],
    },
    transformObject: (generated) => {
      if (!('openapiObject' in generated)) return generated.swaggerObject;
      const document = generated.openapiObject;
      addErrorExamples(document.paths as Parameters<typeof addErrorExamples>[0]);
      return { ...document, 'x-tagGroups': tagGroups };
    },
  });
  app.get('/v6/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  // The reference's page script is 4.9 MB as the plugin serves it; compressed once, about 1.2 MB.
  await app.register(async (scope) => {
    scope.addHook('onSend', compressUnchanging);
    await scope.register(apiReference, {
    routePrefix: DOCS_PATH,
    logLevel: 'warn',
    configuration: {
      // Relative to the page, so the reference works behind a proxy that adds a path prefix.
      url: '../openapi.json',
      pageTitle: 'Lokator v6 API',
      // The defaults fetch fonts from Scalar's servers, report usage there and offer its AI chat; this page is self-hosted.
      withDefaultFonts: false,
      telemetry: false,
      mcp: { disabled: true },
      agent: { disabled: true },
      showDeveloperTools: 'never',
      hideClientButton: false,
      documentDownloadType: 'json',
      defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
      hideModels: true,
    },
  });
  });
}
