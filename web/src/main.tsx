import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider, createTheme } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import '@mantine/core/styles.css';
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

const theme = createTheme({ primaryColor: 'blue', defaultRadius: 'sm' });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} context={{ queryClient }} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
