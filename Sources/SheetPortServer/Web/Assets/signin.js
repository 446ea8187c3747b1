// The sign-in page works without script (a form POST); with script the same POST goes through
// fetch, which can send the page's own origin (the CSRF rule's proof) despite the page's
// no-referrer policy, and a refused token is shown without leaving the page.
import { sameOriginReferrer } from './api.js';
import { h } from './dom.js';

/** Takes over the sign-in form's submit. */
export function signInPage() {
  const form = document.querySelector('form[action="/session"]');
  const field = document.getElementById('token');
  if (!form || !field) return;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = document.getElementById('sign-in');
    if (button) button.disabled = true;
    try {
      const response = await fetch('/session', {
        method: 'POST', credentials: 'same-origin', referrerPolicy: sameOriginReferrer,
        headers: { Accept: 'application/json' }, body: new URLSearchParams(new FormData(form)),
      });
      // The server's Location: the page asked for when it is a path of this site, else `/`.
      if (response.ok) { location.href = response.headers.get('Location') ?? '/'; return; }
      let message = `${response.status} ${response.statusText}`;
      try { message = (await response.json()).error?.message ?? message; } catch { /* not JSON */ }
      showSignInError(form, response.status === 401 ? 'That token is not valid (or was revoked).' : message);
    } catch (error) {
      showSignInError(form, `The server cannot be reached: ${error.message}`);
    } finally {
      if (button) button.disabled = false;
    }
  });
}

function showSignInError(form, message) {
  let error = document.getElementById('sign-in-error');
  if (!error) {
    error = h('p', { id: 'sign-in-error', role: 'alert' });
    form.after(error);
  }
  error.textContent = message;
}
