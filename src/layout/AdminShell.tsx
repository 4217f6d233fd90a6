import { useState, type ComponentProps, type ReactNode } from 'react';
import { CssBaseline } from '@mui/material';
import type { QueryClient } from '@tanstack/react-query';
import {
  AccessDenied,
  AdminContext,
  CoreAdminUI,
  localStorageStore,
  Resource,
  type AuthProvider,
  type DataProvider,
  type I18nProvider,
  type ResourceProps,
  type Store,
} from 'react-admin';
import type { RaThemeOptions } from 'react-admin';
import { NotFoundPage } from './NotFoundPage';
import { AuthenticationErrorPage } from './raPages';
import { ErrorPage } from './ErrorPage';
import { createQueryClient } from '../providers/queryClient';
import { StaticResourceDefinitions } from './StaticResourceDefinitions';

type CoreProps = ComponentProps<typeof CoreAdminUI>;

export interface AdminShellProps {
  authProvider: AuthProvider;
  /** react-admin's query cache; one made for `authProvider` when not given. */
  queryClient?: QueryClient;
  dataProvider: DataProvider;
  i18nProvider: I18nProvider;
  store?: Store;
  lightTheme: RaThemeOptions;
  darkTheme: RaThemeOptions;
  title: string;
  layout: CoreProps['layout'];
  dashboard: CoreProps['dashboard'];
  loading: CoreProps['loading'];
  notification: () => ReactNode;
  /** The plain CRUD areas' <Resource>s (react-admin asks authProvider.canAccess before each of their views). */
  resources: readonly ResourceProps[];
  /** Custom routes. */
  children: ReactNode;
}

/**
 * react-admin's <Admin> without its defaults we never show. <Admin> (through AdminUI) imports the
 * built-in login form, layout and notification as default props, so they ship even when replaced:
 * about 35 KB of form code in the first download. Signing in happens on the server's page.
 */
export const AdminShell = ({ store, lightTheme, darkTheme, notification: Notification, resources, children, ...props }: AdminShellProps) => {
  const [queryClient] = useState(() => props.queryClient ?? createQueryClient(props.authProvider));
  return (
    <AdminContext
      queryClient={queryClient}
      authProvider={props.authProvider}
      dataProvider={props.dataProvider}
      i18nProvider={props.i18nProvider}
      store={store ?? defaultStore}
      theme={lightTheme}
      darkTheme={darkTheme}
    >
      <CssBaseline enableColorScheme />
      <StaticResourceDefinitions resources={resources}>
        <CoreAdminUI
          title={props.title}
          layout={props.layout}
          dashboard={props.dashboard}
          loading={props.loading}
          requireAuth
          loginPage={false}
          authCallbackPage={false}
          disableTelemetry
          accessDenied={AccessDenied}
          authenticationError={AuthenticationErrorPage}
          catchAll={NotFoundPage}
          error={ErrorPage}
        >
          {children}
          {resources.map((resource) => (
            <Resource key={resource.name} {...resource} />
          ))}
        </CoreAdminUI>
      </StaticResourceDefinitions>
      <Notification />
    </AdminContext>
  );
};

const defaultStore = localStorageStore();
