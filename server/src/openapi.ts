import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { markRoutesPermission } from './auth/guard';

/** The OpenAPI document is generated from the contract's zod schemas that every route declares. */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Studio Console API',
        description:
          "Spec §7 calls under /api/client/v1, /api/v1 and /api/stats/v1; our extensions under /api/admin/v1 in ra-data-simple-rest's dialect. " +
          "Every call except /api/isAuthenticated needs a staff session cookie (sign in at /login) whose role allows the call's permission (403 names a missing one; docs/security.md); the mobile app (/api/app/v1) and RevenueCat (/api/webhooks/revenuecat) present their own keys instead.",
        version: '1.0.0',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'studio_session' },
          appKey: { type: 'apiKey', in: 'header', name: 'X-App-Key', description: 'APP_API_KEY: the mobile app endpoints under /api/app/v1' },
          firebaseIdToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: "The signed-in user's Firebase ID token: required with the app key on /api/app/v1 when FIREBASE_PROJECT_ID is set",
          },
          revenuecatAuth: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'REVENUECAT_WEBHOOK_AUTH, compared exactly' },
        },
      },
      security: [{ session: [] }],
    },
    transform: jsonSchemaTransform,
  });
  // Any signed-in staff member may read the API's description, whatever the role.
  await app.register(async (docs) => {
    markRoutesPermission(docs, 'signed_in');
    await docs.register(swaggerUi, { routePrefix: `${app.pathPrefix}/api/docs`, staticCSP: true });
  });
}
