/**
 * Turning a credential's stamp into a session: a fresh key (or, for the e-mail code, the key the
 * code's verification token is bound to), registered by stamp_login, kept in IndexedDB.
 */
import { createAdminClient, type TStamp } from '../../../src/client/admin-client';
import { newSessionKey, saveSession, type TSession } from './session-key';

/** Session lifetime asked of stamp_login: an operator's working hour. */
const SESSION_SECONDS = 3600;

export async function signInWith(stamp: TStamp, organizationId: string, key?: { keyPair: CryptoKeyPair; publicKey: string }): Promise<TSession> {
  const { keyPair, publicKey } = key ?? (await newSessionKey());
  const client = createAdminClient({ baseUrl: '', stamp });
  const { activity } = await client.session.stampLogin.mutate({
    type: 'ACTIVITY_TYPE_STAMP_LOGIN',
    timestampMs: String(Date.now()),
    organizationId,
    parameters: { publicKey, expirationSeconds: String(SESSION_SECONDS) },
  });
  if (activity.status !== 'ACTIVITY_STATUS_COMPLETED') throw new Error(`sign-in ended ${activity.status}`);
  const userId = activity.votes?.[0]?.userId ?? '';
  const session: TSession = { keyPair, publicKey, organizationId: activity.organizationId, userId, expiresAt: Date.now() + SESSION_SECONDS * 1000 };
  await saveSession(session);
  return session;
}
