import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { AuthContext, useCanAccess, type AuthProvider } from 'react-admin';
import { createAuthProvider, USER_STORAGE_KEY } from '../../src/providers/authProvider';
import { createConfig } from '../../src/providers/config';
import { createQueryClient } from '../../src/providers/queryClient';
import { SESSION_STATE_ELEMENT_ID } from '@contract/pageState';
import type { SignedInUser } from '@contract/auth';

const frontDesk: SignedInUser = {
  email: 'desk@studio.test',
  nickname: 'desk',
  picture: '',
  role: 'front_desk',
  permissions: ['clients.read', 'clients.push', 'clients.notes', 'dashboard.read', 'signed_in'],
};

const pageSignedInAs = (user: SignedInUser) => {
  const page = document.implementation.createHTMLDocument('console');
  const element = page.createElement('script');
  element.type = 'application/json';
  element.id = SESSION_STATE_ELEMENT_ID;
  element.textContent = JSON.stringify({ isAuthenticated: true, user });
  page.head.append(element);
  return page;
};

/** Each render of an access check, as the screen behind it would see it. */
const Check = ({ resource, action, seen }: { resource: string; action: string; seen: string[] }) => {
  const { canAccess, isPending } = useCanAccess({ resource, action });
  const state = isPending ? 'waiting' : canAccess ? 'shown' : 'refused';
  seen.push(state);
  return <p>{`${resource}.${action}: ${state}`}</p>;
};

const renderChecks = (authProvider: AuthProvider) => {
  const seen: Record<string, string[]> = { list: [], edit: [] };
  render(
    <AuthContext.Provider value={authProvider}>
      <QueryClientProvider client={createQueryClient(authProvider)}>
        <Check resource="clients" action="list" seen={seen.list!} />
        <Check resource="staff" action="edit" seen={seen.edit!} />
      </QueryClientProvider>
    </AuthContext.Provider>,
  );
  return seen;
};

// On a cold client list every access check cost the whole screen one more render.
describe('access checks once the page knows who is signed in', () => {
  it('answer at their first render, allowed and refused alike, and never ask again', async () => {
    const authProvider = createAuthProvider({ config: createConfig({}), redirect: vi.fn(), page: pageSignedInAs(frontDesk), storage: null });
    await authProvider.checkAuth({});
    const canAccess = vi.spyOn(authProvider, 'canAccess');

    const seen = renderChecks(authProvider);

    expect(screen.getByText('clients.list: shown')).toBeInTheDocument();
    expect(screen.getByText('staff.edit: refused')).toBeInTheDocument();
    expect(seen.list![0]).toBe('shown');
    expect(seen.edit![0]).toBe('refused');
    expect(canAccess).not.toHaveBeenCalled();
  });

  it('wait for the answer as before while the sign-in check has not answered (a stored user is not trusted)', async () => {
    window.localStorage.setItem(USER_STORAGE_KEY, JSON.stringify(frontDesk));
    const authProvider = createAuthProvider({ config: createConfig({}), redirect: vi.fn(), page: pageSignedInAs(frontDesk) });

    const seen = renderChecks(authProvider);

    expect(seen.list![0]).toBe('waiting');
    expect(await screen.findByText('clients.list: shown')).toBeInTheDocument();
    expect(await screen.findByText('staff.edit: refused')).toBeInTheDocument();
  });
});
