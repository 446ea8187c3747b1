// The sheet's event stream: another person's change refetches the windows it touches; a gap,
// a reconnect or `refs: null` refetches the windows on screen. Drafts are never touched.
import { parseRef } from './refs.js';
import { sheetPath } from './api.js';
import { showConnection } from './status.js';

const metaChanges = new Set(['rename', 'sizes', 'grant', 'import', 'create', 'undo', 'restore']);

/** Follows `controller`'s sheet; answers the EventSource holder ({ close }). */
export function followSheet(controller) {
  const model = controller.model;
  const commands = controller.commands;
  let lastEvent = model.version;
  let source = null;
  let failed = false;
  let retry = 1000;
  let closed = false;

  function catchUp() {
    commands.reloadMeta();
    commands.refreshShown();
    controller.panels.refresh();
  }

  // Events arriving while our own writes are unanswered wait for their answers (in order):
  // only then is it known which versions are ours, and ours fetch nothing.
  const held = [];
  function onEvent(event) {
    if (held.length === 0 && !commands.writes.busy) { onVersion(event); return; }
    held.push(event);
    if (held.length === 1) release();
  }

  function release() {
    commands.writes.tail.then(() => {
      if (commands.writes.busy) { release(); return; }
      for (const event of held.splice(0)) onVersion(event);
    });
  }

  function onVersion(event) {
    let data;
    try {
      data = JSON.parse(event.data);
    } catch {
      return;
    }
    const version = data.version;
    const gap = version > lastEvent + 1;
    lastEvent = Math.max(lastEvent, version);
    if (commands.writes.ownVersions.has(version) && !gap) return;
    if (gap) { catchUp(); return; }
    if (metaChanges.has(data.change)) commands.reloadMeta();
    if (data.change === 'comment') controller.panels.refresh();
    if (data.change === 'grant' || data.change === 'rename' || data.change === 'comment') { model.noteVersion(version); return; }
    if (!Array.isArray(data.refs) || model.mode === 'table') { commands.refreshShown(); return; }
    const rows = data.refs.map((ref) => parseRef(ref)?.row).filter(Boolean);
    if (rows.length === 0) { model.noteVersion(version); return; }
    const shown = controller.view.lastVisible ?? controller.view.visible();
    for (const row of new Set(rows.map((r) => Math.floor((r - 1) / 100)))) {
      model.refresh(row * 100 + 1, row * 100 + 100, { first: shown.firstRow, last: shown.lastRow }).catch(() => null);
    }
    if (controller.panels.open === 'history') controller.panels.refresh();
  }

  function connect() {
    source = new EventSource(sheetPath(model.sheetId, '/events'));
    source.addEventListener('version', onEvent);
    source.addEventListener('open', () => {
      showConnection('live');
      retry = 1000;
      if (failed) { failed = false; catchUp(); }
    });
    source.addEventListener('error', () => {
      failed = true;
      showConnection('reconnecting');
      if (source.readyState === EventSource.CLOSED && !closed) {
        // The browser gave up (a refused stream): start again, waiting longer each time.
        setTimeout(connect, retry);
        retry = Math.min(retry * 2, 30000);
      }
    });
  }
  connect();
  window.addEventListener('pagehide', () => { closed = true; source?.close(); });
  return { close() { closed = true; source?.close(); } };
}
