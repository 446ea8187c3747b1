// The page's entry: body data-page says which page this is.
import { sheetsPage } from './sheets.js';
import { gridPage } from './grid.js';
import { signInPage } from './signin.js';
import { h, replace } from './dom.js';
import { showError } from './status.js';

const root = document.getElementById('app');
const page = document.body.dataset.page;

async function start() {
  switch (page) {
    case 'sheets': await sheetsPage(root); break;
    case 'grid': await gridPage(root, 'grid'); break;
    case 'table': await gridPage(root, 'table'); break;
    case 'signin': signInPage(); break;
    default: break; // not-found works without script
  }
}

start().catch((error) => {
  if (root) replace(root, h('p', { role: 'alert', text: `The page failed to start: ${error.message}` }));
  showError(String(error.message));
});
