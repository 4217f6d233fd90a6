import { Suspense, type ComponentProps } from 'react';
import { lazyChunk } from '../common/chunks';

// react-admin's authentication error page, fetched only when one is shown.
const RaAuthenticationError = lazyChunk(() => import('./raErrorPages').then((module) => ({ default: module.AuthenticationError })));

export const AuthenticationErrorPage = (props: ComponentProps<typeof RaAuthenticationError>) => (
  <Suspense fallback={null}>
    <RaAuthenticationError {...props} />
  </Suspense>
);
