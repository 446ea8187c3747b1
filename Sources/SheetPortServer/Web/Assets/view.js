// The grid's drawing: only the rows and columns on screen (plus a margin) exist in the DOM,
// placed by offsets from the Axis, so a million-row sheet draws as a hundred-row one.
import { h } from './dom.js';
import { Axis, defaultColumnPixels, defaultRowPoints, pointsToPixels, widthToPixels } from './geometry.js';
import { columnName, formatRef, inRange, maxColumns, maxRows } from './refs.js';
import { automaticInk, contrast, effectiveTheme, themeColours } from './theme.js';

const headerHeight = 22;
const rowHeaderWidth = 56;
const marginRows = 10;
const marginColumns = 3;
const settleMilliseconds = 150;
const numericTypes = new Set(['number', 'date']);
const centredTypes = new Set(['boolean', 'error']);

/** The text a cell shows: the server's `display` (rows and view windows and write answers carry it). */
export function shownText(cell) {
  return typeof cell?.display === 'string' ? cell.display : '';
}

export class GridView {
  /** Draws `model` into a new #grid; `label` names the grid for assistive technology. */
  constructor(model, label) {
    this.model = model;
    this.selection = { anchor: { row: 1, col: 1 }, active: { row: 1, col: 1 }, extent: { row: 1, col: 1 } };
    this.rowElements = new Map();
    this.spareRows = [];          // row elements scrolled off (detached), reused for the rows scrolled on
    this.stamp = 0;               // bumped when every cell must be drawn again (theme, sizes)
    this.columnHeaders = new Map();
    this.rowAxis = new Axis(1000, pointsToPixels(defaultRowPoints));
    this.colAxis = new Axis(30, defaultColumnPixels);
    this.shownColumns = [0, -1];
    this.readOnly = false;
    this.commentRefs = new Set();
    this.onResize = null;  // (axis 'row'|'col', index, pixels) when a header edge is dragged
    this.onCellPointer = null;
    this.colours = themeColours();

    this.canvas = h('div', { class: 'grid-canvas' });
    this.header = h('div', { class: 'grid-header', role: 'row', 'aria-rowindex': '1' },
      h('div', { class: 'corner', role: 'columnheader', 'aria-colindex': '1', 'aria-label': 'Select all', title: 'Select all' }));
    this.body = h('div', { class: 'grid-body', role: 'rowgroup' });
    this.canvas.append(this.header, this.body);
    this.element = h('div', { id: 'grid', role: 'grid', tabindex: '0', 'aria-label': label, 'aria-multiselectable': 'true' }, this.canvas);
    this.element.addEventListener('scroll', () => this.schedule());
    window.addEventListener('resize', () => this.schedule());
    model.listen((kind, detail) => { if (kind === 'rows') this.rowsChanged(detail); });
  }

  /** Sizes from the sheet's metadata: column widths, default row height, the extent shown. */
  applyMeta(meta) {
    const defaultHeight = meta.defaultRowHeight ? pointsToPixels(meta.defaultRowHeight) : pointsToPixels(defaultRowPoints);
    // The grid is the whole sheet's height, as in Excel; the table view is as long as the view.
    const rows = this.model.mode === 'table' ? Math.max(this.model.total ?? 0, 1) : maxRows;
    const columns = Math.min(maxColumns, Math.max((meta.columns ?? 0) + 10, 30));
    const rowAxis = new Axis(Math.max(rows, this.model.mode === 'table' ? 0 : this.rowAxis.count), defaultHeight);
    for (const [index, pixels] of this.rowAxis.sizes) rowAxis.set(index, pixels);
    this.rowAxis = rowAxis;
    this.colAxis = new Axis(Math.max(columns, this.colAxis.count), defaultColumnPixels);
    for (const span of meta.columnWidths ?? []) {
      for (let col = span.first; col <= Math.min(span.last, maxColumns); col += 1) this.colAxis.set(col, widthToPixels(span.width));
    }
    this.element.setAttribute('aria-colcount', String(this.colAxis.count + 1));
    this.updateExtent();
    this.shownColumns = [0, -1];
    this.rebuildAll();
  }

  /** Grows the grid shown so `cell` and a margin past it are inside (as Excel's scroll area). */
  reach(cell) {
    let grown = false;
    if (this.model.mode !== 'table' && cell.row + 50 > this.rowAxis.count && this.rowAxis.count < maxRows) {
      this.rowAxis.count = Math.min(maxRows, cell.row + 500);
      grown = true;
    }
    if (cell.col + 5 > this.colAxis.count && this.colAxis.count < maxColumns) {
      this.colAxis.count = Math.min(maxColumns, cell.col + 20);
      this.element.setAttribute('aria-colcount', String(this.colAxis.count + 1));
      grown = true;
    }
    if (grown) this.updateExtent();
  }

  updateExtent() {
    this.rowAxis.dirty = true;
    this.canvas.style.height = `${headerHeight + this.rowAxis.total()}px`;
    this.canvas.style.width = `${rowHeaderWidth + this.colAxis.total()}px`;
    this.header.style.width = this.canvas.style.width;
    this.element.setAttribute('aria-rowcount', String(this.rowAxis.count + 1));
  }

  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.render(); });
  }

  /** The rows and columns on screen, each with its margin. */
  visible() {
    const { scrollTop, scrollLeft, clientHeight, clientWidth } = this.element;
    const firstRow = this.rowAxis.indexAt(scrollTop);
    const lastRow = this.rowAxis.indexAt(scrollTop + Math.max(clientHeight - headerHeight, 0));
    const firstCol = this.colAxis.indexAt(scrollLeft);
    const lastCol = this.colAxis.indexAt(scrollLeft + Math.max(clientWidth - rowHeaderWidth, 0));
    return {
      firstRow: Math.max(1, firstRow - marginRows), lastRow: Math.min(this.rowAxis.count, lastRow + marginRows),
      firstCol: Math.max(1, firstCol - marginColumns), lastCol: Math.min(this.colAxis.count, lastCol + marginColumns),
      screenRows: [firstRow, lastRow],
    };
  }

  /** Draws what is on screen and asks the model for rows not loaded. */
  render() {
    if (this.element.scrollTop + this.element.clientHeight * 2 > this.rowAxis.total() && this.model.mode !== 'table') {
      this.reach({ row: this.rowAxis.count, col: 1 });
    }
    const view = this.visible();
    this.lastVisible = view;
    // A fling (more than a screen a frame) fetches nothing until it settles: the rows flown
    // past are never asked for, so a million-row sheet scrolls as an empty one does.
    const jump = Math.abs(view.screenRows[0] - (this.lastFirstRow ?? view.screenRows[0]));
    this.lastFirstRow = view.screenRows[0];
    clearTimeout(this.settle);
    if (jump > view.screenRows[1] - view.screenRows[0] + 1) this.settle = setTimeout(() => this.fetchShown(), settleMilliseconds);
    else this.fetchShown();
    const columnsChanged = view.firstCol !== this.shownColumns[0] || view.lastCol !== this.shownColumns[1];
    if (columnsChanged) {
      this.shownColumns = [view.firstCol, view.lastCol];
      this.drawColumnHeaders();
    }
    for (const [position, element] of this.rowElements) {
      if (position < view.firstRow || position > view.lastRow) { this.rowElements.delete(position); element.remove(); this.spareRows.push(element); }
    }
    for (let position = view.firstRow; position <= view.lastRow; position += 1) {
      const existing = this.rowElements.get(position);
      if (existing && !columnsChanged && !existing.stale) this.placeRow(existing, position);
      else this.drawRow(position);
    }
  }

  /** Draws the row at `position` now when it is on screen (a write's answer). */
  drawNow(position) {
    if (this.rowElements.has(position)) this.drawRow(position);
  }

  /** Asks the model for the rows on screen (and their margin). */
  fetchShown() {
    const view = this.lastVisible ?? this.visible();
    this.model.ensure(view.firstRow, view.lastRow).catch((error) => this.onError?.(error));
  }

  rowsChanged({ first, last }) {
    let heightsChanged = false;
    for (let position = first; position <= last; position += 1) {
      const row = this.model.rowAt(position);
      const pixels = row?.hidden ? 0 : (row?.height !== null && row?.height !== undefined ? pointsToPixels(row.height) : null);
      if (this.rowAxis.sizeOf(position) !== (pixels ?? this.rowAxis.size)) { this.rowAxis.set(position, pixels); heightsChanged = true; }
      const element = this.rowElements.get(position);
      if (element) element.stale = true;
    }
    if (this.model.mode === 'table' && this.model.total !== null && this.model.total !== this.rowAxis.count) {
      this.rowAxis.count = Math.max(this.model.total, 1);
      heightsChanged = true;
    }
    if (heightsChanged) { this.updateExtent(); this.rebuildAll(); }
    this.schedule();
    this.onRows?.({ first, last });
  }

  /** Draws every row again (sizes changed). */
  rebuildAll() {
    for (const element of this.rowElements.values()) element.stale = true;
    this.stamp += 1;
    this.shownColumns = [0, -1];
    this.schedule();
  }

  drawColumnHeaders() {
    for (const element of this.columnHeaders.values()) element.remove();
    this.columnHeaders.clear();
    const [first, last] = this.shownColumns;
    const range = this.range();
    for (let col = first; col <= last; col += 1) {
      const handle = h('div', { class: 'resize-handle col-resize', 'aria-hidden': 'true' });
      const element = h('div', { class: 'col-header', role: 'columnheader', 'aria-colindex': String(col + 1), 'data-col': String(col), text: columnName(col) }, handle);
      element.style.left = `${rowHeaderWidth + this.colAxis.offset(col)}px`;
      element.style.width = `${this.colAxis.sizeOf(col)}px`;
      element.classList.toggle('in-selection', col >= range.left && col <= range.right);
      this.dragHandle(handle, 'col', col);
      this.columnHeaders.set(col, element);
      this.header.append(element);
    }
  }

  placeRow(element, position) {
    element.style.top = `${headerHeight + this.rowAxis.offset(position)}px`;
    element.style.height = `${this.rowAxis.sizeOf(position)}px`;
  }

  // Rows and cells are updated in place (not replaced), so an element found once stays the
  // cell's element while it is on screen.
  newRow() {
    const handle = h('div', { class: 'resize-handle row-resize', 'aria-hidden': 'true' });
    const header = h('div', { class: 'row-header', role: 'rowheader', 'aria-colindex': '1' }, h('span', { class: 'label' }), handle);
    header.style.width = `${rowHeaderWidth}px`;
    const element = h('div', { class: 'grid-row', role: 'row' }, header);
    element.cellElements = new Map();
    if (this.model.mode !== 'table') this.dragHandle(handle, 'row', () => element.position);
    return element;
  }

  drawRow(position) {
    const row = this.model.rowAt(position);
    let element = this.rowElements.get(position);
    if (!element) {
      element = this.spareRows.pop() ?? this.newRow();
      element.position = position;
      element.setAttribute('aria-rowindex', String(position + 1));
      for (const cellElement of element.cellElements.values()) cellElement.setAttribute('aria-rowindex', String(position + 1));
      // Rows stay in document order (what assistive technology and tests read).
      let next = null;
      for (const [other, otherElement] of this.rowElements) {
        if (other > position && (next === null || other < next.position)) next = { position: other, element: otherElement };
      }
      if (element.nextSibling !== (next?.element ?? null) || !element.parentNode) this.body.insertBefore(element, next?.element ?? null);
      this.rowElements.set(position, element);
    }
    element.stale = false;
    const sourceRow = this.model.mode === 'table' ? row?.row : position;
    element.firstChild.firstChild.textContent = sourceRow ? String(sourceRow) : '';
    if (this.model.mode === 'table') {
      if (row) element.dataset.sourceRow = String(row.row); else delete element.dataset.sourceRow;
    }
    element.style.width = `${rowHeaderWidth + this.colAxis.total()}px`;
    this.placeRow(element, position);
    const [first, last] = this.shownColumns;
    for (const [col, cellElement] of element.cellElements) {
      if (col < first || col > last) { cellElement.remove(); element.cellElements.delete(col); }
    }
    for (let col = first; col <= last; col += 1) {
      let cellElement = element.cellElements.get(col);
      if (!cellElement) {
        cellElement = h('div', { class: 'cell', role: 'gridcell', 'aria-rowindex': String(position + 1), 'aria-colindex': String(col + 1), 'data-col': String(col) });
        cellElement.drawn = null;
        element.cellElements.set(col, cellElement);
        element.append(cellElement);
      }
      const ref = sourceRow ? formatRef({ row: sourceRow, col }) : '';
      if (cellElement.dataset.ref !== ref) cellElement.dataset.ref = ref;
      const cell = row?.cells.get(col) ?? null;
      // Drawn again only when its cell, its place or the look of every cell changed.
      if (cellElement.drawn !== cell || cellElement.drawnStamp !== this.stamp) {
        cellElement.style.left = `${rowHeaderWidth + this.colAxis.offset(col)}px`;
        cellElement.style.width = `${this.colAxis.sizeOf(col)}px`;
        this.drawCell(cellElement, cell ?? undefined);
        cellElement.drawn = cell;
        cellElement.drawnStamp = this.stamp;
      }
      const commented = ref !== '' && this.commentRefs.has(ref);
      if (cellElement.classList.contains('has-comment') !== commented) cellElement.classList.toggle('has-comment', commented);
    }
    this.paintRowSelection(position, element);
  }

  /** A cell's text and look, as stored: the server's display, bold, italic, alignment, colours. */
  drawCell(element, cell) {
    const style = cell?.style ?? {};
    element.textContent = cell?.pending ?? shownText(cell);
    element.classList.toggle('pending', cell?.pending !== undefined);
    element.style.fontWeight = style.bold ? '700' : '';
    element.style.fontStyle = style.italic ? 'italic' : '';
    const type = cell?.type ?? '';
    const align = style.horizontal ?? (numericTypes.has(type) ? 'right' : centredTypes.has(type) ? 'center' : 'left');
    element.style.textAlign = ['left', 'center', 'right', 'justify'].includes(align) ? align : (align === 'fill' || align === 'distributed' ? 'justify' : 'left');
    element.style.backgroundColor = style.fill ?? '';
    const ink = style.color ?? (style.fill ? automaticInk(style.fill) : null);
    element.style.color = ink ?? '';
    element.classList.remove('hard-to-read');
    element.removeAttribute('title');
    if (style.fill || style.color) {
      const paper = style.fill ?? this.colours.paper;
      const ratio = contrast(ink ?? this.colours.ink, paper);
      if (ratio !== null && ratio < 3) {
        element.classList.add('hard-to-read');
        element.setAttribute('title', `Hard to read in the ${effectiveTheme()} theme: text ${ink ?? this.colours.ink} on ${paper} (contrast ${ratio.toFixed(1)}:1); the imported colours are kept`);
      }
    }
    if (type === 'error') element.classList.add('error-value'); else element.classList.remove('error-value');
  }

  /** Colours of the theme changed: every cell's readability is judged again. */
  themeChanged() {
    this.colours = themeColours();
    this.rebuildAll();
  }

  /** The selection as a range. */
  range() {
    const { anchor, extent } = this.selection;
    return { top: Math.min(anchor.row, extent.row), left: Math.min(anchor.col, extent.col), bottom: Math.max(anchor.row, extent.row), right: Math.max(anchor.col, extent.col) };
  }

  /** Marks the selection (aria-selected) and the active cell (class active) on screen. */
  paintSelection() {
    for (const [position, element] of this.rowElements) this.paintRowSelection(position, element);
    const range = this.range();
    for (const [col, element] of this.columnHeaders) element.classList.toggle('in-selection', col >= range.left && col <= range.right);
  }

  paintRowSelection(position, element) {
    const range = this.range();
    const { active } = this.selection;
    const rowIn = position >= range.top && position <= range.bottom;
    element.firstChild.classList.toggle('in-selection', rowIn);
    for (const [col, cell] of element.cellElements) {
      const selected = rowIn && inRange(range, { row: position, col });
      if (cell.selected !== selected) {
        cell.selected = selected;
        cell.setAttribute('aria-selected', selected ? 'true' : 'false');
        cell.classList.toggle('selected', selected);
      }
      const isActive = position === active.row && col === active.col;
      if (cell.classList.contains('active') !== isActive) cell.classList.toggle('active', isActive);
      if (isActive) this.element.setAttribute('aria-activedescendant', this.activeId(cell));
    }
  }

  activeId(cell) {
    if (!cell.id) cell.id = `cell-${cell.getAttribute('aria-rowindex')}-${cell.getAttribute('aria-colindex')}`;
    return cell.id;
  }

  /** The box of `cell` ({row: position, col}) inside the canvas, in pixels. */
  box(cell) {
    return {
      left: rowHeaderWidth + this.colAxis.offset(cell.col), top: headerHeight + this.rowAxis.offset(cell.row),
      width: this.colAxis.sizeOf(cell.col), height: this.rowAxis.sizeOf(cell.row),
    };
  }

  /** Scrolls so `cell` is on screen, below the frozen headers. */
  scrollTo(cell) {
    this.reach(cell);
    const box = this.box(cell);
    const element = this.element;
    if (box.top - headerHeight < element.scrollTop) element.scrollTop = box.top - headerHeight;
    else if (box.top + box.height > element.scrollTop + element.clientHeight) element.scrollTop = box.top + box.height - element.clientHeight;
    if (box.left - rowHeaderWidth < element.scrollLeft) element.scrollLeft = box.left - rowHeaderWidth;
    else if (box.left + box.width > element.scrollLeft + element.clientWidth) element.scrollLeft = box.left + box.width - element.clientWidth;
    this.render();
  }

  /** The cell under a pointer event, or null. */
  cellAt(event) {
    const target = event.target.closest?.('.cell');
    if (!target) return null;
    return { row: Number(target.getAttribute('aria-rowindex')) - 1, col: Number(target.dataset.col) };
  }

  /** Header edges drag to a new size: shown as it moves, sent once on release. */
  dragHandle(handle, axis, which) {
    handle.addEventListener('pointerdown', (event) => {
      if (this.readOnly) return;
      const index = typeof which === 'function' ? which() : which;
      event.preventDefault();
      event.stopPropagation();
      const line = axis === 'col' ? this.colAxis : this.rowAxis;
      const start = axis === 'col' ? event.clientX : event.clientY;
      const initial = line.sizeOf(index);
      // On the window: redrawing the headers replaces this handle while it is dragged.
      const move = (moved) => {
        const delta = (axis === 'col' ? moved.clientX : moved.clientY) - start;
        line.set(index, Math.max(axis === 'col' ? 2 : 4, initial + delta));
        this.updateExtent();
        this.rebuildAll();
      };
      const up = () => {
        window.removeEventListener('pointermove', move);
        window.removeEventListener('pointerup', up);
        if (line.sizeOf(index) !== initial) this.onResize?.(axis, index, line.sizeOf(index));
      };
      window.addEventListener('pointermove', move);
      window.addEventListener('pointerup', up);
    });
  }
}
