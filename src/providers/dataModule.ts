import type { DataProvider } from 'react-admin';
import type { HttpClient } from './http';

/** The resource-based methods react-admin's hooks (useGetList, useUpdate, ...) call. */
export type CrudMethods = Pick<
  DataProvider,
  'getList' | 'getOne' | 'getMany' | 'getManyReference' | 'create' | 'update' | 'updateMany' | 'delete' | 'deleteMany'
>;
export type CrudMethodName = keyof CrudMethods;

// `any` here mirrors DataProvider's own index signature: each area types its methods precisely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type NamedMethods = Record<string, (...args: any[]) => Promise<unknown>>;

/**
 * What one area (videos, clients, messaging, dashboard, ...) contributes to the dataProvider:
 * CRUD methods for the resources it owns, and named calls for endpoints that are not CRUD.
 */
export interface DataModule<M extends NamedMethods = NamedMethods> {
  resources?: Record<string, Partial<CrudMethods>>;
  methods?: M;
}

/** Areas export a factory so the HTTP client (and so the server URL) stays injectable. */
export type DataModuleFactory<M extends NamedMethods = NamedMethods> = (http: HttpClient) => DataModule<M>;

export const crudMethodNames: CrudMethodName[] = ['getList', 'getOne', 'getMany', 'getManyReference', 'create', 'update', 'updateMany', 'delete', 'deleteMany'];
