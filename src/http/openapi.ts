import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/** The OpenAPI 3.1 document, generated from the route schemas, and a browsable reference. */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Lokator v6 API',
        version,
        description:
          'Positioning, geozone and outgoing-event interface v6, with the decisions of Lokator’s contract. ' +
          'Every error answers `{status, code, description, message, validationErrors}`.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/v6/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  app.get('/v6/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
