import { useState } from 'react';
import { createBrowserRouter, matchPath, Route, RouterProvider } from 'react-router-dom';
import { CustomRoutes, type AuthProvider, type DataProvider, type Store } from 'react-admin';
import { AdminShell } from './layout/AdminShell';
import { allows, authProvider as defaultAuthProvider, readPageSession } from './providers/authProvider';
import { createDataProvider } from './providers/dataProvider';
import { httpClient, withEarlyGets } from './providers/http';
import { i18nProvider } from './providers/i18nProvider';
import { createQueryClient } from './providers/queryClient';
import { en } from './i18n/en';
import { Layout } from './layout/Layout';
import { RouteErrorScreen } from './layout/ErrorPage';
import { Notification } from './layout/Notification';
import { darkTheme, lightTheme } from './layout/themes';
import { Dashboard, DASHBOARD_PATH } from './dashboard';
import { consoleAreas } from './areas';
import { ConsoleAreasContext } from './layout/areasContext';

/**
 * Every screen of the spec and ours: each area registers its pages and resource in src/areas.ts, read
 * here only and handed down, to the layout (ConsoleAreasContext) and the dataProvider (its argument).
 */
const areas = consoleAreas();
const routes = areas.flatMap((area) => area.routes ?? []);
const resources = areas.flatMap((area) => (area.resource ? [area.resource] : []));

// Nothing at all is shown until the authentication check has answered.
const Nothing = () => null;

export interface AppProps {
  /** Injectable for tests; the defaults talk to the real server. */
  authProvider?: AuthProvider;
  dataProvider?: DataProvider;
  store?: Store;
}

const StudioAdmin = ({ authProvider = defaultAuthProvider, dataProvider, store }: AppProps & { dataProvider: DataProvider }) => (
  <ConsoleAreasContext.Provider value={areas}>
    <AdminShell
      title={en.app.title}
      authProvider={authProvider}
      // The default console's, which preloadOpeningPage may already have put the page's first read in.
      queryClient={authProvider === defaultAuthProvider ? consoleQueryClient : undefined}
      dataProvider={dataProvider}
      i18nProvider={i18nProvider}
      store={store}
      loading={Nothing}
      layout={Layout}
      dashboard={Dashboard}
      notification={Notification}
      lightTheme={lightTheme}
      darkTheme={darkTheme}
      resources={resources}
    >
      <CustomRoutes>
        {routes.map(({ path, element }) => (
          <Route key={path} path={path} element={element} />
        ))}
      </CustomRoutes>
    </AdminShell>
  </ConsoleAreasContext.Provider>
);

/** The default dataProvider's requests take the answers preloadOpeningPage started early. */
const earlyGets = withEarlyGets(httpClient);
const consoleQueryClient = createQueryClient(defaultAuthProvider);

// Real paths (/clients/new, not /#/clients/new) as the spec lists them; the server answers
// unknown GETs with index.html. A data router keeps react-admin's unsaved-changes guard working.
const basename = import.meta.env.BASE_URL.replace(/\/+$/, '') || '/';

/** How long the first render waits, past the page's code, for the page's first answer. */
const FIRST_DATA_WAIT_MS = 300;

/**
 * The page the console opens on starts fetching its code now, beside the authentication check,
 * instead of after it (react-admin renders no route before that check has answered). Settles
 * when that code is here (at once when the page has none of its own) and then its first answer,
 * or `firstDataWaitMs` after the code, whichever comes first.
 */
export const preloadOpeningPage = (pathname: string, firstDataWaitMs = FIRST_DATA_WAIT_MS): Promise<unknown> => {
  const path = basename === '/' ? pathname : pathname.slice(basename.length) || '/';
  // '/' is react-admin's dashboard route, which is also '/dashboard'.
  const route = routes.find((candidate) => matchPath(candidate.path, path === '/' ? DASHBOARD_PATH : path));
  // Its first request too, kept for the page (a failure is the page's to report when it asks), when
  // the page says who is signed in: nobody, or a role that may not use the page, asks nothing.
  const session = route?.prefetch ? readPageSession(document) : null;
  let firstData: Promise<unknown> = Promise.resolve();
  if (route?.prefetch && session?.isAuthenticated) {
    const can = (resource: string, action: string) => allows(session.user, resource, action);
    firstData = Promise.resolve(route.prefetch(createDataProvider(areas, earlyGets.recorder), can, consoleQueryClient)).catch(() => undefined);
  }
  const preload = route?.preload;
  // A failed download is the page's own lazy() to report, when it asks again.
  const code = preload ? preload().catch(() => undefined) : Promise.resolve();
  // The first render is the whole screen and takes a while on a slow machine: begun before the
  // page's first answer is here, it cannot show it, and the rows wait for a second render of the
  // page. The answer usually follows the code within milliseconds; a slow one is not waited for.
  return code.then(() => Promise.race([firstData, new Promise((resolve) => setTimeout(resolve, firstDataWaitMs))]));
};

export const App = (props: AppProps) => {
  const [router] = useState(() =>
    createBrowserRouter(
      [
        {
          path: '*',
          errorElement: <RouteErrorScreen />,
          element: <StudioAdmin {...props} dataProvider={props.dataProvider ?? createDataProvider(areas, earlyGets.http)} />,
        },
      ],
      {
        basename,
      },
    ),
  );
  return <RouterProvider router={router} />;
};
