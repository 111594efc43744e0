/**
 * The dashboard's shell: the setup page when the URL carries `#setup=<token>`, the sign-in page
 * without a session, else the navigation and the page the hash names (`#/activities`…), each
 * page its own chunk so the first page stays small.
 */
import { AppShell, Burger, Button, Group, Loader, NavLink, Text, Title } from '@mantine/core';
import { lazy, Suspense, useEffect, useState } from 'react';
import { SessionProvider } from './lib/api';
import { clearSession, loadSession, type TSession } from './lib/session-key';
import { SignIn } from './pages/SignIn';

const PAGES = {
  overview: { label: 'Overview', Page: lazy(() => import('./pages/Overview')) },
  activities: { label: 'Activities', Page: lazy(() => import('./pages/Activities')) },
  users: { label: 'Users & credentials', Page: lazy(() => import('./pages/Users')) },
  wallets: { label: 'Wallets & keys', Page: lazy(() => import('./pages/Wallets')) },
  policies: { label: 'Policies', Page: lazy(() => import('./pages/Policies')) },
  auth: { label: 'Auth', Page: lazy(() => import('./pages/Auth')) },
  webhooks: { label: 'Webhooks', Page: lazy(() => import('./pages/Webhooks')) },
  gas: { label: 'Gas', Page: lazy(() => import('./pages/Gas')) },
  tvc: { label: 'TVC', Page: lazy(() => import('./pages/Tvc')) },
} as const;
type TPage = keyof typeof PAGES;
const Setup = lazy(() => import('./pages/Setup'));

const pageOf = (hash: string): TPage => {
  const name = hash.replace(/^#\/?/, '');
  return name in PAGES ? (name as TPage) : 'overview';
};

export function App() {
  const [hash, setHash] = useState(location.hash);
  const [session, setSession] = useState<TSession | null | undefined>(undefined);
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    const on = () => setHash(location.hash);
    window.addEventListener('hashchange', on);
    loadSession().then((s) => setSession(s && s.expiresAt > Date.now() ? s : null), () => setSession(null));
    return () => window.removeEventListener('hashchange', on);
  }, []);

  const setupToken = /^#setup=([A-Za-z0-9_-]+)$/.exec(hash)?.[1];
  if (setupToken) {
    return (
      <Suspense fallback={<Loader />}>
        <Setup token={setupToken} onSignedIn={(s) => (setSession(s), (location.hash = '#/overview'))} />
      </Suspense>
    );
  }
  if (session === undefined) return <Loader m="xl" aria-label="loading" />;
  if (session === null) return <SignIn onSignedIn={setSession} />;

  const page = pageOf(hash);
  const { Page } = PAGES[page];
  return (
    <SessionProvider session={session} onSignedOut={() => setSession(null)}>
      <AppShell header={{ height: 56 }} navbar={{ width: 230, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between">
            <Group>
              <Burger opened={opened} onClick={() => setOpened((o) => !o)} hiddenFrom="sm" size="sm" aria-label="menu" />
              <Title order={1} size="h4">Latchkey admin</Title>
            </Group>
            <Group>
              <Text size="sm" c="dark.6">{session.organizationId}</Text>
              <Button variant="default" size="xs" onClick={() => void clearSession().then(() => setSession(null))}>
                Sign out
              </Button>
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="xs" aria-label="pages">
          {(Object.keys(PAGES) as TPage[]).map((p) => (
            <NavLink key={p} href={`#/${p}`} label={PAGES[p].label} active={p === page} onClick={() => setOpened(false)} />
          ))}
        </AppShell.Navbar>
        <AppShell.Main>
          <Suspense fallback={<Loader aria-label="loading" />}>
            <Page />
          </Suspense>
        </AppShell.Main>
      </AppShell>
    </SessionProvider>
  );
}
