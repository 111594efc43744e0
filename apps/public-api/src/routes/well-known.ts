/**
 * `GET /.well-known/latchkey.json` (unauthenticated): the server's public keys that clients pass
 * to `@turnkey/crypto` as `dangerouslyOverride…` keys.
 * `GET /.well-known/openid-configuration` and `GET /oauth2/jwks` (unauthenticated): Latchkey as the
 * OpenID issuer of the tokens oauth2_authenticate hands out, so any OIDC verifier (oauth_login's
 * included) checks them the standard way.
 */
import { OIDC_DISCOVERY_PATH, OIDC_JWKS_PATH, oidcDiscoveryDocument, oidcIssuerJwks, type TServerPublicKeys } from '@latchkey/platform';
import type { FastifyInstance } from 'fastify';

/**
 * @param issuer the issuer URL the engine puts in its tokens (TConfig.publicUrl, from main.ts).
 */
export function registerWellKnownRoute(app: FastifyInstance, keys: TServerPublicKeys, issuer: string): void {
  const body = JSON.stringify({
    signerPublicKey: keys.signerPublicKey,
    notarizerPublicKey: keys.notarizerPublicKey,
    otpVerifierPublicKey: keys.otpVerifierPublicKey,
    tlsFetcherPublicKey: keys.tlsFetcherPublicKey,
    oidcIssuerPublicKey: keys.oidcIssuerPublicKey,
  });
  app.get('/.well-known/latchkey.json', async (_req, reply) => reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(body));
  const discovery = JSON.stringify(oidcDiscoveryDocument(issuer));
  const jwks = oidcIssuerJwks(keys.oidcIssuerPublicKey).then((k) => JSON.stringify(k));
  app.get(OIDC_DISCOVERY_PATH, async (_req, reply) => reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(discovery));
  app.get(OIDC_JWKS_PATH, async (_req, reply) => reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(await jwks));
}
