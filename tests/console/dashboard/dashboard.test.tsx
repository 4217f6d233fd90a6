import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { memoryStore } from 'react-admin';
import type { StatsResponse, StatsTrendsResponse } from '@contract/stats';
import { App, preloadOpeningPage } from '../../../src/App';
import { SESSION_STATE_ELEMENT_ID } from '@contract/pageState';
import { createAuthProvider } from '../../../src/providers/authProvider';
import { categoryVideosPath, PAID_CLIENTS_PATH, VIDEO_PLAYS_PATH } from '../../../src/dashboard/statsRules';
import { deferred, jsonAnswer, server, signedIn, testUser } from '../../support/msw';

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
  { label: 'Total VOD Subscribers', placeholder: '71,887', loaded: '523,118', href: PAID_CLIENTS_PATH },
  { label: 'Avg. Video Plays (Daily)', placeholder: '150', loaded: '250,012', href: VIDEO_PLAYS_PATH },
  { label: 'Most Popular Category', placeholder: 'Warm-up', loaded: 'Yoga', href: categoryVideosPath(4) },
];

const card = (label: string) => screen.getByRole('heading', { name: label }).closest<HTMLElement>('[data-stat-state]')!;

const dashboardServer = (stats: Parameters<typeof server.use>[0]) =>
  server.use(
    signedIn(),
    stats,
    jsonAnswer('/api/admin/v1/stats/trends', TRENDS),
    // The most popular category's card opens that category's videos.
    http.get('*/api/admin/v1/video-categories', () =>
      HttpResponse.json(
        [
          { id: 3, name: 'HIIT' },
          { id: 4, name: 'Yoga' },
        ],
        { headers: { 'content-range': 'video-categories 0-1/2' } },
      ),
    ),
  );

const renderDashboard = (stats: Parameters<typeof server.use>[0], width = 1440) => {
  window.innerWidth = width;
  dashboardServer(stats);
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
      await waitFor(() => expect(within(card(label)).getByRole('link')).toHaveAttribute('href', href));
    }
    expect(screen.queryAllByRole('progressbar', { name: 'Loading' })).toHaveLength(0);
    expect(screen.getByText(/^Last updated \d\d:\d\d:\d\d/)).toBeVisible();
  });

  it('says which figure could not be computed, and why, when the answer lists errors; the others show', async () => {
    const withErrors: StatsResponse = {
      errors: [{ figure: 'most_popular', message: 'No video was played in the last 30 full days, so no category is the most popular.' }],
      result: { subscribers: 523118, daily_plays: 0, most_popular: null },
    };
    renderDashboard(jsonAnswer('/api/stats/v1', withErrors));
    await waitFor(() => expect(card('Most Popular Category')).toHaveAttribute('data-stat-state', 'failed'));
    const popular = card('Most Popular Category');
    expect(within(popular).getByText('Could not be computed')).toBeVisible();
    expect(within(popular).getByText(/No video was played in the last 30 full days/)).toBeVisible();
    expect(within(popular).queryByText('Warm-up')).toBeNull();
    expect(card('Total VOD Subscribers')).toHaveAttribute('data-stat-state', 'loaded');
    expect(within(card('Total VOD Subscribers')).getByText('523,118')).toBeVisible();
    expect(within(card('Avg. Video Plays (Daily)')).getByText('0')).toBeVisible();
    expect(screen.queryAllByRole('progressbar', { name: 'Loading' })).toHaveLength(0);
  });

  it('says the figures could not be computed once the stats call fails, without spinners or placeholders, and tries again', async () => {
    let fail = true;
    renderDashboard(
      http.get('*/api/stats/v1', () => (fail ? HttpResponse.json({ message: 'Internal server error' }, { status: 500 }) : HttpResponse.json(LOADED))),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The figures could not be computed: Internal server error');
    for (const { label, placeholder } of CARDS) {
      expect(card(label)).toHaveAttribute('data-stat-state', 'failed');
      expect(within(card(label)).getByText('Could not be computed')).toBeVisible();
      expect(within(card(label)).queryByText(placeholder)).toBeNull();
    }
    expect(screen.queryAllByRole('progressbar', { name: 'Loading' })).toHaveLength(0);

    fail = false;
    const user = userEvent.setup();
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(card('Total VOD Subscribers')).toHaveAttribute('data-stat-state', 'loaded'));
    expect(within(card('Total VOD Subscribers')).getByText('523,118')).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('draws the trend as two described charts with their data as tables', async () => {
    renderDashboard(jsonAnswer('/api/stats/v1', LOADED));
    const plays = await screen.findByRole('img', { name: /Daily video plays, last 30 days/ });
    expect(plays).toHaveAccessibleName(expect.stringContaining('the busiest day was Nov 21 with 260,300'));
    expect(plays.querySelectorAll('rect')).toHaveLength(30);
    const subscribers = screen.getByRole('img', { name: /Paid subscribers, last 12 weeks/ });
    expect(subscribers).toHaveAccessibleName(expect.stringContaining('480,000 paid subscribers on Aug 30, 522,000 now.'));

    // The average's label sits above the plot (y < 0 in plot coordinates), where no bar reaches.
    const average = Array.from(plays.querySelectorAll('text')).find((text) => text.textContent?.startsWith('Average'))!;
    expect(Number(average.getAttribute('y'))).toBeLessThan(0);
    expect(Math.min(...Array.from(plays.querySelectorAll('rect')).map((bar) => Number(bar.getAttribute('y'))))).toBeGreaterThanOrEqual(0);
    // Date ticks a week apart, the newest day labelled.
    const ticks = Array.from(plays.querySelectorAll('text')).filter((text) => /^[A-Z][a-z]{2} \d+$/.test(text.textContent ?? ''));
    expect(ticks.map((tick) => tick.textContent)).toEqual(['Oct 24', 'Oct 31', 'Nov 7', 'Nov 14', 'Nov 21']);
    const xs = ticks.map((tick) => Number(tick.getAttribute('x')));
    expect(new Set(xs.slice(1).map((x, i) => Math.round(x - xs[i]!))).size).toBe(1);

    const table = screen.getByRole('table', { name: 'Paid subscribers, last 12 weeks' });
    expect(within(table).getAllByRole('row')).toHaveLength(14);
    expect(within(table).getByRole('row', { name: 'Nov 22 522,000' })).toBeInTheDocument();
  });

  it('lays the cards out in one column on small screens and three from the medium breakpoint (900 px)', async () => {
    renderDashboard(jsonAnswer('/api/stats/v1', LOADED), 390);
    await waitFor(() => expect(card('Total VOD Subscribers')).toHaveAttribute('data-stat-state', 'loaded'));
    const grid = card('Total VOD Subscribers').parentElement!;
    expect(
      within(grid)
        .getAllByRole('heading')
        .map((h) => h.textContent),
    ).toEqual(CARDS.map((c) => c.label));
    expect(gridColumns(grid)).toEqual({ '(min-width:0px)': '1fr', '(min-width:900px)': 'repeat(3, 1fr)' });
  });

  // Opened cold, the dashboard's figures are asked for beside its code, once.
  it('asks for its figures and trend before rendering when the page says who is signed in, and only once', async () => {
    const asked: string[] = [];
    server.events.on('request:start', ({ request }) => void asked.push(new URL(request.url).pathname));
    const element = Object.assign(document.createElement('script'), { type: 'application/json', id: SESSION_STATE_ELEMENT_ID });
    element.textContent = JSON.stringify({ isAuthenticated: true, user: { ...testUser, role: 'front_desk', permissions: ['dashboard.read', 'clients.read'] } });
    document.head.append(element);
    try {
      dashboardServer(jsonAnswer('/api/stats/v1', LOADED));
      window.history.pushState(null, '', '/');
      await preloadOpeningPage('/');
      await waitFor(() => expect(asked).toEqual(expect.arrayContaining(['/api/stats/v1', '/api/admin/v1/stats/trends'])));

      render(<App authProvider={createAuthProvider({ redirect: vi.fn() })} store={memoryStore()} />);
      await waitFor(() => expect(card('Total VOD Subscribers')).toHaveAttribute('data-stat-state', 'loaded'));
      expect(await screen.findByRole('img', { name: /Daily video plays, last 30 days/ })).toBeInTheDocument();
      expect(asked.filter((path) => path === '/api/stats/v1')).toHaveLength(1);
      expect(asked.filter((path) => path === '/api/admin/v1/stats/trends')).toHaveLength(1);
    } finally {
      element.remove();
      server.events.removeAllListeners();
    }
  });
});
