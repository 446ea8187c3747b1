// The #status line: the version shown, the connection, read-only, and the last error.
import { h } from './dom.js';

const parts = { version: '', connection: '', mode: '', error: '' };
let element = null;

/** Creates #status (once) and returns it. */
export function statusElement() {
  if (!element) element = h('div', { id: 'status', role: 'status', 'aria-live': 'polite' });
  return element;
}

function render() {
  const text = [parts.version, parts.mode, parts.connection, parts.error].filter(Boolean).join(' \u00b7 ');
  statusElement().textContent = text;
  statusElement().classList.toggle('has-error', parts.error !== '');
}

/** Shows the sheet's version (`v17`). */
export function showVersion(version) {
  parts.version = `v${version}`;
  render();
}

/** Shows the live connection's state ("live", "reconnecting"). */
export function showConnection(text) {
  parts.connection = text;
  render();
}

/** Shows the page's mode ("read-only"). */
export function showMode(text) {
  parts.mode = text;
  render();
}

/** Shows the last error (an empty string clears it). */
export function showError(text) {
  parts.error = text;
  render();
}
