// The sheet list (data-page="sheets"): create, open, rename, delete, import, export.
import { api, attempt, report, sheetPath } from './api.js';
import { h, replace } from './dom.js';
import { showError } from './status.js';
import { importWorkbook } from './import.js';
import { pageHeader } from './header.js';

const canRename = new Set(['owner', 'editor']);

/** Builds the sheet list page in `root`. */
export async function sheetsPage(root) {
  const list = h('table', { id: 'sheet-list', 'aria-label': 'Sheets' });
  const name = h('input', { id: 'new-sheet-name', type: 'text', placeholder: 'New sheet name', 'aria-label': 'New sheet name', maxlength: '31' });
  const create = h('button', { id: 'new-sheet', type: 'button', text: 'New sheet' });
  const file = h('input', { id: 'import-file', type: 'file', accept: '.xlsx,.xlsm', 'aria-label': 'Workbook to import' });
  const importButton = h('button', { id: 'import', type: 'button', text: 'Import' });
  const findings = h('ul', { id: 'import-findings', 'aria-label': 'Import findings', 'aria-live': 'polite' });

  async function refresh() {
    const answer = await attempt('list the sheets', () => api('GET', '/api/sheets'));
    if (!answer) return;
    const rows = answer.sheets.map((sheet) => sheetRow(sheet, refresh));
    replace(list,
      h('thead', {}, h('tr', {}, ['Name', 'Role', 'Size', 'Version', 'Actions'].map((title) => h('th', { scope: 'col', text: title })))),
      h('tbody', {}, rows.length ? rows : h('tr', {}, h('td', { colspan: '5', class: 'empty', text: 'No sheets yet: create one or import a workbook.' }))));
  }

  async function createSheet() {
    const sheet = await attempt('create the sheet', () => api('POST', '/api/sheets', { name: name.value.trim() }));
    if (!sheet) return;
    name.value = '';
    showError('');
    await refresh();
  }
  create.addEventListener('click', createSheet);
  name.addEventListener('keydown', (event) => { if (event.key === 'Enter') createSheet(); });

  importButton.addEventListener('click', async () => {
    const chosen = file.files?.[0];
    if (!chosen) { showError('choose an .xlsx or .xlsm file to import first'); return; }
    importButton.disabled = true;
    try {
      await importWorkbook(chosen, findings);
      await refresh();
    } finally {
      importButton.disabled = false;
    }
  });

  replace(root,
    pageHeader('Sheets'),
    h('section', { class: 'actions', 'aria-label': 'New sheet' }, name, create),
    h('section', { class: 'actions', 'aria-label': 'Import' }, file, importButton),
    findings,
    list);
  await refresh();
}

function sheetRow(sheet, refresh) {
  const link = h('a', { class: 'sheet-name', href: `/sheets/${encodeURIComponent(sheet.id)}`, text: sheet.name });
  const nameCell = h('td', {}, link);
  const actions = h('td', { class: 'row-actions' });
  if (canRename.has(sheet.role)) {
    actions.append(h('button', { type: 'button', 'data-action': 'rename', text: 'Rename', 'aria-label': `Rename ${sheet.name}`, onclick: () => startRename(sheet, nameCell, refresh) }));
  }
  if (sheet.role === 'owner') {
    actions.append(h('button', { type: 'button', 'data-action': 'delete', text: 'Delete', 'aria-label': `Delete ${sheet.name}`, onclick: async () => {
      if (!window.confirm(`Delete the sheet "${sheet.name}"? This cannot be undone.`)) return;
      if (await attempt('delete the sheet', () => api('DELETE', sheetPath(sheet.id))) !== undefined) await refresh();
    } }));
  }
  actions.append(h('a', { 'data-action': 'export', href: sheetPath(sheet.id, '/export.xlsx'), download: `${sheet.name}.xlsx`, text: 'Export' }));
  return h('tr', { 'data-sheet-id': sheet.id },
    nameCell,
    h('td', { text: sheet.role }),
    h('td', { text: `${sheet.rows ?? 0} \u00d7 ${sheet.columns ?? 0}` }),
    h('td', { text: `v${sheet.version}` }),
    actions);
}

// Rename in place: Enter commits, Escape gives the name back.
function startRename(sheet, cell, refresh) {
  const input = h('input', { type: 'text', class: 'rename-name', value: sheet.name, 'aria-label': `New name for ${sheet.name}`, maxlength: '31' });
  const original = [...cell.childNodes];
  replace(cell, input);
  input.focus();
  input.select();
  let done = false;
  const finish = async (commit) => {
    if (done) return;
    done = true;
    if (commit && input.value !== sheet.name) {
      try {
        await api('PATCH', sheetPath(sheet.id), { name: input.value });
        showError('');
      } catch (error) {
        report(error, 'rename the sheet');
      }
      await refresh();
    } else {
      replace(cell, original);
    }
  };
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') finish(true);
    if (event.key === 'Escape') finish(false);
  });
  input.addEventListener('blur', () => finish(true));
}
