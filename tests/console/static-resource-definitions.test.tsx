import { useEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { Resource, useResourceDefinitionContext, useResourceDefinitions, type ResourceProps } from 'react-admin';
import { StaticResourceDefinitions } from '../../src/layout/StaticResourceDefinitions';

const VideoList = () => null;
const VideoEdit = () => null;
const resources: ResourceProps[] = [
  { name: 'videos', list: VideoList, edit: VideoEdit },
  { name: 'staff', list: VideoList },
];

/** What react-admin's router does with each <Resource> once the screen has rendered. */
const RegistersLikeReactAdmin = ({ props }: { props: ResourceProps[] }) => {
  const { register, unregister } = useResourceDefinitionContext();
  useEffect(() => {
    const definitions = props.map((resource) => Resource.registerResource(resource));
    definitions.forEach(register);
    return () => definitions.forEach(unregister);
  }, [props, register, unregister]);
  return null;
};

const Screen = ({ renders }: { renders: string[][] }) => {
  const definitions = useResourceDefinitions();
  renders.push(Object.keys(definitions).sort());
  return <p>{Object.keys(definitions).sort().join(',')}</p>;
};

// React-admin's registering cost a cold page two more renders of the whole screen.
describe("the console's resource definitions", () => {
  it('are there at the first render, and registering them again renders nothing again', async () => {
    const renders: string[][] = [];
    const { rerender } = render(
      <StaticResourceDefinitions resources={resources}>
        <Screen renders={renders} />
        <RegistersLikeReactAdmin props={resources} />
      </StaticResourceDefinitions>,
    );
    // react-admin re-reads its children and registers them all again.
    rerender(
      <StaticResourceDefinitions resources={resources}>
        <Screen renders={renders} />
        <RegistersLikeReactAdmin props={[...resources]} />
      </StaticResourceDefinitions>,
    );

    expect(renders).toEqual([
      ['staff', 'videos'],
      ['staff', 'videos'],
    ]);
  });

  it('still take a resource the console did not declare, and let it go', async () => {
    const renders: string[][] = [];
    const { rerender } = render(
      <StaticResourceDefinitions resources={resources}>
        <Screen renders={renders} />
        <RegistersLikeReactAdmin props={[{ name: 'extra', list: VideoList }]} />
      </StaticResourceDefinitions>,
    );
    expect(await screen.findByText('extra,staff,videos')).toBeInTheDocument();

    rerender(
      <StaticResourceDefinitions resources={resources}>
        <Screen renders={renders} />
      </StaticResourceDefinitions>,
    );
    expect(await screen.findByText('staff,videos')).toBeInTheDocument();
  });
});
