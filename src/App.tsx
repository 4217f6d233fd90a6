import { useState } from 'react';
import { createBrowserRouter, Route, RouterProvider } from 'react-router-dom';
import { CustomRoutes, type AuthProvider, type DataProvider, type Store } from 'react-admin';
import { AdminShell } from './layout/AdminShell';
import { authProvider as defaultAuthProvider } from './providers/authProvider';
import { dataProvider as defaultDataProvider } from './providers/dataProvider';
import { i18nProvider } from './providers/i18nProvider';
import { en } from './i18n/en';
import { Layout } from './layout/Layout';
import { Notification } from './layout/Notification';
import { darkTheme, lightTheme } from './layout/themes';
import type { AreaRoute } from './layout/routes';
import { Dashboard, dashboardRoutes } from './dashboard';
import { messagingRoutes } from './messaging';
import { clientsRoutes } from './clients';
import { videosRoutes } from './videos';
import { auditRoutes } from './audit';

/** Every screen of spec §2; each area lists its own routes in its index.ts. */
const routes: AreaRoute[] = [...dashboardRoutes, ...messagingRoutes, ...clientsRoutes, ...videosRoutes, ...auditRoutes];

// Spec §1: nothing at all is shown until the authentication check has answered.
const Nothing = () => null;

export interface AppProps {
  /** Injectable for tests; the defaults talk to the real server. */
  authProvider?: AuthProvider;
  dataProvider?: DataProvider;
  store?: Store;
}

const StudioAdmin = ({ authProvider = defaultAuthProvider, dataProvider = defaultDataProvider, store }: AppProps) => (
  <AdminShell
    title={en.app.title}
    authProvider={authProvider}
    dataProvider={dataProvider}
    i18nProvider={i18nProvider}
    store={store}
    loading={Nothing}
    layout={Layout}
    dashboard={Dashboard}
    notification={Notification}
    lightTheme={lightTheme}
    darkTheme={darkTheme}
  >
    <CustomRoutes>
      {routes.map(({ path, element }) => (
        <Route key={path} path={path} element={element} />
      ))}
    </CustomRoutes>
  </AdminShell>
);

// Real paths (/clients/new, not /#/clients/new) as spec §2 lists them; the server answers
// unknown GETs with index.html. A data router keeps react-admin's unsaved-changes guard working.
const basename = import.meta.env.BASE_URL.replace(/\/+$/, '') || '/';

export const App = (props: AppProps) => {
  const [router] = useState(() =>
    createBrowserRouter([{ path: '*', element: <StudioAdmin {...props} /> }], { basename }),
  );
  return <RouterProvider router={router} />;
};
