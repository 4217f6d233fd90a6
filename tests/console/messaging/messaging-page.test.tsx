import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { memoryStore } from 'react-admin';
import { App } from '../../../src/App';
import { createAuthProvider } from '../../../src/providers/authProvider';
import type { PushMessage } from '@contract/messaging';
import { server, signedIn } from '../../support/msw';
import { fakeAutomationServer } from '../../support/automationMsw';

const TYPE_TITLES: Record<number, string> = { 1: 'High Five', 2: 'Missed Class' };

const message = (id: number, title: string, text: string, enabled = true, type = 2): PushMessage => ({
  id,
  title,
  message: text,
  enabled,
  message_type: type,
  msg_type_title: TYPE_TITLES[type]!,
});

/** A stand-in for the server: keeps messages, records every call, can refuse chosen ids. */
function fakeMessagingServer(initial: PushMessage[], options: { refuseIds?: number[]; addAnswer?: () => Response } = {}) {
  const stored = initial.map((m) => ({ ...m }));
  const updates: Record<string, unknown>[] = [];
  const adds: Record<string, unknown>[] = [];
  let listCalls = 0;
  server.use(
    signedIn(),
    // The page's automated-sending section (tests/console/messaging/automation-section.test.tsx)
    ...fakeAutomationServer().handlers,
    http.get('*/api/client/v1/messaging/:typeId', ({ params }) => {
      listCalls += 1;
      return HttpResponse.json({ messages: stored.filter((m) => m.message_type === Number(params.typeId)) });
    }),
    http.post('*/api/client/v1/messaging/update', async ({ request }) => {
      const body = (await request.json()) as PushMessage & Record<string, unknown>;
      updates.push(body);
      if (options.refuseIds?.includes(body.id)) {
        return HttpResponse.json(
          { message: 'Invalid request: body.message: must not be empty', errors: [{ path: 'body.message', message: 'must not be empty' }] },
          { status: 400 },
        );
      }
      const row = stored.find((m) => m.id === body.id)!;
      Object.assign(row, { title: body.title, message: body.message, enabled: body.enabled });
      return HttpResponse.json(row);
    }),
    http.post('*/api/client/v1/messaging/add-new', async ({ request }) => {
      const body = (await request.json()) as Omit<PushMessage, 'id' | 'msg_type_title'>;
      adds.push(body);
      if (options.addAnswer) return options.addAnswer();
      const created = { ...body, id: 100 + adds.length, msg_type_title: TYPE_TITLES[body.message_type]! };
      stored.push(created);
      return HttpResponse.json({ status: 'success', push_message: created });
    }),
  );
  return { stored, updates, adds, listCalls: () => listCalls };
}

const renderPage = async (path = '/messaging/missed-class') => {
  window.history.pushState(null, '', path);
  render(<App authProvider={createAuthProvider({ redirect: vi.fn() })} store={memoryStore()} />);
  await screen.findByRole('heading', { level: 1 });
  return userEvent.setup();
};

const table = () => screen.findByRole('table', { name: 'Message templates' });
const bodyRows = async () =>
  within(await table())
    .getAllByRole('row')
    .slice(1);
const field = (row: HTMLElement, name: 'Title' | 'Message') => within(row).getByRole('textbox', { name });
const enabledSwitch = (row: HTMLElement) => within(row).getByRole('switch', { name: 'Enabled' });
const isMarked = (row: HTMLElement) => row.getAttribute('data-ranupdates') === 'true';
// While the add dialog is open MUI hides the rest of the page from the accessibility tree.
const toast = () => screen.findByRole('alert', { hidden: true });
/** Types by pasting: the same change events as typing, without a render per key. */
const typeInto = async (user: ReturnType<typeof userEvent.setup>, input: HTMLElement, text: string) => {
  await user.click(input);
  await user.paste(text);
};

const TYPE_2 = [
  message(11, 'We missed you', 'Hey {first_name}, we missed you in {class_name}.'),
  message(12, 'Everything OK?', 'Life happens! Catch a class on demand.', false),
  message(13, 'Third', 'A third message.'),
];

describe('push messaging page', () => {
  it('shows the type title, one editable row per message, Save Settings and a preview with the sample client', async () => {
    fakeMessagingServer(TYPE_2);
    await renderPage();

    expect(screen.getByRole('heading', { level: 1, name: 'Push Messaging - Missed Class' })).toBeVisible();
    const rows = await bodyRows();
    expect(rows.map((row) => field(row, 'Title')).map((input) => (input as HTMLInputElement).value)).toEqual(['We missed you', 'Everything OK?', 'Third']);
    expect(enabledSwitch(rows[0]!)).toBeChecked();
    expect(enabledSwitch(rows[1]!)).not.toBeChecked();
    for (const header of ['Title', 'Message', 'Enabled']) expect(within(await table()).getByRole('columnheader', { name: header })).toBeVisible();
    expect(within(rows[0]!).getByTestId('message-preview')).toHaveTextContent('Hey Jordan, we missed you in Morning Flow.');
    expect(within(rows[1]!).queryByTestId('message-preview')).toBeNull();
    expect(screen.getByRole('button', { name: 'Save Settings' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Add new message' })).toBeVisible();
  });

  it('marks every edited row, and only those', async () => {
    fakeMessagingServer(TYPE_2);
    const user = await renderPage();
    const rows = await bodyRows();
    expect(rows.some(isMarked)).toBe(false);

    await user.type(field(rows[0]!, 'Title'), '!');
    await user.click(enabledSwitch(rows[2]!));

    const after = await bodyRows();
    expect(after.map(isMarked)).toEqual([true, false, true]);
    expect(within(after[0]!).getByText('Changed, not saved yet')).toBeVisible();
    expect(within(after[1]!).queryByText('Changed, not saved yet')).toBeNull();
  });

  it('sends one update per changed row, then clears their marks', async () => {
    const fake = fakeMessagingServer(TYPE_2);
    const user = await renderPage();
    const rows = await bodyRows();

    await user.clear(field(rows[0]!, 'Title'));
    await typeInto(user, field(rows[0]!, 'Title'), 'We really missed you');
    await typeInto(user, field(rows[0]!, 'Message'), ' See you soon!');
    await user.click(enabledSwitch(rows[1]!));
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));

    expect(await toast()).toHaveTextContent('2 messages saved');
    expect(fake.updates).toHaveLength(2);
    expect(fake.updates).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: 11,
          title: 'We really missed you',
          message: 'Hey {first_name}, we missed you in {class_name}. See you soon!',
          ranupdates: 'true',
        }),
        expect.objectContaining({ id: 12, enabled: true, ranupdates: 'true' }),
      ]),
    );
    expect((await bodyRows()).some(isMarked)).toBe(false);
    expect(fake.stored.find((m) => m.id === 11)?.title).toBe('We really missed you');
  });

  it('keeps a row that failed to save marked, names it, and saves only that row next time', async () => {
    const fake = fakeMessagingServer(TYPE_2, { refuseIds: [12] });
    const user = await renderPage();
    const rows = await bodyRows();

    await typeInto(user, field(rows[0]!, 'Title'), ' (edited)');
    await user.clear(field(rows[1]!, 'Message'));
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));

    const alert = await toast();
    expect(alert).toHaveTextContent("Not saved: 'Everything OK?'");
    expect(alert).toHaveClass('RaNotification-error');
    const after = await bodyRows();
    expect(after.map(isMarked)).toEqual([false, true, false]);
    expect(within(after[1]!).getByText('Not saved: Message: must not be empty')).toBeVisible();
    // The failed edit is still there to fix.
    expect(field(after[1]!, 'Message')).toHaveValue('');
    expect(field(after[0]!, 'Title')).toHaveValue('We missed you (edited)');

    fake.updates.length = 0;
    await typeInto(user, field(after[1]!, 'Message'), 'Fixed text');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    await waitFor(() => expect(fake.updates).toHaveLength(1));
    expect(fake.updates[0]).toMatchObject({ id: 12, message: 'Fixed text' });
  });

  it('shows the empty state without Save Settings', async () => {
    fakeMessagingServer([]);
    await renderPage();

    expect(await screen.findByText('No messages have been stored.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Save Settings' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Add new message' })).toBeVisible();
  });

  it("refuses an empty new message with '* Message Required' and sends nothing", async () => {
    const fake = fakeMessagingServer(TYPE_2);
    const user = await renderPage();
    await table();

    await user.click(screen.getByRole('button', { name: 'Add new message' }));
    const dialog = await screen.findByRole('dialog');
    await typeInto(user, within(dialog).getByRole('textbox', { name: 'Title' }), 'A title only');
    await user.type(within(dialog).getByRole('textbox', { name: 'Message' }), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(within(dialog).getByText('* Message Required')).toBeVisible();
    expect(fake.adds).toHaveLength(0);
  });

  it("adds a message: 'New message saved', the list refreshes and unsaved edits stay", async () => {
    const fake = fakeMessagingServer(TYPE_2);
    const user = await renderPage();
    const rows = await bodyRows();
    await typeInto(user, field(rows[2]!, 'Title'), ' (unsaved)');

    await user.click(screen.getByRole('button', { name: 'Add new message' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('switch', { name: 'Enable message?' })).not.toBeChecked();
    await typeInto(user, within(dialog).getByRole('textbox', { name: 'Message' }), 'Come back, {first_name}!');
    await user.click(within(dialog).getByRole('switch', { name: 'Enable message?' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    const alert = await toast();
    expect(alert).toHaveTextContent('New message saved');
    expect(alert).toHaveClass('RaNotification-success');
    expect(fake.adds).toEqual([{ enabled: true, message: 'Come back, {first_name}!', message_type: 2, title: '' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(async () => expect(await bodyRows()).toHaveLength(4));
    const after = await bodyRows();
    expect(field(after[3]!, 'Message')).toHaveValue('Come back, {first_name}!');
    expect(field(after[2]!, 'Title')).toHaveValue('Third (unsaved)');
    expect(isMarked(after[2]!)).toBe(true);
  });

  it.each([
    [
      "status 'error' with a 400",
      () => HttpResponse.json({ status: 'error', message: 'body.message_type: must be a message type from 1 to 6' }, { status: 400 }),
    ],
    ["status 'error' with a 200", () => HttpResponse.json({ status: 'error', message: 'refused' })],
    ['a server failure', () => HttpResponse.json({ message: 'Internal server error' }, { status: 500 })],
  ])("says 'An error occured while saving the message' on %s and keeps the dialog open", async (_, addAnswer) => {
    const fake = fakeMessagingServer(TYPE_2, { addAnswer });
    const user = await renderPage();
    await table();

    await user.click(screen.getByRole('button', { name: 'Add new message' }));
    const dialog = await screen.findByRole('dialog');
    await typeInto(user, within(dialog).getByRole('textbox', { name: 'Message' }), 'Some content');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    const alert = await toast();
    expect(alert).toHaveTextContent('An error occured while saving the message');
    expect(alert).toHaveClass('RaNotification-error');
    expect(within(screen.getByRole('dialog')).getByRole('textbox', { name: 'Message' })).toHaveValue('Some content');
    expect(fake.adds).toEqual([{ enabled: false, message: 'Some content', message_type: 2, title: '' }]);
    const behindDialog = screen.getByRole('table', { name: 'Message templates', hidden: true });
    expect(within(behindDialog).getAllByRole('row', { hidden: true })).toHaveLength(1 + TYPE_2.length);
  });

  it('asks before leaving with unsaved edits, and stays when the staff member cancels', async () => {
    fakeMessagingServer([...TYPE_2, message(21, 'High five!', 'Great work.', true, 1)]);
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const user = await renderPage();
    const rows = await bodyRows();
    await typeInto(user, field(rows[0]!, 'Title'), ' (edited)');

    await user.click(screen.getByRole('link', { name: 'High Five' }));

    expect(confirm).toHaveBeenCalledWith('Some message edits are not saved yet. Leave this page and lose them?');
    expect(window.location.pathname).toBe('/messaging/missed-class');
    expect(field((await bodyRows())[0]!, 'Title')).toHaveValue('We missed you (edited)');

    confirm.mockReturnValue(true);
    await user.click(screen.getByRole('link', { name: 'High Five' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Push Messaging - High Five' })).toBeVisible();
    expect(window.location.pathname).toBe('/messaging/high-fives');
    confirm.mockRestore();
  });

  it('asks before the tab is closed or reloaded with unsaved edits, and no longer once they are saved', async () => {
    fakeMessagingServer(TYPE_2);
    const user = await renderPage();
    const rows = await bodyRows();
    // The browser shows its own "Leave site?" prompt when beforeunload is cancelled.
    const closingTabIsHeld = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(closingTabIsHeld()).toBe(false);

    await typeInto(user, field(rows[0]!, 'Title'), ' (edited)');
    expect(closingTabIsHeld()).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await toast()).toHaveTextContent('Message saved');
    await waitFor(() => expect(closingTabIsHeld()).toBe(false));
  });

  it('leaves without asking when nothing is unsaved', async () => {
    fakeMessagingServer(TYPE_2);
    const confirm = vi.spyOn(window, 'confirm');
    const user = await renderPage();
    await table();

    await user.click(await screen.findByRole('link', { name: 'High Five' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Push Messaging - High Five' })).toBeVisible();
    expect(confirm).not.toHaveBeenCalled();
    confirm.mockRestore();
  });
});
