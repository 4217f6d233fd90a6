import { describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ClientListPage } from '@contract/clients';
import { deferred, server, signedIn } from '../support/msw';
import { renderApp } from './helpers/renderApp';
import { CLIENTS } from './helpers/clientData';

// The code of the list's filter form and actions, and of its bulk actions, held back until the test
// lets it arrive: the rows must not wait for it (it is not in the list's own chunk).
const toolbarArrives = deferred<void>();
const bulkArrives = deferred<void>();
vi.mock('../../src/clients/ClientListToolbar', async (importOriginal) => {
  await toolbarArrives.promise;
  return importOriginal();
});
vi.mock('../../src/clients/bulk/ClientBulkActions', async (importOriginal) => {
  await bulkArrives.promise;
  return importOriginal();
});

const firstPage: ClientListPage = { clients: CLIENTS, total: CLIENTS.length, total_is_estimate: false, page: 1, perPage: 25, next_cursor: null };

describe('a client list before its filters, actions and bulk actions have loaded', () => {
  it('shows its rows and pagination at once, then the filter form and actions where they belong, then the bulk actions once a client is selected', async () => {
    server.use(
      signedIn(),
      http.get('*/api/client/v1/clients/:listId', () => HttpResponse.json(firstPage)),
    );
    const { user } = renderApp('/clients/all');
    expect(await screen.findByText('Ann')).toBeVisible();
    expect(await screen.findByText(`1-${CLIENTS.length} of ${CLIENTS.length}`)).toBeVisible();
    expect(screen.getAllByRole('row')).toHaveLength(CLIENTS.length + 1);
    // The filter bar's place is kept (the rows do not move when it comes), empty.
    const bar = document.querySelector('main .RaList-actions');
    expect(bar).not.toBeNull();
    expect(bar!.childElementCount).toBe(0);
    expect(screen.queryByRole('textbox', { name: 'Search by name or e-mail' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Export' })).toBeNull();

    await act(async () => toolbarArrives.resolve());
    expect(await screen.findByRole('textbox', { name: 'Search by name or e-mail' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Export' })).toBeVisible();
    // Above the rows, as react-admin's list puts them.
    const toolbar = document.querySelector('main .RaList-actions')!;
    expect(toolbar.compareDocumentPosition(screen.getByRole('table')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    // Selecting a client asks for the bulk actions' code; they show once it is here.
    const [firstRow] = screen.getAllByRole('row').slice(1);
    await user.click(within(firstRow!).getByRole('checkbox'));
    expect(screen.queryByRole('button', { name: 'Export 1 to CSV' })).toBeNull();
    await act(async () => bulkArrives.resolve());
    expect(await screen.findByRole('button', { name: 'Export 1 to CSV' })).toBeVisible();
  });
});
