import { lazy, Suspense, type ComponentProps } from 'react';

// react-admin's error pages, fetched only when one is shown: its Error page brings the
// configurable title and its editor (MUI's TextField and Select) along.
const RaError = lazy(() => import('./raErrorPages').then((module) => ({ default: module.Error })));
const RaAuthenticationError = lazy(() => import('./raErrorPages').then((module) => ({ default: module.AuthenticationError })));

export const ErrorPage = (props: ComponentProps<typeof RaError>) => (
  <Suspense fallback={null}>
    <RaError {...props} />
  </Suspense>
);

export const AuthenticationErrorPage = (props: ComponentProps<typeof RaAuthenticationError>) => (
  <Suspense fallback={null}>
    <RaAuthenticationError {...props} />
  </Suspense>
);
