import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { memoryStore } from 'react-admin';
import type { StatsResponse, StatsTrendsResponse } from '../../../contract/stats';
import { App } from '../../../src/App';
import { createAuthProvider } from '../../../src/providers/authProvider';
import { deferred, jsonAnswer, server, signedIn } from '../../support/msw';

const LOADED: StatsResponse = { errors: [], result: { subscribers: 523118, daily_plays: 250012, most_popular: 'Yoga' } };

const TRENDS: StatsTrendsResponse = {
  daily_plays: Array.from({ length: 30 }, (_, i) => ({
    day: new Date(Date.UTC(2026, 9, 23 + i)).toISOString().slice(0, 10),
    plays: 240_000 + i * 700,
  })),
  paid_subscribers: Array.from({ length: 13 }, (_, i) => ({
    at: new Date(Date.UTC(2026, 7, 30 + i * 7, 12)).toISOString(),
    subscribers: 480_000 + i * 3500,
  })),
};

const CARDS = [
  { label: 'Total VOD Subscribers', placeholder: '71,887', loaded: '523,118', href: '/clients/all' },
  { label: 'Avg. Video Plays (Daily)', placeholder: '150', loaded: '250,012', href: '/videos' },
  { label: 'Most Popular Category', placeholder: 'Warm-up', loaded: 'Yoga', href: '/videos' },
];

const card = (label: string) => screen.getByRole('heading', { name: label }).closest<HTMLElement>('[data-stat-state]')!;

const renderDashboard = (stats: Parameters<typeof server.use>[0], width = 1440) => {
  window.innerWidth = width;
  server.use(signedIn(), stats, jsonAnswer('/api/admin/v1/stats/trends', TRENDS));
  window.history.pushState(null, '', '/');
  render(<App authProvider={createAuthProvider({ redirect: vi.fn() })} store={memoryStore()} />);
};

/** grid-template-columns of an element's own class rules: outside any media query, and per media query. */
const gridColumns = (element: HTMLElement) => {
  const found: Record<string, string> = {};
  const visit = (rules: CSSRuleList, media: string) => {
    for (const rule of Array.from(rules)) {
      if (rule instanceof CSSMediaRule) visit(rule.cssRules, rule.media.mediaText);
      // Emotion (MUI's sx) writes one plain class selector per style block.
      else if (rule instanceof CSSStyleRule && /^\.[\w-]+$/.test(rule.selectorText) && element.classList.contains(rule.selectorText.slice(1))) {
        const columns = rule.style.getPropertyValue('grid-template-columns');
        if (columns) found[media] = columns;
      }
    }
  };
  for (const sheet of Array.from(document.styleSheets)) visit(sheet.cssRules, '');
  return found;
};

describe('Dashboard', () => {
  it('shows the three cards loading, with the placeholders and a spinner each, until stats arrive', async () => {
    const release = deferred();
    renderDashboard(
      http.get('*/api/stats/v1', async () => {
        await release.promise;
        return HttpResponse.json(LOADED);
      }),
    );
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });

    for (const { label, placeholder } of CARDS) {
      expect(card(label)).toHaveAttribute('data-stat-state', 'loading');
      expect(within(card(label)).getByText(placeholder)).toBeVisible();
      expect(within(card(label)).getByRole('progressbar', { name: 'Loading' })).toBeVisible();
    }

    release.resolve();
    await waitFor(() => expect(card('Most Popular Category')).toHaveAttribute('data-stat-state', 'loaded'));
  });

  it('turns loaded with the figures, thousands separators, no spinners, and links to the lists behind them', async () => {
    renderDashboard(jsonAnswer('/api/stats/v1', LOADED));
    await waitFor(() => expect(card('Total VOD Subscribers')).toHaveAttribute('data-stat-state', 'loaded'));

    for (const { label, loaded, placeholder, href } of CARDS) {
      expect(within(card(label)).getByText(loaded)).toBeVisible();
      expect(within(card(label)).queryByText(placeholder)).toBeNull();
      expect(within(card(label)).getByRole('link')).toHaveAttribute('href', href);
    }
    expect(screen.queryAllByRole('progressbar', { name: 'Loading' })).toHaveLength(0);
    expect(screen.getByText(/^Last updated \d\d:\d\d:\d\d/)).toBeVisible();
  });

  it('stays loading with the placeholders when the answer lists errors (spec §4), and says why', async () => {
    const withErrors: StatsResponse = {
      errors: [{ figure: 'most_popular', message: 'No video was played in the last 30 full days, so no category is the most popular.' }],
      result: { subscribers: 523118, daily_plays: 0, most_popular: null },
    };
    renderDashboard(jsonAnswer('/api/stats/v1', withErrors));
    await screen.findByText(/Some figures are not available yet: No video was played/);

    for (const { label, placeholder, loaded } of CARDS) {
      expect(card(label)).toHaveAttribute('data-stat-state', 'loading');
      expect(within(card(label)).getByText(placeholder)).toBeVisible();
      expect(within(card(label)).getByRole('progressbar', { name: 'Loading' })).toBeVisible();
      expect(within(card(label)).queryByText(loaded)).toBeNull();
    }
  });

  it('stays loading when the stats call fails', async () => {
    renderDashboard(jsonAnswer('/api/stats/v1', { message: 'Internal server error' }, 500));
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    await screen.findByRole('img', { name: /Daily video plays, last 30 days/ });
    for (const { label, placeholder } of CARDS) {
      expect(card(label)).toHaveAttribute('data-stat-state', 'loading');
      expect(within(card(label)).getByText(placeholder)).toBeVisible();
    }
  });

  it('draws the trend as two described charts with their data as tables', async () => {
    renderDashboard(jsonAnswer('/api/stats/v1', LOADED));
    const plays = await screen.findByRole('img', { name: /Daily video plays, last 30 days/ });
    expect(plays).toHaveAccessibleName(expect.stringContaining('the busiest day was Nov 21 with 260,300'));
    expect(plays.querySelectorAll('rect')).toHaveLength(30);
    const subscribers = screen.getByRole('img', { name: /Paid subscribers, last 12 weeks/ });
    expect(subscribers).toHaveAccessibleName(expect.stringContaining('480,000 paid subscribers on Aug 30, 522,000 now.'));

    const table = screen.getByRole('table', { name: 'Paid subscribers, last 12 weeks' });
    expect(within(table).getAllByRole('row')).toHaveLength(14);
    expect(within(table).getByRole('row', { name: 'Nov 22 522,000' })).toBeInTheDocument();
  });

  it('lays the cards out in one column on small screens and three from the medium breakpoint (900 px)', async () => {
    renderDashboard(jsonAnswer('/api/stats/v1', LOADED), 390);
    await waitFor(() => expect(card('Total VOD Subscribers')).toHaveAttribute('data-stat-state', 'loaded'));
    const grid = card('Total VOD Subscribers').parentElement!;
    expect(within(grid).getAllByRole('heading').map((h) => h.textContent)).toEqual(CARDS.map((c) => c.label));
    expect(gridColumns(grid)).toEqual({ '(min-width:0px)': '1fr', '(min-width:900px)': 'repeat(3, 1fr)' });
  });
});
