// The bar on top of every signed-in page: title, theme, sign-out, #status.
import { api, report } from './api.js';
import { h } from './dom.js';
import { statusElement } from './status.js';
import { themeSelect } from './theme.js';

/** The page's header with `title` and any `extra` controls. */
export function pageHeader(title, ...extra) {
  const signOut = h('button', { id: 'sign-out', type: 'button', text: 'Sign out' });
  signOut.addEventListener('click', async () => {
    try {
      await api('POST', '/session/end');
    } catch (error) {
      report(error, 'sign out');
      return;
    }
    location.href = '/';
  });
  const subject = document.body.dataset.subject ?? '';
  return h('header', { class: 'page-header' },
    h('a', { class: 'home', href: '/', text: 'SheetPort' }),
    h('h1', { text: title }),
    ...extra,
    h('span', { class: 'spacer' }),
    subject ? h('span', { class: 'subject', text: subject }) : null,
    h('label', { class: 'theme-label' }, 'Theme ', themeSelect()),
    signOut,
    statusElement());
}
