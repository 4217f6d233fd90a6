import { Component, Suspense, type ErrorInfo, type ReactNode } from 'react';
import { styled, useThemeProps } from '@mui/material/styles';
import { SkipNavigationButton } from 'react-admin';
import { AfterThePage } from './AfterThePage';
import { AppBar } from './AppBar';
import { Menu } from './Menu';
import { ErrorPage } from './ErrorPage';
import { OutageBanner } from './OutageBanner';
import { PageLoading } from './PageLoading';
import { retryFailedChunks } from '../common/chunks';
import { useLocation } from 'react-router-dom';
import { Sidebar } from './Sidebar';
import { IdentityDialogs } from '../twoStep/IdentityDialogs';

interface BoundaryState {
  error?: Error;
  info?: ErrorInfo;
}

/** The page's error boundary (react-admin's Layout uses react-error-boundary for the same). */
class PageErrorBoundary extends Component<{ children: ReactNode; page: string }, BoundaryState> {
  state: BoundaryState = {};
  static getDerivedStateFromError(error: Error): BoundaryState {
    return { error };
  }
  componentDidCatch(_error: Error, info: ErrorInfo) {
    this.setState({ info });
  }
  // Another page is another try: its code, or the failed one's, is fetched again.
  componentDidUpdate(previous: { page: string }) {
    if (previous.page !== this.props.page && this.state.error) {
      retryFailedChunks();
      this.reset();
    }
  }
  reset = () => this.setState({ error: undefined, info: undefined });
  render() {
    const { error, info } = this.state;
    if (!error) return this.props.children;
    return <ErrorPage error={error} errorInfo={info} resetErrorBoundary={this.reset} />;
  }
}

/**
 * react-admin's <Layout> (same elements, classes and styles), without what it imports for defaults
 * we replace or never show: its AppBar's user and language menus, its Menu, the preferences
 * Inspector and the error page (with the configurable title's editor behind it): about 10 KB of the
 * first download. The AppBar is always on: a hiding one would shift the sidebar up and unpin its footer.
 */
export const Layout = (inProps: { children: ReactNode }) => {
  const { children } = useThemeProps({ props: inProps, name: PREFIX });
  const { pathname } = useLocation();
  return (
    <Core
      className="layout"
      sx={{
        // react-admin's root is min-width: fit-content, so one wide table widened every part of the page
        minWidth: 0,
        [`& .${LayoutClasses.appFrame}, & .${LayoutClasses.contentWithSidebar}`]: { minWidth: 0 },
        // minWidth 0: a wide table scrolls inside its page instead of stretching the page past a phone's screen.
        [`& .${LayoutClasses.content}`]: { px: { xs: 2, md: 3 }, pb: 3, minWidth: 0 },
      }}
    >
      <SkipNavigationButton />
      <div className={LayoutClasses.appFrame}>
        <AppBar />
        <main className={LayoutClasses.contentWithSidebar}>
          <Sidebar>
            <AfterThePage>
              <Menu />
            </AfterThePage>
          </Sidebar>
          <div id="main-content" className={LayoutClasses.content}>
            <OutageBanner />
            <PageErrorBoundary page={pathname}>
              <Suspense fallback={<PageLoading />}>{children}</Suspense>
            </PageErrorBoundary>
          </div>
        </main>
      </div>
      <IdentityDialogs />
    </Core>
  );
};

const PREFIX = 'RaLayout';
const LayoutClasses = {
  appFrame: `${PREFIX}-appFrame`,
  contentWithSidebar: `${PREFIX}-contentWithSidebar`,
  content: `${PREFIX}-content`,
};

const Core = styled('div', { name: PREFIX, overridesResolver: (_props, styles) => styles.root })(({ theme }) => ({
  display: 'flex',
  flexDirection: 'column',
  zIndex: 1,
  minHeight: '100vh',
  backgroundColor: (theme.vars || theme).palette.background.default,
  position: 'relative',
  minWidth: 'fit-content',
  width: '100%',
  [`& .${LayoutClasses.appFrame}`]: {
    display: 'flex',
    flexDirection: 'column',
    flexGrow: 1,
    marginTop: theme.spacing(6),
    [theme.breakpoints.down('sm')]: { marginTop: theme.spacing(7) },
  },
  [`& .${LayoutClasses.contentWithSidebar}`]: {
    display: 'flex',
    flexGrow: 1,
    transition: theme.transitions.create('margin', {
      easing: theme.transitions.easing.easeOut,
      duration: theme.transitions.duration.enteringScreen,
    }),
  },
  [`& .${LayoutClasses.content}`]: {
    backgroundColor: (theme.vars || theme).palette.background.default,
    zIndex: 2,
    display: 'flex',
    flexDirection: 'column',
    flexGrow: 1,
    flexBasis: 0,
    padding: 0,
    [theme.breakpoints.up('xs')]: { paddingRight: theme.spacing(1), paddingLeft: theme.spacing(1) },
  },
}));
