import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { App, preloadOpeningPage } from './App';

// The server sends a Content-Security-Policy with a per-request nonce (no 'unsafe-inline' styles);
// Vite puts it on this meta tag, and Emotion must stamp it on every <style> it injects.
const nonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce || undefined;
const emotionCache = createCache({ key: 'css', nonce });

// With the session state in the page the first render is the whole screen: rendering before the
// page's code is here would show a fallback, and React holds a page revealed after one back by 300 ms.
void preloadOpeningPage(window.location.pathname).then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <CacheProvider value={emotionCache}>
        <App />
      </CacheProvider>
    </StrictMode>,
  ),
);
