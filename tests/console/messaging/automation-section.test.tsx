import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { memoryStore } from 'react-admin';
import { App } from '../../../src/App';
import { createAuthProvider } from '../../../src/providers/authProvider';
import { server, signedIn } from '../../support/msw';
import { fakeAutomationServer } from '../../support/automationMsw';

type FakeOptions = Parameters<typeof fakeAutomationServer>[0];

const renderPage = async (path: string, options: FakeOptions = {}) => {
  const fake = fakeAutomationServer(options);
  server.use(
    signedIn(),
    ...fake.handlers,
    http.get('*/api/client/v1/messaging/:typeId', () => HttpResponse.json({ messages: [] })),
  );
  window.history.pushState(null, '', path);
  render(<App authProvider={createAuthProvider({ redirect: vi.fn() })} store={memoryStore()} />);
  await screen.findByRole('heading', { name: 'Automated sending' });
  return { user: userEvent.setup(), fake, section: () => screen.getByRole('region', { name: 'Automated sending' }) };
};

describe('Automated sending on a messaging page', () => {
  it("shows the type's own trigger settings with the shared quiet hours and cap", async () => {
    const { section } = await renderPage('/messaging/notetoself');
    const form = within(section());
    expect(await form.findByRole('switch', { name: 'Send automatically' })).toBeChecked();
    expect(form.getByRole('combobox', { name: 'Day' })).toHaveTextContent('Monday');
    expect(form.getByLabelText('Send at')).toHaveValue('09:00');
    expect(form.getByRole('spinbutton', { name: 'Active in the last (days)' })).toHaveValue(30);
    expect(form.queryByRole('spinbutton', { name: 'Delay (minutes)' })).toBeNull();
    expect(form.getByLabelText('Quiet hours from')).toHaveValue('21:00');
    expect(form.getByLabelText('Quiet hours until')).toHaveValue('08:00');
    expect(form.getByRole('spinbutton', { name: 'Automated pushes per client per day' })).toHaveValue(1);
    expect(form.getByRole('button', { name: 'Save sending settings' })).toBeDisabled();
  });

  it('saves only the changed fields and says so', async () => {
    const { user, fake, section } = await renderPage('/messaging/high-fives');
    const form = within(section());
    const delay = await form.findByRole('spinbutton', { name: 'Delay (minutes)' });
    await user.clear(delay);
    await user.type(delay, '90');
    const milestones = form.getByRole('textbox', { name: 'Milestone classes' });
    await user.clear(milestones);
    await user.type(milestones, '25, 10');
    await user.click(form.getByRole('button', { name: 'Save sending settings' }));
    expect(await screen.findByText('Sending settings saved')).toBeVisible();
    const put = fake.calls.find((c) => c.method === 'PUT' && c.path === 'settings/1');
    expect(put?.body).toEqual({ settings: { delay_minutes: 90, milestones: [10, 25] }, global: {} });
  });

  it('sets the goal and the holdout, and shows the results by week in plain words', async () => {
    const { user, fake, section } = await renderPage('/messaging/high-fives', {
      outcomes: [
        {
          type: 1,
          week: '2026-11-16',
          goal: 'class',
          window_days: 3,
          clients: 120,
          sent: 118,
          delivered: 118,
          opened: 12,
          converted: 30,
          conversion_rate: 30 / 120,
          holdout: { clients: 30, converted: 6, conversion_rate: 6 / 30 },
          lift: { clients: 6, low: -14, high: 26, significant: false, method: 'normal' },
        },
      ],
    });
    const form = within(section());
    await user.click(await form.findByRole('combobox', { name: 'Goal' }));
    await user.click(await screen.findByRole('option', { name: 'a signed-in class' }));
    const holdout = form.getByRole('spinbutton', { name: 'Hold out (%)' });
    await user.clear(holdout);
    await user.type(holdout, '20');
    await user.click(form.getByRole('button', { name: 'Save sending settings' }));
    expect(await screen.findByText('Sending settings saved')).toBeVisible();
    expect(fake.calls.find((c) => c.method === 'PUT' && c.path === 'settings/1')?.body).toEqual({
      settings: { goal: 'class', holdout_percent: 20 },
      global: {},
    });
    const weeks = within(await screen.findByRole('region', { name: 'Did it work? By week' }));
    expect(weeks.getByText('Week of 2026-11-16')).toBeVisible();
    // 30 / 120 = 25 %, 6 / 30 = 20 %
    expect(weeks.getByText('30 of 120 came to a class (25 %) · held out: 6 of 30 (20 %)')).toBeVisible();
    expect(weeks.getByText('Not enough data yet to tell a difference (between -14 and 26 clients).')).toBeVisible();
  });

  it('refuses milestones that are not class numbers before sending anything', async () => {
    const { user, fake, section } = await renderPage('/messaging/high-fives');
    const form = within(section());
    const milestones = await form.findByRole('textbox', { name: 'Milestone classes' });
    await user.clear(milestones);
    await user.type(milestones, '10, ten');
    expect(form.getByText('Enter whole class numbers separated by commas, e.g. 10, 50, 100.')).toBeVisible();
    expect(form.getByRole('button', { name: 'Save sending settings' })).toBeDisabled();
    expect(fake.calls.filter((c) => c.method === 'PUT')).toEqual([]);
  });

  it("shows the server's reason when a save is refused", async () => {
    const { user, section } = await renderPage('/messaging/monday-morning', {
      refuseSettings: {
        message: 'Invalid request: body.global.daily_cap: must be at least 1 pushes',
        errors: [{ path: 'body.global.daily_cap', message: 'must be at least 1 pushes' }],
      },
    });
    const form = within(section());
    const cap = await form.findByRole('spinbutton', { name: 'Automated pushes per client per day' });
    await user.clear(cap);
    await user.type(cap, '3');
    await user.click(form.getByRole('button', { name: 'Save sending settings' }));
    expect(await screen.findByText('The sending settings were not saved: Automated pushes per client per day: must be at least 1 pushes')).toBeVisible();
  });

  it('previews the next run: count and a sample with the filled-in text', async () => {
    const { user, fake, section } = await renderPage('/messaging/monday-morning', {
      preview: {
        from: '2026-11-23T08:29:59.999Z',
        to: '2026-11-23T08:30:00.000Z',
        count: 412,
        blocked: null,
        sample: [
          {
            client_id: 7,
            first_name: 'Ana',
            last_name: 'Lopez',
            push_message_id: 3,
            title: 'Good morning, Ana!',
            message: 'New week, new goals.',
            due_at: '2026-11-23T08:30:00.000Z',
          },
          {
            client_id: 9,
            first_name: null,
            last_name: null,
            push_message_id: 3,
            title: 'Good morning, there!',
            message: 'New week, new goals.',
            due_at: '2026-11-23T08:30:00.000Z',
          },
        ],
      },
    });
    const form = within(section());
    expect(fake.calls.some((c) => c.path === 'preview/4')).toBe(false);
    await user.click(await form.findByRole('button', { name: 'Preview' }));
    expect(await form.findByText(/^412 clients would receive it on /)).toBeVisible();
    const rows = within(form.getByRole('table', { name: 'Preview of the next run' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual(['Ana Lopez', '#9']);
    expect(rows[0]).toHaveTextContent('Good morning, Ana! New week, new goals.');
  });

  it('says why a preview would reach nobody', async () => {
    const { user, section } = await renderPage('/messaging/missed-class', {
      preview: { from: '2026-11-21T12:00:00.000Z', to: '2026-11-23T12:00:00.000Z', count: 0, blocked: 'no_template', sample: [] },
    });
    await user.click(await within(section()).findByRole('button', { name: 'Preview' }));
    expect(await within(section()).findByText('No template of this type is enabled, so nobody would receive it.')).toBeVisible();
  });

  it('lists the last 30 days per template: sent, failed and skipped with reasons', async () => {
    const { section } = await renderPage('/messaging/high-fives', {
      counts: {
        since: '2026-10-23T12:00:00.000Z',
        templates: [
          { push_message_id: 1, title: 'High five, {first_name}!', message: 'Great work.', sent: 120, failed: 2, skipped: { daily_cap: 5, no_token: 9 } },
          { push_message_id: 2, title: 'Crushed it!', message: 'Another one.', sent: 118, failed: 0, skipped: {} },
        ],
        without_template: { sent: 0, failed: 0, skipped: { opted_out: 3 } },
        total: { sent: 238, failed: 2, skipped: { daily_cap: 5, no_token: 9, opted_out: 3 } },
        pending: 4,
      },
    });
    const table = await within(section()).findByRole('table', { name: 'Last 30 days' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      ['High five, {first_name}!', '120', '2', '14 (no device token: 9, daily limit reached: 5)'],
      ['Crushed it!', '118', '0', '0'],
      ['Before a template was chosen', '0', '0', '3 (opted out: 3)'],
      ['All templates', '238', '2', '17 (no device token: 9, daily limit reached: 5, opted out: 3)'],
    ]);
    expect(within(section()).getByText('4 pushes waiting (due later, in quiet hours or retrying).')).toBeVisible();
  });

  it("stores the staff member's device token, then sends a test to it", async () => {
    const { user, fake, section } = await renderPage('/messaging/high-fives');
    const form = within(section());
    const send = await form.findByRole('button', { name: 'Send test to me' });
    expect(send).toBeDisabled();
    await user.type(form.getByRole('textbox', { name: 'Your device token' }), 'my-phone-token');
    await user.click(form.getByRole('button', { name: 'Save token' }));
    expect(await screen.findByText('Device token saved')).toBeVisible();
    await waitFor(() => expect(form.getByRole('button', { name: 'Send test to me' })).toBeEnabled());
    await user.click(form.getByRole('button', { name: 'Send test to me' }));
    expect(await screen.findByText('Test sent to your device: "High five, admin!"')).toBeVisible();
    expect(fake.calls.filter((c) => c.method !== 'GET').map((c) => [c.path, c.body])).toEqual([
      ['device-token', { device_token: 'my-phone-token' }],
      ['test/1', {}],
    ]);
  });
});
