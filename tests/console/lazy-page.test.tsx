import { lazy, Suspense, useState } from 'react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { lazyPage } from '../../src/common/lazyPage';

const Counter = ({ label }: { label: string }) => {
  const [count, setCount] = useState(0);
  return <button onClick={() => setCount(count + 1)}>{`${label} ${count}`}</button>;
};
const loadCounter = () => Promise.resolve({ default: Counter });

const inSuspense = (element: React.ReactNode) => <Suspense fallback={<p>Loading page</p>}>{element}</Suspense>;

// React 19 holds a page revealed after its fallback back by up to 300 ms; a page
// whose code the console fetched beside the session check must not show a fallback at all.
describe('lazyPage', () => {
  it('renders a page fetched beforehand at once, where React.lazy shows its fallback first', async () => {
    const PlainLazy = lazy(loadCounter);
    const { Page, preload } = lazyPage(loadCounter);
    await preload();

    const plain = render(inSuspense(<PlainLazy label="plain" />));
    expect(screen.getByText('Loading page')).toBeInTheDocument();
    plain.unmount();

    render(inSuspense(<Page label="preloaded" />));
    expect(screen.queryByText('Loading page')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'preloaded 0' })).toBeInTheDocument();
  });

  it('loads a page not fetched yet through Suspense, and keeps its state when its code arrives meanwhile', async () => {
    let arrive!: () => void;
    const { Page } = lazyPage(() => new Promise<{ default: typeof Counter }>((resolve) => (arrive = () => resolve({ default: Counter }))));
    const Parent = () => {
      const [, rerender] = useState(0);
      return (
        <>
          <button onClick={() => rerender((n) => n + 1)}>render again</button>
          {inSuspense(<Page label="late" />)}
        </>
      );
    };
    render(<Parent />);
    expect(screen.getByText('Loading page')).toBeInTheDocument();
    await act(async () => arrive());
    fireEvent.click(await screen.findByRole('button', { name: 'late 0' }));
    fireEvent.click(screen.getByRole('button', { name: 'render again' }));
    // The parent's new render must not swap the page for another instance (its count would reset).
    expect(screen.getByRole('button', { name: 'late 1' })).toBeInTheDocument();
  });
});
