/**
 * The signed-in session as React state: the typed admin client stamped with the session key, the
 * organization acted in, and `useCall` for reads. A 401 from any call (expired or revoked
 * session) clears the session and returns to the sign-in page.
 */
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { createAdminClient, errorCodeOf, httpStatusOf, type TAdminClient } from '../../../src/client/admin-client';
import { clearSession, sessionStamp, type TSession } from './session-key';

export interface TSessionContext {
  session: TSession;
  client: TAdminClient;
  organizationId: string;
  signOut(): void;
  /** Reports an error: a 401 signs out; anything else is returned as a message to show. */
  report(e: unknown): string;
}

const Ctx = createContext<TSessionContext | null>(null);

export function SessionProvider(props: { session: TSession; onSignedOut: () => void; children: ReactNode }) {
  const { session, onSignedOut } = props;
  const client = createAdminClient({ baseUrl: '', stamp: sessionStamp(session.keyPair, session.publicKey) });
  const signOut = () => void clearSession().then(onSignedOut);
  const report = (e: unknown) => {
    if (httpStatusOf(e) === 401) signOut();
    const code = errorCodeOf(e);
    return `${code ? `${code}: ` : ''}${(e as Error).message}`;
  };
  return <Ctx.Provider value={{ session, client, organizationId: session.organizationId, signOut, report }}>{props.children}</Ctx.Provider>;
}

export function useSession(): TSessionContext {
  const s = useContext(Ctx);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}

/** Runs a read now and whenever `deps` change; `reload` runs it again. */
export function useCall<T>(fn: (c: TSessionContext) => Promise<T>, deps: unknown[] = []) {
  const s = useSession();
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const run = useCallback(() => {
    setState((p) => ({ ...p, loading: true }));
    fn(s).then(
      (data) => setState({ data, loading: false }),
      (e: unknown) => setState({ error: s.report(e), loading: false }),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  useEffect(run, [run]);
  return { ...state, reload: run };
}

/** The envelope of an activity the signed-in user submits. */
export const envelope = <T extends string, P>(type: T, organizationId: string, parameters: P) => ({ type, timestampMs: String(Date.now()), organizationId, parameters });
