import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Badge, MantineProvider, Pagination, createTheme, localStorageColorSchemeManager } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import '@mantine/core/styles.css';
import './app.css';
import { router } from './router';
import { ApiFailure } from './api/client';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Client errors (not found, forbidden) are answers, not glitches: no retry.
      retry: (n, err) => !(err instanceof ApiFailure && err.status < 500) && n < 2,
      refetchOnWindowFocus: false,
    },
  },
});

const theme = createTheme({
  // Shade 9 in light mode: white on filled buttons and blue links on white reach 4.5:1 contrast.
  primaryColor: 'blue',
  primaryShade: { light: 9, dark: 8 },
  defaultRadius: 'sm',
  components: {
    // A badge is a word or two ("CRITICAL", "FINISHED"): never squeezed into "CRIT…" by a narrow column.
    // Previous/next arrows have no text: screen readers need their names.
    Pagination: Pagination.extend({
      defaultProps: { getControlProps: (control) => ({ 'aria-label': `${control} page` }) },
    }),
    Badge: Badge.extend({
      styles: { root: { flexShrink: 0, minWidth: 'max-content' }, label: { overflow: 'visible' } },
    }),
  },
});
// Light, dark or the system's preference (the default), as chosen in the header; kept in localStorage.
const colorSchemeManager = localStorageColorSchemeManager({ key: 'vigil-color-scheme' });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="auto" colorSchemeManager={colorSchemeManager}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} context={{ queryClient }} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
