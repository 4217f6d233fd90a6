const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The frame of the server's own pages (sign-in, sign-out confirmation): one card, light or dark. */
function authPage(options: { title: string; nonce: string; subtitle: string; content: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} · Studio Console</title>
<style nonce="${options.nonce}">
  :root { color-scheme: light dark; font-family: Roboto, system-ui, -apple-system, "Segoe UI", sans-serif; }
  *, *::before, *::after { box-sizing: border-box; }
  /* Sized by its padding and max-width, never by the viewport's width (a phone's 100vw counts a scrollbar). */
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 16px; background: #f4f5f7; color: #1f2430; }
  main { width: 100%; max-width: 360px; min-width: 0; background: #fff; border-radius: 12px; padding: 28px 24px;
         box-shadow: 0 10px 30px rgba(20, 24, 40, .12); overflow-wrap: anywhere; }
  h1 { font-size: 1.35rem; margin: 0 0 4px; }
  .sub { margin: 0 0 24px; color: #5f6677; font-size: .95rem; }
  label { display: block; font-size: .85rem; font-weight: 600; margin: 16px 0 6px; }
  input { box-sizing: border-box; width: 100%; padding: 10px 12px; font: inherit; border: 1px solid #c4c8d2; border-radius: 6px; }
  input:focus { outline: 2px solid #c2410c; border-color: transparent; }
  button:focus-visible { outline: 2px solid #c2410c; outline-offset: 2px; }
  button { margin-top: 24px; width: 100%; padding: 11px; font: inherit; font-weight: 600; color: #fff;
           background: #c2410c; border: 0; border-radius: 6px; cursor: pointer; }
  button:hover { background: #9a3412; }
  .error { background: #fdecea; color: #8a1c12; padding: 10px 12px; border-radius: 6px; margin: 0 0 8px; }
  a { color: #9a3412; }
  .after { margin: 16px 0 0; text-align: center; font-size: .9rem; }
  .or { display: flex; align-items: center; gap: 12px; margin: 20px 0 0; color: #5f6677; font-size: .85rem; }
  .or::before, .or::after { content: ""; flex: 1; border-top: 1px solid #d5d8df; }
  button.secondary { margin-top: 12px; color: #9a3412; background: transparent; border: 1px solid #c2410c; }
  button.secondary:hover { background: #fff7ed; }
  [hidden] { display: none !important; }
  .notice { background: #e8f4fd; color: #0b4a6f; padding: 10px 12px; border-radius: 6px; margin: 0 0 8px; }
  @media (prefers-color-scheme: dark) {
    body { background: #121417; color: #e8eaee; } main { background: #1d2026; }
    .sub { color: #a3a9b6; } input { background: #121417; color: inherit; border-color: #3a3f4a; }
    input:focus, button:focus-visible { outline-color: #fb923c; } a { color: #fdba74; }
    button.secondary { color: #fdba74; border-color: #fb923c; } button.secondary:hover { background: #2a2118; }
    .or { color: #a3a9b6; } .or::before, .or::after { border-color: #3a3f4a; }
  }
</style>
</head>
<body>
<main>
  <h1>Studio Console</h1>
  <p class="sub">${escapeHtml(options.subtitle)}</p>
  ${options.content}
</main>
</body>
</html>`;
}

/** The backend login page the console sends signed-out staff to. */
export function loginPage(options: { action: string; nonce: string; email?: string; error?: string; notice?: string; next?: string | null }): string {
  const message = options.error
    ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>`
    : options.notice
      ? `<p class="notice" role="status">${escapeHtml(options.notice)}</p>`
      : '';
  return authPage({
    title: 'Sign in',
    nonce: options.nonce,
    subtitle: 'Staff sign-in',
    content: `${message}
  <form method="post" action="${escapeHtml(options.action)}">
    ${options.next ? `<input type="hidden" name="next" value="${escapeHtml(options.next)}">` : ''}
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(options.email ?? '')}" ${options.email ? '' : 'autofocus'}>
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required ${options.email ? 'autofocus' : ''}>
    <button type="submit">Sign in</button>
  </form>
  ${passkeySignIn(options)}`,
  });
}

/**
 * 'Use a passkey' (worded so that the password form keeps the only 'Sign in' button), for browsers that have WebAuthn: the page asks the server for options,
 * the browser for the passkey (@simplewebauthn/browser, served next to this page), and posts its
 * answer; the server sets the session and says where to go. Without script the password form stays.
 */
function passkeySignIn(options: { action: string; nonce: string; next?: string | null }): string {
  const base = `${options.action}/passkey`;
  const config = JSON.stringify({ options: `${base}/options`, verify: base, next: options.next ?? undefined }).replace(/</g, '\\u003c');
  return `<div id="passkey" hidden>
    <p class="or">or</p>
    <p class="error" id="passkey-error" role="alert" hidden></p>
    <button type="button" class="secondary" id="passkey-button">Use a passkey</button>
  </div>
  <script src="${escapeHtml(base)}/webauthn.js" nonce="${options.nonce}"></script>
  <script nonce="${options.nonce}">
  (() => {
    const config = ${config};
    const browser = window.SimpleWebAuthnBrowser;
    // A passkey is bound to a host name: none is offered on an IP address (an RP ID cannot be one).
    const onAddress = /^[0-9.]+$/.test(location.hostname) || location.hostname.includes(':');
    if (!browser || !browser.browserSupportsWebAuthn() || onAddress) return;
    const box = document.getElementById('passkey');
    const button = document.getElementById('passkey-button');
    const error = document.getElementById('passkey-error');
    const show = (message) => { error.textContent = message; error.hidden = false; button.disabled = false; };
    box.hidden = false;
    button.addEventListener('click', async () => {
      button.disabled = true;
      error.hidden = true;
      try {
        const asked = await fetch(config.options, { method: 'POST', headers: { accept: 'application/json' } });
        const optionsJSON = await asked.json();
        if (!asked.ok) return show(optionsJSON.message || 'Passkey sign-in is not available right now. Try again.');
        let response;
        try {
          response = await browser.startAuthentication({ optionsJSON });
        } catch (refused) {
          return show('No passkey was used. Try again, or sign in with your password.');
        }
        const sent = await fetch(config.verify, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ response, next: config.next }),
        });
        const answer = await sent.json();
        if (!sent.ok) return show(answer.message || 'That passkey did not sign you in. Try again.');
        window.location.assign(answer.redirect);
      } catch (failed) {
        show('The server could not be reached. Check your connection and try again.');
      }
    });
  })();
  </script>`;
}

/**
 * Shown instead of signing out when /logout was reached from another site (a link or a redirect
 * someone else chose): one button, posting back to us, signs out.
 */
export function logoutConfirmPage(options: { action: string; nonce: string }): string {
  return authPage({
    title: 'Sign out',
    nonce: options.nonce,
    subtitle: 'Sign out',
    content: `<p>Do you want to sign out of Studio Console?</p>
  <form method="post" action="${escapeHtml(options.action)}">
    <button type="submit" autofocus>Sign out</button>
  </form>`,
  });
}

/** The second step of a sign-in with two-step on: a code from the authenticator app or a recovery code. */
export function twoStepPage(options: { action: string; nonce: string; error?: string; restartUrl: string }): string {
  const message = options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : '';
  return authPage({
    title: 'Two-step sign-in',
    nonce: options.nonce,
    subtitle: 'Two-step sign-in',
    content: `${message}
  <p>Enter the 6-digit code from your authenticator app, or one of your recovery codes.</p>
  <form method="post" action="${escapeHtml(options.action)}">
    <label for="code">Code</label>
    <input id="code" name="code" type="text" inputmode="text" autocomplete="one-time-code" autocapitalize="off" spellcheck="false" maxlength="64" required autofocus>
    <button type="submit">Verify</button>
  </form>
  <p class="after"><a href="${escapeHtml(options.restartUrl)}">Start again with your password</a></p>`,
  });
}
