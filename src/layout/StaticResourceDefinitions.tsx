import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { Resource, ResourceDefinitionContext, type ResourceDefinition, type ResourceDefinitions, type ResourceProps } from 'react-admin';

const definitionOf = (props: ResourceProps): ResourceDefinition => Resource.registerResource(props);

const sameDefinition = (a: ResourceDefinition, b: ResourceDefinition) =>
  (Object.keys({ ...a, ...b }) as Array<keyof ResourceDefinition>).every((key) => Object.is(a[key], b[key]));

/**
 * The console's resources known from its first render. react-admin registers each <Resource> in an
 * effect after the screen has rendered, then unregisters and registers them all again when its
 * router re-reads its children: two more renders of the whole screen before a cold page shows its
 * data. The console's resources are fixed (src/areas.ts), so their definitions are here from the
 * start and registering them changes nothing; any other resource registers as in react-admin.
 */
export const StaticResourceDefinitions = ({ resources, children }: { resources: readonly ResourceProps[]; children: ReactNode }) => {
  const known = useMemo(() => Object.fromEntries(resources.map((props) => [props.name, definitionOf(props)])) as ResourceDefinitions, [resources]);
  const [others, setOthers] = useState<ResourceDefinitions>({});
  const isKnown = useCallback((definition: ResourceDefinition) => !!known[definition.name] && sameDefinition(known[definition.name]!, definition), [known]);
  const register = useCallback(
    (definition: ResourceDefinition) => {
      if (!isKnown(definition)) setOthers((previous) => ({ ...previous, [definition.name]: definition }));
    },
    [isKnown],
  );
  const unregister = useCallback(
    (definition: ResourceDefinition) => {
      if (isKnown(definition)) return;
      setOthers((previous) => {
        const { [definition.name]: _removed, ...rest } = previous;
        return rest;
      });
    },
    [isKnown],
  );
  const value = useMemo(() => ({ definitions: { ...known, ...others }, register, unregister }), [known, others, register, unregister]);
  return <ResourceDefinitionContext.Provider value={value}>{children}</ResourceDefinitionContext.Provider>;
};
