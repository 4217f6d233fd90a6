import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RunningOverride } from '@contract/overrides';
import { localDay } from '../../src/clients/actions/overrideRules';
import { fakeClientProfileServer } from '../support/clientProfileMsw';
import { server } from '../support/msw';
import { renderApp } from './helpers/renderApp';
import { aClient } from './helpers/clientData';

const DAY = 86_400_000;
const LEVEL_MODAL = 'Update Client VOD Access Level';
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const row = (id: number, first_name: string, days: number, reason: string | null): RunningOverride => ({
  id,
  first_name,
  last_name: 'Park',
  email_address: `${first_name.toLowerCase()}@studio.test`,
  level: 3,
  level_name: 'VOD | PREMIUM',
  starts_at: inDays(-1),
  ends_at: inDays(days),
  granted_by: 'coach@studio.test',
  reason,
});

async function openClient(client = aClient({ _id: 7 }), overrides: RunningOverride[] = []) {
  const fake = fakeClientProfileServer({ client, overrides });
  server.use(...fake.handlers);
  const view = renderApp(`/client/${client._id}`);
  await screen.findByLabelText('Client Details');
  await screen.findByRole('button', { name: 'Update VOD Access Level' });
  return { ...view, calls: fake.calls };
}

describe('overrides staff manage', () => {
  afterEach(() => vi.restoreAllMocks());

  it('grants until a custom date with a reason, then offers Extend and End now where the override is shown', async () => {
    const { user, calls } = await openClient();
    expect(screen.queryByRole('button', { name: 'End now' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Update VOD Access Level' }));
    const modal = await screen.findByRole('dialog', { name: LEVEL_MODAL });
    await user.click(within(modal).getByRole('combobox', { name: 'New VOD Access Level' }));
    await user.click(await screen.findByRole('option', { name: 'VOD | PREMIUM' }));
    await user.click(within(modal).getByRole('combobox', { name: 'Override for' }));
    await user.click(await screen.findByRole('option', { name: 'Until a date…' }));
    // Beyond the server's 365 days: Save refuses and says which days are allowed.
    const dateField = within(modal).getByLabelText('End date');
    fireEvent.change(dateField, { target: { value: localDay(new Date(Date.now() + 400 * DAY)) } });
    await user.click(within(modal).getByRole('button', { name: 'Save' }));
    expect(within(modal).getByText(/Choose a date from/)).toBeVisible();
    expect(calls.grants).toEqual([]);

    fireEvent.change(dateField, { target: { value: localDay(new Date(Date.now() + 60 * DAY)) } });
    await user.type(within(modal).getByRole('textbox', { name: 'Reason (optional)' }), 'Injury: free month');
    expect(within(modal).getByRole('alert')).toHaveTextContent('Warning: Client will have new access level until');
    await user.click(within(modal).getByRole('button', { name: 'Save' }));
    expect(await within(modal).findByRole('status')).toHaveTextContent('Saved');
    expect(calls.grants).toHaveLength(1);
    const grant = calls.grants[0] as { adminOverrideDate: string; reason: string; new_vod_access_level: number };
    expect(grant).toMatchObject({ client_id: 7, new_vod_access_level: 3, reason: 'Injury: free month' });
    expect(Math.round((Date.parse(grant.adminOverrideDate) - Date.now()) / DAY)).toBe(60);

    // The page now shows the override, with its two actions.
    await user.click(await screen.findByRole('button', { name: 'End now' }));
    const confirm = await screen.findByRole('dialog', { name: 'End the override now?' });
    await user.click(within(confirm).getByRole('button', { name: 'End now' }));
    expect(await screen.findByText('Override ended')).toBeVisible();
    expect(calls.ends).toEqual([7]);
    await waitFor(() => expect(screen.queryByRole('note')).toBeNull());
    expect(screen.getByText('VOD | BASIC', { selector: '[data-field="vod_access_level"]' })).toBeVisible();
  });

  it('extends a running override: the same level, a day after its end at the earliest', async () => {
    const end = inDays(10);
    const { user, calls } = await openClient(aClient({ _id: 7, vod_access_level: 3, name: 'VOD | PREMIUM', admin_updated_expiration: end }));
    await user.click(screen.getByRole('button', { name: 'Extend' }));
    const modal = await screen.findByRole('dialog', { name: 'Extend the access level override' });
    expect(within(modal).queryByRole('combobox', { name: 'New VOD Access Level' })).toBeNull();
    const dateField = within(modal).getByLabelText('End date');
    expect(dateField).toHaveAttribute('min', localDay(new Date(Date.parse(end) + DAY)));
    fireEvent.change(dateField, { target: { value: localDay(new Date(Date.now() + 30 * DAY)) } });
    await user.click(within(modal).getByRole('button', { name: 'Extend' }));
    expect(await within(modal).findByRole('status')).toHaveTextContent('Saved');
    expect(calls.grants[0]).toMatchObject({ client_id: 7, new_vod_access_level: 3 });
    expect(calls.grants[0]).not.toHaveProperty('reason');
  });

  it('lists the running overrides under Clients, and those ending within 7 days', async () => {
    const fake = fakeClientProfileServer({ client: aClient({ _id: 7 }), overrides: [row(7, 'Kim', 3, 'Injury'), row(8, 'Lee', 90, null)] });
    server.use(...fake.handlers);
    const { user } = renderApp('/overrides');
    expect(await screen.findByRole('heading', { name: 'Overrides', level: 1 })).toBeVisible();
    expect(await screen.findByRole('link', { name: 'Lee Park' })).toHaveAttribute('href', '/client/8');
    expect(screen.getByText('Injury')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Ending within 7 days' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Lee Park' })).toBeNull());
    expect(screen.getByRole('link', { name: 'Kim Park' })).toBeVisible();
    expect(JSON.parse(fake.calls.overrideQueries.at(-1)!.get('filter')!)).toEqual({ ending_within_days: 7 });
    expect(screen.getByRole('link', { name: 'Overrides' })).toHaveAttribute('href', '/overrides');
  });
});
