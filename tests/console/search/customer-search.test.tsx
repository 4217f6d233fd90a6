import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { deferred } from '../../support/msw';
import { hit, renderSearch, searchBackend, searchConfig } from './searchHarness';

const OLIVIA = hit(42, 'Olivia', 'Smith', '  Olivia.Smith@Gmail.com ', '100231');
const OLIVER = hit(43, 'Oliver', 'Stone', 'oliver@studio.test');
const NO_EMAIL = hit(44, 'Olga', 'Nomail', null);
const NO_FIRST = hit(45, '', 'Lastonly', 'last@studio.test');
const NO_LAST = hit(46, 'Firstonly', '  ', 'first@studio.test');

const box = () => screen.findByRole('combobox', { name: 'Search customers' });
/** Focuses the box, which loads the widget, and answers its real input once it is there. */
const ready = async (user: { click(element: Element): Promise<void> }) => {
  await user.click(await box());
  await waitFor(() => expect(screen.getByRole('search')).toHaveAttribute('data-ready', 'true'));
  return box();
};
const list = () => screen.queryByRole('listbox', { name: 'Customer search results' });
const options = () => within(list()!).queryAllByRole('option');

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('customer search widget', () => {
  it('renders nothing when the application id or the search key is empty', () => {
    const seen = searchBackend(() => []);
    const noApp = renderSearch(searchConfig({ appId: '' }));
    expect(screen.queryByRole('search')).toBeNull();
    noApp.unmount();
    renderSearch(searchConfig({ searchKey: '' }));
    expect(screen.queryByRole('search')).toBeNull();
    expect(seen).toEqual([]);
  });

  it("renders nothing and logs 'FAILED TO INIT SEARCH CLIENT!' when the search client cannot be set up", async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderSearch(searchConfig({ host: 'https://not a host' }));
    await user.click(await box());
    await waitFor(() => expect(log).toHaveBeenCalledWith('FAILED TO INIT SEARCH CLIENT!', expect.anything()));
    expect(screen.queryByRole('search')).toBeNull();
  });

  it("offers 'Search for:' Customers only, a 512-character box and the two titled buttons", async () => {
    searchBackend(() => []);
    const { user } = renderSearch();
    expect(await box()).toHaveAttribute('maxlength', '512');
    const input = await ready(user);
    expect(input).toHaveAttribute('maxlength', '512');
    const searchFor = screen.getByRole('combobox', { name: 'Search for:' });
    expect(searchFor).toHaveTextContent('Customers');
    await user.click(searchFor);
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Customers']);
    await user.keyboard('{Escape}');
    expect(screen.getByTitle('Submit the search query')).toBeInTheDocument();
    expect(screen.getByTitle('Clear the search query')).toBeInTheDocument();
  });

  it("stands in for 'Search for:' until the widget is there, and hands the focus and an opening key over to the real select", async () => {
    searchBackend(() => []);
    renderSearch();
    const standIn = await screen.findByRole('combobox', { name: 'Search for:' });
    expect(screen.getByRole('search')).not.toHaveAttribute('data-ready');
    expect(standIn).toHaveTextContent('Customers');
    expect(standIn).toHaveAttribute('aria-haspopup', 'listbox');
    expect(standIn).toHaveAttribute('aria-expanded', 'false');
    expect(standIn).toHaveAttribute('tabindex', '0');
    // Focused and asked to open with a key before the widget's code has arrived.
    act(() => {
      standIn.focus();
      fireEvent.keyDown(standIn, { key: 'ArrowDown' });
    });
    // (The open menu hides the rest of the page from the accessibility tree.)
    await waitFor(() => expect(screen.getByRole('search', { hidden: true })).toHaveAttribute('data-ready', 'true'));
    await waitFor(() => expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Customers']));
    expect(list()).toBeNull();
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    const real = screen.getByRole('combobox', { name: 'Search for:' });
    expect(real).not.toBe(standIn);
    await waitFor(() => expect(real).toHaveFocus());
    expect(real).toHaveAttribute('aria-expanded', 'false');
  });

  it('hands the focus of the stand-in box over to the widget, and not once staff have left it', async () => {
    searchBackend(() => []);
    const first = renderSearch();
    const standIn = await box();
    act(() => standIn.focus());
    await waitFor(() => expect(screen.getByRole('search')).toHaveAttribute('data-ready', 'true'));
    expect(await box()).not.toBe(standIn);
    expect(await box()).toHaveFocus();
    first.unmount();

    renderSearch();
    const again = await box();
    act(() => {
      again.focus();
      again.blur();
    });
    await waitFor(() => expect(screen.getByRole('search')).toHaveAttribute('data-ready', 'true'));
    expect(document.body).toHaveFocus();
    expect(list()).toBeNull();
  });

  it('keeps the results hidden until the box is focused, and hides them on a click outside', async () => {
    searchBackend(() => [OLIVIA]);
    const { user } = renderSearch();
    await box();
    expect(list()).toBeNull();
    const input = await ready(user);
    expect(await screen.findByRole('option', { name: /Olivia Smith/ })).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-expanded', 'true');
    await user.click(screen.getByText('Somewhere else on the page'));
    expect(list()).toBeNull();
    await user.click(input);
    expect(list()).not.toBeNull();
  });

  it('searches 500 ms after the last keystroke, once, with 20 hits per page and the credentials in the URL', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const seen = searchBackend((query) => (query ? [OLIVIA] : []));
    const { user } = renderSearch(undefined, { advanceTimers: vi.advanceTimersByTime });
    await user.type(await ready(user), 'oli');
    await act(async () => {
      vi.advanceTimersByTime(450);
    });
    expect(seen.filter((request) => request.query !== '')).toEqual([]);
    await act(async () => {
      vi.advanceTimersByTime(60);
    });
    await waitFor(() => expect(seen.map((request) => request.query)).toContain('oli'));
    expect(seen.filter((request) => request.query !== '').map((request) => request.query)).toEqual(['oli']);
    const request = seen.find((r) => r.query === 'oli')!;
    expect(request.hitsPerPage).toBe(20);
    expect(request.url.searchParams.get('x-algolia-application-id')).toBe('STUDIO');
    expect(request.url.searchParams.get('x-algolia-api-key')).toBe('search-key');
    expect(request.contentType).toContain('text/plain');
  });

  it('keeps what was typed while the widget loaded, and searches for it', async () => {
    const seen = searchBackend((query) => (query === 'liv' ? [OLIVIA] : []));
    renderSearch();
    // Typing into the stand-in box (one change event: no race with the widget's arrival).
    fireEvent.change(await box(), { target: { value: 'liv' } });
    await waitFor(() => expect(screen.getByRole('search')).toHaveAttribute('data-ready', 'true'));
    expect(await box()).toHaveValue('liv');
    await waitFor(() => expect(seen.map((request) => request.query)).toContain('liv'));
  });

  it('searches at once with the submit button, and empties the box with the clear button', async () => {
    const seen = searchBackend((query) => (query === 'oliv' ? [OLIVIA, OLIVER] : []));
    const { user } = renderSearch();
    await user.type(await ready(user), 'oliv');
    await user.click(screen.getByTitle('Submit the search query'));
    expect(await screen.findByRole('option', { name: /Oliver Stone/ })).toBeInTheDocument();
    expect(seen.filter((r) => r.query === 'oliv')).toHaveLength(1);
    await user.click(screen.getByTitle('Clear the search query'));
    expect(await box()).toHaveValue('');
  });

  it('does not ask again when the submit button or Enter follows a search for the same words', async () => {
    const seen = searchBackend((query) => (query === 'oliv' ? [OLIVIA, OLIVER] : []));
    const { user } = renderSearch();
    await user.type(await ready(user), 'oliv');
    // The typing's own search, 500 ms after the last keystroke, has answered.
    expect(await screen.findByRole('option', { name: /Oliver Stone/ })).toBeInTheDocument();
    await user.click(screen.getByTitle('Submit the search query'));
    await user.type(await box(), '{Enter}');
    await user.type(await box(), 'e');
    await user.click(screen.getByTitle('Submit the search query'));
    await waitFor(() => expect(seen.map((r) => r.query)).toContain('olive'));
    expect(seen.filter((r) => r.query === 'oliv')).toHaveLength(1);
  });

  it('drops hits lacking a first name, last name or e-mail', async () => {
    searchBackend(() => [OLIVIA, NO_EMAIL, NO_FIRST, NO_LAST, OLIVER]);
    const { user } = renderSearch();
    await ready(user);
    await screen.findByRole('option', { name: /Olivia Smith/ });
    expect(options().map((option) => option.getAttribute('href'))).toEqual(['/client/42?search=customers', '/client/43?search=customers']);
  });

  it('shows a 60x60 avatar keyed by the SHA-256 of the trimmed, lower-cased e-mail, the highlighted name, the e-mail and the MindBody id', async () => {
    searchBackend((query) => (query ? [OLIVIA] : []));
    const { user } = renderSearch();
    await user.type(await ready(user), 'oli{Enter}');
    const option = await screen.findByRole('option', { name: /Olivia Smith/ });
    const digest = createHash('sha256').update('olivia.smith@gmail.com').digest('hex');
    const avatar = option.querySelector('img')!;
    expect(avatar).toHaveAttribute('src', `https://www.gravatar.com/avatar/${digest}?s=60&d=mp`);
    expect(avatar.parentElement).toHaveStyle({ width: '60px', height: '60px' });
    await waitFor(() => expect(option.querySelector('mark')).toHaveTextContent('Oli'));
    expect(option).toHaveTextContent('Olivia.Smith@Gmail.com');
    expect(option).toHaveTextContent('MindBody ID: 100231');
  });

  it('opens /client/{related_pg_id}?search=customers when a hit is clicked', async () => {
    searchBackend(() => [OLIVIA]);
    const { user } = renderSearch();
    await ready(user);
    const option = await screen.findByRole('option', { name: /Olivia Smith/ });
    expect(option).toHaveAttribute('href', '/client/42?search=customers');
    await user.click(option);
    expect(await screen.findByText('Opened /client/42?search=customers')).toBeInTheDocument();
  });

  it('moves through the hits with the arrow keys, opens one with Enter and closes the list with Escape', async () => {
    searchBackend(() => [OLIVIA, OLIVER]);
    const { user } = renderSearch();
    const input = await ready(user);
    await screen.findByRole('option', { name: /Oliver Stone/ });
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(options().map((option) => option.getAttribute('aria-selected'))).toEqual(['false', 'true']);
    expect(input).toHaveAttribute('aria-activedescendant', options()[1]!.id);
    await user.keyboard('{ArrowDown}');
    expect(options()[0]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowUp}');
    expect(options()[1]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Escape}');
    expect(list()).toBeNull();
    await user.keyboard('{ArrowDown}');
    expect(options()[0]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Opened /client/42?search=customers')).toBeInTheDocument();
  });

  it('shows nothing while idle, a spinner once a search has stalled for 200 ms, then the hits', async () => {
    const hold = deferred();
    searchBackend(async (query) => {
      if (query === 'slow') await hold.promise;
      return query ? [OLIVIA] : [];
    });
    const { user } = renderSearch();
    await ready(user);
    await waitFor(() => expect(list()).not.toBeNull());
    expect(screen.queryByRole('status')).toBeNull();
    await user.type(await box(), 'slow{Enter}');
    expect(await screen.findByRole('status')).toHaveTextContent('Searching…');
    hold.resolve();
    expect(await screen.findByRole('option', { name: /Olivia Smith/ })).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows only the error, none of the earlier hits, when a search fails', async () => {
    searchBackend((query) => (query === 'olivboom' ? { status: 500 } : query ? [OLIVIA, OLIVER] : []));
    const { user } = renderSearch();
    await user.type(await ready(user), 'oliv{Enter}');
    await screen.findByRole('option', { name: /Oliver Stone/ });
    await user.type(await box(), 'boom{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Search failed. Keep typing to try again.');
    expect(options()).toHaveLength(0);
    expect(screen.queryByText('Olivia')).toBeNull();
    // Enter on the box searches again instead of opening a hit nobody can see.
    await user.keyboard('{ArrowDown}{Enter}');
    expect(screen.queryByText(/^Opened/)).toBeNull();
  });

  it('shows a short error line when a search fails, and keeps working for the next keystroke', async () => {
    searchBackend((query) => (query === 'boom' ? { status: 400 } : query ? [OLIVER] : []));
    const { user } = renderSearch();
    await user.type(await ready(user), 'boom{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Search failed. Keep typing to try again.');
    await user.type(await box(), 'x{Enter}');
    expect(await screen.findByRole('option', { name: /Oliver Stone/ })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
