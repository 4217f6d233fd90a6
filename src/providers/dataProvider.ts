import { useDataProvider, type DataProvider } from 'react-admin';
import { httpClient, type HttpClient } from './http';
import { withIdentityCheck } from './identityCheck';
import { crudMethodNames, type CrudMethodName, type DataModule, type NamedMethods } from './dataModule';
import type { ConsoleArea } from '../layout/area';
// Its type only (erased when compiled): the areas import this module, so it takes the registry as an argument.
import type { consoleAreas } from '../areas';

/** Each area keeps its endpoints in `src/<area>/<area>Data.ts` (a DataModuleFactory), listed in src/areas.ts. */
const areaModules = (areas: readonly ConsoleArea[], http: HttpClient) => areas.flatMap((area) => area.data.map((factory) => factory(http)));

type AreaModules = ReturnType<ReturnType<typeof consoleAreas>[number]['data'][number]>;
type UnionToIntersection<U> = (U extends unknown ? (arg: U) => void : never) extends (arg: infer I) => void ? I : never;
type AreaMethods = UnionToIntersection<NonNullable<AreaModules['methods']>>;

export type ConsoleDataProvider = DataProvider & AreaMethods;

const notSupported = (method: CrudMethodName) => (resource: string) =>
  Promise.reject(new Error(`dataProvider.${method}("${resource}") is not supported: no area implements it yet`));

/** Routes every CRUD call to the area owning the resource; merges the areas' named methods. */
export const composeDataProvider = (modules: readonly DataModule[]): DataProvider => {
  const owners = new Map<string, DataModule>();
  const methods: NamedMethods = {};
  for (const module of modules) {
    for (const resource of Object.keys(module.resources ?? {})) {
      if (owners.has(resource)) throw new Error(`Two data modules claim the resource "${resource}"`);
      owners.set(resource, module);
    }
    for (const [name, method] of Object.entries(module.methods ?? {})) {
      if (name in methods || (crudMethodNames as string[]).includes(name)) {
        throw new Error(`Data method "${name}" is defined twice`);
      }
      methods[name] = method;
    }
  }

  const crud = Object.fromEntries(
    crudMethodNames.map((name) => [
      name,
      (resource: string, params: unknown) => {
        const method = owners.get(resource)?.resources?.[resource]?.[name] as ((resource: string, params: unknown) => Promise<unknown>) | undefined;
        return method ? method(resource, params) : notSupported(name)(resource);
      },
    ]),
  );

  return { ...crud, ...methods } as DataProvider;
};

/**
 * The console's dataProvider over the given areas' data modules (App.tsx passes src/areas.ts's).
 * A sensitive call the server refuses for want of a recent identity check is asked about and sent again.
 */
export const createDataProvider = (areas: ReturnType<typeof consoleAreas>, http: HttpClient = httpClient): ConsoleDataProvider =>
  composeDataProvider(areaModules(areas, withIdentityCheck(http))) as ConsoleDataProvider;

/** Typed access to the named methods from components (always call them through TanStack Query). */
export const useConsoleDataProvider = () => useDataProvider<ConsoleDataProvider>();
