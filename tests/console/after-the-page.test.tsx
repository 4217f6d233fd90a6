import { useLayoutEffect } from 'react';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AfterThePage } from '../../src/layout/AfterThePage';

/** Notes, as its commit lands, whether the deferred part was on the screen with it. */
const PageContent = ({ seen }: { seen: string[] }) => {
  useLayoutEffect(() => {
    seen.push(document.querySelector('nav') ? 'page and menu' : 'page alone');
  }, [seen]);
  return <table aria-label="Clients" />;
};

describe('AfterThePage', () => {
  it('lets the page commit first and adds its children right after (a cold load shows the rows sooner)', async () => {
    const seen: string[] = [];
    render(
      <>
        <AfterThePage>
          <nav aria-label="Main" />
        </AfterThePage>
        <PageContent seen={seen} />
      </>,
    );
    expect(await screen.findByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(seen).toEqual(['page alone']);
    expect(screen.getByRole('table', { name: 'Clients' })).toBeInTheDocument();
  });
});
