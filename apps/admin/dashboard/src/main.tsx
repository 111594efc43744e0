import '@mantine/core/styles.css';
import { MantineProvider, createTheme } from '@mantine/core';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';

// Passkeys need a domain as relying-party id; browsers refuse an IP address. 127.0.0.1 and
// localhost are the same server, so move before anything is stored (IndexedDB is per origin).
if (location.hostname === '127.0.0.1') {
  location.replace(`${location.protocol}//localhost:${location.port}${location.pathname}${location.search}${location.hash}`);
} else {
  // Shade 8: white text on the filled buttons passes WCAG AA contrast (axe checks it).
  const theme = createTheme({ primaryColor: 'indigo', primaryShade: 8, defaultRadius: 'md' });
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={() => ({ variables: {}, light: { '--mantine-color-error': 'var(--mantine-color-red-9)' }, dark: {} })}>
        <App />
      </MantineProvider>
    </StrictMode>,
  );
}
