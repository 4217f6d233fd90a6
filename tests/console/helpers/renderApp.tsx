import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { memoryStore } from 'react-admin';
import { App } from '../../../src/App';
import { createAuthProvider } from '../../../src/providers/authProvider';

/** Renders the whole console at `path` (signed in through msw's isAuthenticated handler). */
export function renderApp(path = '/') {
  window.history.pushState(null, '', path);
  const redirect = vi.fn<(url: string) => void>();
  const authProvider = createAuthProvider({ redirect });
  const view = render(<App authProvider={authProvider} store={memoryStore()} />);
  return { ...view, redirect, user: userEvent.setup() };
}
