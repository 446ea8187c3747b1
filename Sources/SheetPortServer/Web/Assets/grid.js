// The grid page (data-page="grid") and the table view (data-page="table"): layout, the
// selection, drafts and commits; formats, clipboard and fills are in commands.js.
import { api, report, serverLimits } from './api.js';
import { h, replace } from './dom.js';
import { pixelsToPoints, pixelsToWidth } from './geometry.js';
import { GridView } from './view.js';
import { pageHeader } from './header.js';
import { GridCommands } from './commands.js';
import { followSheet } from './live.js';
import { SheetModel } from './model.js';
import { Panels } from './panels.js';
import { columnName, formatRange, formatRef, maxColumns, maxRows, parseAddress } from './refs.js';
import { showError, showMode, showVersion } from './status.js';
import { onThemeChange } from './theme.js';
import { buildToolbar } from './toolbar.js';

const writers = new Set(['owner', 'editor']);
const steps = { up: [-1, 0], down: [1, 0], left: [0, -1], right: [0, 1] };
const arrows = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' };

/** Builds the grid (or, `mode` `table`, the table view) of the page's sheet in `root`. */
export async function gridPage(root, mode) {
  const sheetId = document.body.dataset.sheetId ?? '';
  const role = document.body.dataset.role ?? 'viewer';
  const query = mode === 'table' ? viewQuery(new URLSearchParams(location.search)) : '';
  const model = new SheetModel(sheetId, mode, query);
  const controller = new GridController(model, role, mode);
  await controller.start(root);
  return controller;
}

/** The view's query string from sort and filter values (filters separated by `;`). */
function viewQuery(params) {
  const parts = [];
  const sort = params.get('sort')?.trim();
  if (sort) parts.push(`sort=${encodeURIComponent(sort)}`);
  for (const filter of params.getAll('filter')) {
    for (const one of filter.split(';').map((text) => text.trim()).filter(Boolean)) parts.push(`filter=${encodeURIComponent(one)}`);
  }
  return parts.join('&');
}

export class GridController {
  constructor(model, role, mode) {
    this.model = model;
    this.role = role;
    this.mode = mode;
    this.readOnly = !writers.has(role);
    this.draft = null;        // { cell, text, original, via: 'cell'|'bar', mode: 'enter'|'edit' }
    this.tabStart = null;     // the column a run of Tabs started in
    this.firstPaint = false;
  }

  async start(root) {
    const meta = await this.model.loadMeta();
    document.title = `${meta.name} - SheetPort`;
    this.view = new GridView(this.model, `Sheet ${meta.name}`);
    this.view.readOnly = this.readOnly;
    this.view.onError = (error) => report(error, 'read the rows');
    this.view.onRows = (rows) => this.rowsArrived(rows);
    this.view.onResize = (axis, index, pixels) => this.resized(axis, index, pixels);
    this.commands = new GridCommands(this);
    this.panels = new Panels(this);
    this.buildEditors();
    const toolbar = buildToolbar(this);
    const title = h('span', { class: 'sheet-title', text: meta.name });
    this.titleElement = title;
    const table = this.mode === 'table' ? this.buildViewControls() : null;
    replace(root,
      pageHeader(this.mode === 'table' ? 'Table view' : 'Sheet', title),
      toolbar,
      table,
      h('div', { class: 'formula-row' }, this.address, h('span', { class: 'fx', 'aria-hidden': 'true', text: 'fx' }), this.formulaBar),
      h('div', { class: 'work-area' }, this.view.element, this.panels.element));
    if (this.readOnly) {
      this.view.element.setAttribute('aria-readonly', 'true');
      this.formulaBar.readOnly = true;
      showMode('read-only');
    }
    showVersion(this.model.version);
    this.model.listen((kind, version) => { if (kind === 'version') showVersion(version); });
    this.view.applyMeta(meta);
    this.wireGrid();
    onThemeChange(() => this.view.themeChanged());
    window.addEventListener('beforeunload', (event) => {
      if (this.draft && this.draft.text !== this.draft.original) { event.preventDefault(); event.returnValue = ''; }
    });
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.panels.open && !this.draft) { this.panels.close(); this.focusGrid(); }
      if (event.key === 'F6') { event.preventDefault(); this.cycleRegion(event.shiftKey ? -1 : 1); }
    });
    this.view.render();
    this.selectionChanged();
    this.view.element.focus();
    this.live = followSheet(this);
    if (this.mode === 'table') {
      // The view's row count comes with its first window.
      await this.model.ensure(1, 1).catch((error) => report(error, 'read the view'));
      this.view.applyMeta(this.model.meta);
    }
    serverLimits().catch(() => null);
    this.panels.loadCommentMarkers();
  }

  // Layout pieces.

  buildEditors() {
    this.address = h('input', { id: 'address', type: 'text', 'aria-label': 'Cell or range address', autocomplete: 'off', spellcheck: 'false' });
    this.formulaBar = h('input', { id: 'formula-bar', type: 'text', 'aria-label': 'Formula bar: the active cell\u2019s input', autocomplete: 'off', spellcheck: 'false' });
    this.editor = h('input', { id: 'cell-editor', type: 'text', 'aria-label': 'Cell editor', autocomplete: 'off', spellcheck: 'false', hidden: true });
    this.view.canvas.append(this.editor);

    this.address.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') { event.preventDefault(); this.goTo(this.address.value); }
      if (event.key === 'Escape') { event.preventDefault(); this.selectionChanged(); this.focusGrid(); }
    });
    this.address.addEventListener('focus', () => this.address.select());

    this.formulaBar.addEventListener('focus', () => {
      if (this.readOnly || this.draft) return;
      const active = this.view.selection.active;
      const input = this.inputAt(active);
      this.draft = { cell: { ...active }, text: input, original: input, via: 'bar', mode: 'edit' };
    });
    this.formulaBar.addEventListener('input', () => {
      if (!this.draft) return;
      this.draft.text = this.formulaBar.value;
      if (!this.editor.hidden) this.editor.value = this.formulaBar.value;
    });
    this.formulaBar.addEventListener('keydown', (event) => {
      if (this.readOnly) return;
      if (event.key === 'Enter') { event.preventDefault(); this.commit(event.shiftKey ? 'up' : 'down'); }
      else if (event.key === 'Tab') { event.preventDefault(); this.commit(event.shiftKey ? 'left' : 'right'); }
      else if (event.key === 'Escape') { event.preventDefault(); event.stopPropagation(); this.abandon(); }
    });
    this.formulaBar.addEventListener('blur', () => {
      if (this.draft?.via === 'bar' && this.draft.text === this.draft.original && this.editor.hidden) this.draft = null;
    });

    this.editor.addEventListener('input', () => {
      if (!this.draft) return;
      this.draft.text = this.editor.value;
      this.formulaBar.value = this.editor.value;
    });
    this.editor.addEventListener('keydown', (event) => this.editorKey(event));
    this.editor.addEventListener('blur', (event) => {
      // Leaving the cell for another control (not the formula bar) commits, as a spreadsheet does.
      // Not when the window itself loses focus (another tab, leaving the page): the draft stays.
      if (event.relatedTarget === this.formulaBar || !this.draft || this.editor.hidden || !document.hasFocus()) return;
      if (event.relatedTarget && this.view.element.contains(event.relatedTarget)) return;
      this.commit(null, false);
    });
  }

  buildViewControls() {
    const params = new URLSearchParams(location.search);
    const sort = h('input', { id: 'view-sort', type: 'text', value: params.get('sort') ?? '', placeholder: 'B:desc,A:asc', 'aria-label': 'Sort (column:asc or column:desc, comma separated)' });
    const filter = h('input', { id: 'view-filter', type: 'text', value: params.getAll('filter').join(';'), placeholder: 'C:>100; A:contains:x', 'aria-label': 'Filter (column:operator value, separated by ;)' });
    const apply = h('button', { id: 'apply-view', type: 'button', text: 'Apply' });
    const run = () => {
      const next = new URLSearchParams();
      if (sort.value.trim()) next.set('sort', sort.value.trim());
      if (filter.value.trim()) next.set('filter', filter.value.trim());
      history.replaceState(null, '', `${location.pathname}${next.toString() ? `?${next}` : ''}`);
      this.reloadView(viewQuery(next));
    };
    apply.addEventListener('click', run);
    for (const input of [sort, filter]) input.addEventListener('keydown', (event) => { if (event.key === 'Enter') run(); });
    const back = h('a', { href: `/sheets/${encodeURIComponent(this.model.sheetId)}`, text: 'Back to the grid' });
    return h('section', { class: 'view-controls', 'aria-label': 'Sort and filter' },
      h('label', {}, 'Sort ', sort), h('label', {}, 'Filter ', filter), apply, back);
  }

  async reloadView(query) {
    this.model.query = query;
    this.model.rows.clear();
    this.model.chunks.clear();
    this.model.total = null;
    try {
      await this.model.ensure(1, 1);
      showError('');
    } catch (error) {
      report(error, 'apply the view');
    }
    this.view.element.scrollTop = 0;
    this.view.applyMeta(this.model.meta);
    this.select({ row: 1, col: 1 });
  }

  // Grid input.

  wireGrid() {
    const grid = this.view.element;
    grid.addEventListener('keydown', (event) => { if (event.target === grid) this.gridKey(event); });
    let dragging = false;
    grid.addEventListener('pointerdown', (event) => {
      if (event.target === this.editor || event.target.classList.contains('resize-handle')) return;
      const header = event.target.closest('.col-header, .row-header, .corner');
      if (this.draft) this.commit(null, false);
      if (header) { event.preventDefault(); this.headerClick(header, event.shiftKey); grid.focus(); return; }
      const cell = this.view.cellAt(event);
      if (!cell) return;
      event.preventDefault();
      grid.focus();
      this.tabStart = null;
      this.select(cell, event.shiftKey);
      dragging = true;
    });
    grid.addEventListener('pointermove', (event) => {
      if (!dragging || !(event.buttons & 1)) { dragging = false; return; }
      const cell = this.view.cellAt(event);
      const { extent } = this.view.selection;
      if (cell && (cell.row !== extent.row || cell.col !== extent.col)) this.select(cell, true, false);
    });
    grid.addEventListener('pointerup', () => { dragging = false; });
    grid.addEventListener('dblclick', (event) => {
      const cell = this.view.cellAt(event);
      if (cell) this.openEditor(this.inputAt(cell), 'edit');
    });
  }

  headerClick(header, extend) {
    const { active } = this.view.selection;
    if (header.classList.contains('corner')) { this.selectAll(); return; }
    if (header.classList.contains('col-header')) {
      const col = Number(header.dataset.col);
      const anchor = extend ? this.view.selection.anchor : { row: 1, col };
      this.setSelection(anchor, { row: extend ? active.row : 1, col }, { row: this.lastRow(), col });
      return;
    }
    const row = Number(header.closest('.grid-row').getAttribute('aria-rowindex')) - 1;
    const anchor = extend ? this.view.selection.anchor : { row, col: 1 };
    this.setSelection(anchor, { row, col: extend ? active.col : 1 }, { row, col: maxColumns });
  }

  lastRow() {
    return this.mode === 'table' ? Math.max(this.model.total ?? 1, 1) : maxRows;
  }

  gridKey(event) {
    const ctrl = event.ctrlKey || event.metaKey;
    const key = event.key;
    const { active } = this.view.selection;
    if (arrows[key]) {
      event.preventDefault();
      this.tabStart = null;
      if (ctrl) { this.jump(arrows[key], event.shiftKey); return; }
      const [dr, dc] = steps[arrows[key]];
      const from = event.shiftKey ? this.view.selection.extent : active;
      this.select({ row: from.row + dr, col: from.col + dc }, event.shiftKey);
      return;
    }
    if (ctrl && !event.altKey) {
      switch (key.toLowerCase()) {
        case 'a': event.preventDefault(); this.selectAll(); return;
        case 'z': event.preventDefault(); this.commands.undo(); return;
        case 'b': event.preventDefault(); this.commands.toggle('bold'); return;
        case 'i': event.preventDefault(); this.commands.toggle('italic'); return;
        case 'd': event.preventDefault(); this.commands.fill('down'); return;
        case 'r': event.preventDefault(); this.commands.fill('right'); return;
        case 'g': event.preventDefault(); this.address.focus(); return;
        case 'home': event.preventDefault(); this.select({ row: 1, col: 1 }, event.shiftKey); return;
        default: return; // Ctrl-C/X/V reach the clipboard events
      }
    }
    if (event.altKey && key === '=') { event.preventDefault(); this.commands.insert('SUM'); return; }
    switch (key) {
      case 'Enter':
        event.preventDefault();
        this.advance(event.shiftKey ? 'up' : 'down');
        return;
      case 'Tab':
        event.preventDefault();
        this.advance(event.shiftKey ? 'left' : 'right');
        return;
      case 'F2': event.preventDefault(); this.openEditor(this.inputAt(active), 'edit'); return;
      case 'Delete': event.preventDefault(); this.commands.clear('contents'); return;
      case 'Backspace': event.preventDefault(); this.openEditor('', 'enter'); return;
      case 'Home': event.preventDefault(); this.select({ row: active.row, col: 1 }, event.shiftKey); return;
      case 'PageDown':
      case 'PageUp': {
        event.preventDefault();
        const rows = Math.max(1, Math.floor(this.view.element.clientHeight / this.view.rowAxis.size) - 2);
        this.select({ row: active.row + (key === 'PageDown' ? rows : -rows), col: active.col }, event.shiftKey);
        return;
      }
      default: break;
    }
    if (key.length === 1 && !event.altKey) {
      event.preventDefault();
      this.openEditor(key, 'enter');
    }
  }

  /** Ctrl-arrow: to the edge of the used range (or the grid's first row or column). */
  jump(direction, extend) {
    const from = extend ? this.view.selection.extent : this.view.selection.active;
    const meta = this.model.meta ?? {};
    const lastRow = this.mode === 'table' ? (this.model.total ?? 1) : Math.max(meta.rows ?? 1, 1);
    const lastCol = Math.max(meta.columns ?? 1, 1);
    const target = {
      up: { row: 1, col: from.col }, left: { row: from.row, col: 1 },
      down: { row: from.row >= lastRow ? this.lastRow() : lastRow, col: from.col },
      right: { row: from.row, col: from.col >= lastCol ? maxColumns : lastCol },
    }[direction];
    this.select(target, extend);
  }

  editorKey(event) {
    event.stopPropagation();
    const key = event.key;
    if (key === 'Enter' && !event.altKey) { event.preventDefault(); this.commit(event.shiftKey ? 'up' : 'down'); return; }
    if (key === 'Tab') { event.preventDefault(); this.commit(event.shiftKey ? 'left' : 'right'); return; }
    if (key === 'Escape') { event.preventDefault(); this.abandon(); return; }
    if (arrows[key] && this.draft?.mode === 'enter') { event.preventDefault(); this.commit(arrows[key]); }
  }

  // Selection.

  /** Selects `cell` (or extends the selection to it); scrolls it into view. */
  select(cell, extend = false, scroll = true) {
    const clamped = { row: Math.min(Math.max(cell.row, 1), this.lastRow()), col: Math.min(Math.max(cell.col, 1), maxColumns) };
    const selection = this.view.selection;
    if (extend) this.setSelection(selection.anchor, selection.active, clamped, scroll);
    else this.setSelection(clamped, clamped, clamped, scroll);
  }

  setSelection(anchor, active, extent, scroll = true) {
    this.view.selection = { anchor: { ...anchor }, active: { ...active }, extent: { ...extent } };
    if (scroll) this.view.scrollTo(extent);
    this.view.paintSelection();
    this.selectionChanged();
  }

  selectAll() {
    const { active } = this.view.selection;
    this.setSelection({ row: 1, col: 1 }, active, { row: this.lastRow(), col: maxColumns }, false);
  }

  /** Enter/Tab without a draft (and after a commit): a step, inside a selected range wrapping. */
  advance(direction) {
    const selection = this.view.selection;
    const range = this.view.range();
    const active = { ...selection.active };
    const isRange = range.top !== range.bottom || range.left !== range.right;
    if (direction === 'left' || direction === 'right') {
      if (this.tabStart === null) this.tabStart = active.col;
    } else if (direction === 'down' && this.tabStart !== null && !isRange) {
      const col = this.tabStart;
      this.tabStart = null;
      this.select({ row: active.row + 1, col });
      return;
    } else {
      this.tabStart = null;
    }
    if (!isRange) {
      const [dr, dc] = steps[direction];
      this.select({ row: active.row + dr, col: active.col + dc });
      return;
    }
    // Inside a range: along the row for Tab, down the column for Enter, wrapping at the ends.
    const along = direction === 'up' || direction === 'down' ? 'row' : 'col';
    const across = along === 'row' ? 'col' : 'row';
    const delta = direction === 'down' || direction === 'right' ? 1 : -1;
    const bounds = { row: [range.top, range.bottom], col: [range.left, range.right] };
    active[along] += delta;
    if (active[along] < bounds[along][0] || active[along] > bounds[along][1]) {
      active[along] = delta > 0 ? bounds[along][0] : bounds[along][1];
      active[across] += delta;
      if (active[across] < bounds[across][0] || active[across] > bounds[across][1]) active[across] = delta > 0 ? bounds[across][0] : bounds[across][1];
    }
    this.setSelection(selection.anchor, active, selection.extent, false);
    this.view.scrollTo(active);
  }

  /** The address field: a cell, a range, whole rows or columns, or a defined name. */
  goTo(text) {
    let range = this.mode === 'table' ? null : parseAddress(text);
    if (!range && this.mode !== 'table') {
      const name = (this.model.meta?.names ?? []).find((entry) => entry.ref && entry.name.toUpperCase() === text.trim().toUpperCase());
      if (name) range = parseAddress(name.ref.replace(/^.*!/, '').replaceAll('$', ''));
    }
    if (this.mode === 'table') {
      const position = Number(text.trim().replace(/^[A-Za-z]+/, ''));
      const col = parseAddress(text)?.left;
      if (col && position >= 1) range = { top: position, bottom: position, left: col, right: col };
    }
    if (!range) {
      showError(`"${text.trim()}" is not a cell, a range or a defined name`);
      return;
    }
    showError('');
    const start = { row: range.top, col: range.left };
    this.setSelection(start, start, { row: range.bottom, col: range.right }, false);
    this.view.scrollTo(start);
    this.focusGrid();
  }

  /** The selection moved: the address, formula bar, size fields and format controls follow. */
  selectionChanged() {
    const range = this.view.range();
    const { active } = this.view.selection;
    const single = range.top === range.bottom && range.left === range.right;
    if (document.activeElement !== this.address) {
      this.address.value = single ? this.refAt(active) : (this.mode === 'table' ? this.refAt(active) : formatRange(range));
    }
    if (!this.draft) this.formulaBar.value = this.inputAt(active);
    this.toolbar?.update(this.cellAt(active), active);
    this.panels?.selectionChanged();
  }

  /** New rows arrived: the first paint is marked; what shows the active cell is refreshed. */
  rowsArrived({ first, last }) {
    if (!this.firstPaint && this.model.chunks.size > 0) {
      this.firstPaint = true;
      // After the frame that draws the window (its render was scheduled first).
      requestAnimationFrame(() => performance.mark('sheetport:first-paint'));
    }
    // Only rows holding the active cell touch the controls (no layout work while scrolling).
    const { active } = this.view.selection;
    if (active.row < first || active.row > last) return;
    if (!this.draft) this.formulaBar.value = this.inputAt(active);
    this.toolbar?.update(this.cellAt(active), active);
  }

  // Cells.

  /** The cell at `position` ({row: position, col}). */
  cellAt(cell) {
    return this.model.cellAt(cell.row, cell.col);
  }

  inputAt(cell) {
    return this.cellAt(cell)?.input ?? '';
  }

  /** The A1 reference of a position (its storage row in the table view). */
  refAt(cell) {
    const row = this.model.sourceRow(cell.row);
    return row ? formatRef({ row, col: cell.col }) : `${columnName(cell.col)}?`;
  }

  /**
   * F6 / Shift-F6: the next region (toolbar, address, formula bar, grid, open panel), since Tab
   * and Shift-Tab move between cells inside the grid, as in a spreadsheet.
   */
  cycleRegion(step) {
    if (this.draft && !this.editor.hidden) this.commit(null, false);
    const toolbar = document.getElementById('toolbar');
    const regions = [
      [toolbar, toolbar?.querySelector('button:not(:disabled), select:not(:disabled)')],
      [this.address, this.address], [this.formulaBar, this.formulaBar], [this.view.element, this.view.element],
      [this.panels.element, this.panels.open ? this.panels.element.querySelector('button, textarea, input, select') : null],
    ].filter(([, target]) => target);
    const focused = document.activeElement;
    let current = regions.findIndex(([container]) => container === focused || container?.contains(focused));
    if (current < 0) current = regions.findIndex(([container]) => container === this.view.element);
    regions[(current + step + regions.length) % regions.length][1].focus();
  }

  /** Focus back on the grid, or on the in-cell editor while one is open. */
  focusGrid() {
    if (!this.editor.hidden) { this.editor.focus({ preventScroll: true }); return; }
    this.view.element.focus({ preventScroll: true });
  }

  // Drafts.

  openEditor(text, mode) {
    if (this.readOnly) { showError('read-only: this sheet cannot be edited with your role'); return; }
    const active = { ...this.view.selection.active };
    if (this.mode === 'table' && !this.model.sourceRow(active.row)) { showError('this row of the view holds no source row'); return; }
    this.view.scrollTo(active);
    const original = this.inputAt(active);
    this.draft = { cell: active, text, original, via: 'cell', mode };
    const box = this.view.box(active);
    const style = this.editor.style;
    style.left = `${box.left}px`;
    style.top = `${box.top}px`;
    style.minWidth = `${box.width}px`;
    style.height = `${box.height}px`;
    this.editor.hidden = false;
    this.editor.value = text;
    this.formulaBar.value = text;
    this.editor.focus({ preventScroll: true });
    this.editor.setSelectionRange(text.length, text.length);
  }

  closeEditor() {
    this.editor.hidden = true;
    this.draft = null;
  }

  abandon() {
    this.closeEditor();
    this.formulaBar.value = this.inputAt(this.view.selection.active);
    this.focusGrid();
  }

  /** Commits the draft (if it changed anything) and moves `direction` (null: stays). */
  commit(direction, refocus = true) {
    const draft = this.draft;
    if (!draft) return;
    this.closeEditor();
    if (draft.text !== draft.original) this.writeCell(draft.cell, draft.text, refocus);
    if (direction) this.advance(direction);
    else this.selectionChanged();
    if (refocus) this.focusGrid();
  }

  /**
   * Writes `text` into the cell at `cell`: sent first (nothing runs before the request leaves),
   * shown at once as pending, then the server's display.
   */
  writeCell(cell, text, reopen = true) {
    const row = this.model.sourceRow(cell.row);
    if (!row) return;
    const ref = formatRef({ row, col: cell.col });
    performance.mark(`sheetport:commit:${ref}`);
    const sent = this.commands.writes.send('/cells', { cells: [{ ref, input: text }] }, `write ${ref}`);
    const shown = this.model.rowAt(cell.row);
    if (shown) {
      shown.cells.set(cell.col, { ...(shown.cells.get(cell.col) ?? { col: cell.col }), pending: text });
      this.model.emit('rows', { first: cell.row, last: cell.row });
    }
    sent.then((answer) => {
      if (answer) {
        showError('');
        if (this.mode === 'table') {
          this.commands.refreshShown();
          this.view.render();
        } else {
          // Only the written row is drawn, now: no layout is read and nothing waits for a frame.
          this.view.drawNow(cell.row);
        }
        performance.mark(`sheetport:shown:${ref}`);
        return;
      }
      const now = this.model.rowAt(cell.row)?.cells.get(cell.col);
      if (now?.pending !== undefined) {
        delete now.pending;
        if (!now.input && now.display === undefined) this.model.rowAt(cell.row).cells.delete(cell.col);
        this.model.emit('rows', { first: cell.row, last: cell.row });
      }
      // A refused text typed and committed from the keyboard comes back as a draft, so
      // nothing typed is lost (a click elsewhere is not taken back: the refusal is in #status).
      if (reopen && !this.draft) {
        this.select(cell);
        this.openEditor(text, 'edit');
      }
    });
  }

  /** Sizes from a header drag: pixels to xlsx units. */
  resized(axis, index, pixels) {
    if (axis === 'col') this.commands.sizes({ columns: { [columnName(index)]: pixelsToWidth(pixels) } });
    else this.commands.sizes({ rows: { [String(index)]: pixelsToPoints(pixels) } });
  }
}
