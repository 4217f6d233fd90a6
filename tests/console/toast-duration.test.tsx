import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { AdminContext, memoryStore } from 'react-admin';
import type { ReactNode } from 'react';
import { createAuthProvider } from '../../src/providers/authProvider';
import { createDataProvider } from '../../src/providers/dataProvider';
import { consoleAreas } from '../../src/areas';
import { i18nProvider } from '../../src/providers/i18nProvider';
import { Notification } from '../../src/layout/Notification';
import { AddMessageDialog } from '../../src/messaging/AddMessageDialog';
import { SyncVimeoButton } from '../../src/videos/SyncVimeoButton';
import { server } from '../support/msw';

// These toasts stay 6 s (react-admin's own default is 4 s). The clock is a fake one moved by
// hand, so "there at 5.3 s, gone at 7 s" says nothing about the machine's speed. It also runs on by
// itself (msw and Testing Library need time to pass), which the margins on both sides absorb.
beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
});

const renderWithToasts = (ui: ReactNode) => {
  render(
    <AdminContext
      dataProvider={createDataProvider(consoleAreas())}
      authProvider={createAuthProvider({ redirect: vi.fn() })}
      i18nProvider={i18nProvider}
      store={memoryStore()}
    >
      {ui}
      <Notification />
    </AdminContext>,
  );
  return userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
};

/** Moves the clock, then lets the snackbar's exit transition (about 0.2 s) finish. */
const advance = (ms: number) => {
  act(() => vi.advanceTimersByTime(ms));
  act(() => vi.advanceTimersByTime(300));
};

const expectShownForSixSeconds = async (text: string) => {
  await screen.findByText(text);
  advance(5_000);
  expect(screen.queryByText(text)).toBeInTheDocument();
  advance(1_400);
  expect(screen.queryByText(text)).toBeNull();
};

describe('6-second toasts', () => {
  it.each([
    [
      "'New message saved'",
      () =>
        HttpResponse.json({
          status: 'success',
          push_message: { id: 1, title: '', message: 'Hi', enabled: false, message_type: 2, msg_type_title: 'Missed Class' },
        }),
      'New message saved',
    ],
    [
      "'An error occured while saving the message'",
      () => HttpResponse.json({ status: 'error', message: 'refused' }, { status: 400 }),
      'An error occured while saving the message',
    ],
  ])('add-new message: %s', async (_, answer, text) => {
    server.use(http.post('*/api/client/v1/messaging/add-new', answer));
    const user = renderWithToasts(<AddMessageDialog typeId={2} open onClose={() => undefined} />);

    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Hi');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await expectShownForSixSeconds(text);
  });

  it.each([
    ["'Vimeo sync has started!'", () => HttpResponse.json({ started: true }), 'Vimeo sync has started!'],
    ["'Vimeo sync failed to start.'", () => HttpResponse.json({ message: 'Vimeo is down' }, { status: 500 }), 'Vimeo sync failed to start.'],
  ])('Vimeo sync: %s', async (_, answer, text) => {
    server.use(http.get('*/api/v1/sync/all-vimeo-videos', answer));
    const user = renderWithToasts(<SyncVimeoButton />);

    await user.click(screen.getByRole('button', { name: 'Sync Vimeo videos' }));

    await expectShownForSixSeconds(text);
  });
});
