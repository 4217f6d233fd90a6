import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import MuiTooltip, { type TooltipProps } from '@mui/material/Tooltip';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The build puts src/common/LazyTooltip.tsx in the place of MUI's Tooltip (vite.config.ts); here it
// is imported as itself, afresh for each test, so MUI's Tooltip is not there yet when a test starts.
let LazyTooltip: typeof import('../../src/common/LazyTooltip').default;
let loadTooltip: () => Promise<void>;
beforeEach(async () => {
  vi.resetModules();
  ({ default: LazyTooltip, loadTooltip } = await import('../../src/common/LazyTooltip'));
});
afterEach(() => vi.restoreAllMocks());

// (MUI marks its clone in development builds only.)
const attributes = (element: Element) =>
  Object.fromEntries(
    [...element.attributes].filter(({ name }) => name !== 'data-mui-internal-clone-element').map((attribute) => [attribute.name, attribute.value]),
  );

describe('LazyTooltip (MUI Tooltip fetched on first use)', () => {
  it('renders its child with the same attributes as a closed MUI Tooltip does', () => {
    const cases: [string, Omit<TooltipProps, 'children' | 'ref'>][] = [
      ['a name from the title', { title: 'Refresh' }],
      [
        'props passed on to the child',
        { title: 'Refresh', className: 'from-tooltip', placement: 'right', enterDelay: 500 } as Omit<TooltipProps, 'children' | 'ref'>,
      ],
      ['a description with describeChild', { title: 'Gone since Monday', describeChild: true }],
      ['no name from an element title', { title: <b>Bold</b> }],
      ['an empty title', { title: '' }],
    ];
    for (const [name, props] of cases) {
      const lazy = render(
        <LazyTooltip {...props}>
          <button className="own" type="button">
            x
          </button>
        </LazyTooltip>,
      );
      const ours = attributes(lazy.container.querySelector('button')!);
      lazy.unmount();
      const real = render(
        <MuiTooltip {...props}>
          <button className="own" type="button">
            x
          </button>
        </MuiTooltip>,
      );
      const theirs = attributes(real.container.querySelector('button')!);
      real.unmount();
      expect(ours, name).toEqual(theirs);
    }
  });

  it('fetches the real Tooltip when its child is pointed at, and opens it for that pointing', async () => {
    const user = userEvent.setup();
    render(
      <LazyTooltip title="Toggle light/dark mode">
        <button type="button">theme</button>
      </LazyTooltip>,
    );
    const button = screen.getByRole('button', { name: 'Toggle light/dark mode' });
    await user.hover(button);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Toggle light/dark mode');
    // The child kept its element all along.
    expect(screen.getByRole('button', { name: 'Toggle light/dark mode' })).toBe(button);
    await user.unhover(button);
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
    await user.hover(button);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Toggle light/dark mode');
  });

  it("keeps the child's element when the real Tooltip arrives: its focus, a press under way and what it anchors stay", async () => {
    const onClick = vi.fn();
    render(
      <>
        <LazyTooltip title="Close menu">
          <button type="button" onClick={onClick}>
            menu
          </button>
        </LazyTooltip>
        <LazyTooltip title="Refresh">
          <button type="button">refresh</button>
        </LazyTooltip>
      </>,
    );
    const refresh = screen.getByRole('button', { name: 'Refresh' });
    const menu = screen.getByRole('button', { name: 'Close menu' });
    act(() => refresh.focus());
    fireEvent.pointerDown(menu, { button: 0, pointerType: 'mouse' });
    await act(() => loadTooltip());
    fireEvent.pointerUp(menu, { button: 0, pointerType: 'mouse' });
    fireEvent.click(menu);
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Refresh' })).toBe(refresh);
    expect(screen.getByRole('button', { name: 'Close menu' })).toBe(menu);
    expect(refresh).toHaveFocus();
    // The real Tooltip works the child's events from now on.
    fireEvent.mouseOver(menu);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Close menu');
  });

  it('fetches and opens a controlled tooltip asked to be open', async () => {
    render(
      <LazyTooltip title="Saved" open>
        <span>field</span>
      </LazyTooltip>,
    );
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Saved');
  });

  it('says nothing to the console on the way (no React or MUI warnings)', async () => {
    const errors = vi.spyOn(console, 'error');
    const warnings = vi.spyOn(console, 'warn');
    const user = userEvent.setup();
    render(
      <LazyTooltip title="Refresh" describeChild placement="right">
        <button type="button">refresh</button>
      </LazyTooltip>,
    );
    await user.hover(screen.getByRole('button'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Refresh');
    expect(screen.getByRole('button')).toHaveAccessibleDescription('Refresh');
    expect(errors).not.toHaveBeenCalled();
    expect(warnings).not.toHaveBeenCalled();
  });
});
