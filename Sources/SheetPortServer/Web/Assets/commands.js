// What the grid does to the sheet: formats, clearing, fills, the insert menu, undo, sizes and
// the clipboard (TSV through the browser's clipboard events).
import { knownLimits, serverLimits } from './api.js';
import { widthToPixels, pointsToPixels } from './geometry.js';
import { columnName, columnNumber, formatRange, formatRef, maxColumns, maxRows, rangeSize } from './refs.js';
import { showError } from './status.js';
import { decodeTSV, encodeTSV } from './tsv.js';
import { WriteQueue } from './writes.js';
import { shownText } from './view.js';

const encoder = new TextEncoder();
const windowRows = 5000;

export class GridCommands {
  constructor(controller) {
    this.controller = controller;
    this.model = controller.model;
    this.writes = new WriteQueue(controller.model);
    this.writes.onMore = () => this.refreshShown();
    this.clipboard = null;   // { text, range, cut }
    document.addEventListener('copy', (event) => this.copy(event, false));
    document.addEventListener('cut', (event) => this.copy(event, true));
    document.addEventListener('paste', (event) => this.paste(event));
  }

  get view() {
    return this.controller.view;
  }

  /** Refuses with a message for viewers and commenters; answers whether writing may go on. */
  writable() {
    if (!this.controller.readOnly) return true;
    showError('read-only: this sheet cannot be edited with your role');
    return false;
  }

  /** Fetches again the rows on screen. */
  refreshShown() {
    const shown = this.view.lastVisible ?? this.view.visible();
    return this.model.refresh(1, Number.MAX_SAFE_INTEGER, { first: shown.firstRow, last: shown.lastRow }).catch(() => null);
  }

  /** Fetches again the rows of `range` that are on screen (the rest when shown). */
  refreshRange(range) {
    const shown = this.view.lastVisible ?? this.view.visible();
    return this.model.refresh(range.top, range.bottom, { first: shown.firstRow, last: shown.lastRow }).catch(() => null);
  }

  /** The selection in storage references; in the table view only its active cell. */
  targetRange() {
    if (this.model.mode !== 'table') return this.view.range();
    const { active } = this.view.selection;
    const row = this.model.sourceRow(active.row);
    return row ? { top: row, bottom: row, left: active.col, right: active.col } : null;
  }

  // Formats.

  format(set, doing) {
    const range = this.targetRange();
    if (!range || !this.writable()) return null;
    return this.writes.send('/format', { range: formatRange(range), set }, doing, () => this.afterStorageWrite(range));
  }

  afterStorageWrite(range) {
    return this.model.mode === 'table' ? this.refreshShown() : this.refreshRange(range);
  }

  /** Ctrl-B / Ctrl-I: the active cell's state decides on or off for the whole selection. */
  toggle(flag) {
    const cell = this.controller.cellAt(this.view.selection.active);
    return this.format({ [flag]: !(cell?.style?.[flag] === true) }, `set ${flag}`);
  }

  clearFormats() {
    const range = this.targetRange();
    if (!range || !this.writable()) return null;
    return this.writes.send('/format', { range: formatRange(range), clear: true }, 'clear the formats', () => this.afterStorageWrite(range));
  }

  /** Delete: the selection's contents (`what` contents, formats or all). */
  clear(what) {
    const range = this.targetRange();
    if (!range || !this.writable()) return null;
    return this.writes.send('/clear', { range: formatRange(range), what }, `clear ${formatRange(range)}`,
      () => (this.model.mode === 'table' ? this.refreshShown() : null));
  }

  undo() {
    if (!this.writable()) return null;
    return this.writes.send('/undo', {}, 'undo', async () => {
      showError('');
      await this.reloadMeta();
      await this.refreshShown();
    });
  }

  /** The sheet's metadata again (sizes, names), applied to the grid. */
  async reloadMeta() {
    try {
      const meta = await this.model.loadMeta();
      this.view.applyMeta(meta);
      this.controller.titleElement.textContent = meta.name;
      document.title = `${meta.name} - SheetPort`;
    } catch {
      // The next event or reload tries again.
    }
  }

  // Sizes.

  /** POST sizes: { rows: { "3": points }, columns: { B: width } }, drawn at once. */
  sizes(body) {
    if (!this.writable() || this.model.mode === 'table') return null;
    for (const [letters, width] of Object.entries(body.columns ?? {})) this.view.colAxis.set(columnNumber(letters), width === null ? null : widthToPixels(width));
    for (const [row, points] of Object.entries(body.rows ?? {})) this.view.rowAxis.set(Number(row), points === null ? null : pointsToPixels(points));
    this.view.updateExtent();
    this.view.rebuildAll();
    return this.writes.send('/sizes', body, 'set the size', () => this.reloadMeta());
  }

  /** The size fields: the selected columns' width or rows' height (at most 1,000 at once). */
  sizeSelection(axis, value) {
    const range = this.view.range();
    if (!Number.isFinite(value)) { showError('a size is a number'); return; }
    if (axis === 'col') {
      const columns = {};
      for (let col = range.left; col <= Math.min(range.right, range.left + 999); col += 1) columns[columnName(col)] = value;
      this.sizes({ columns });
    } else {
      const rows = {};
      for (let row = range.top; row <= Math.min(range.bottom, range.top + 999); row += 1) rows[String(row)] = value;
      this.sizes({ rows });
    }
  }

  // Fill down and right: the server's copy translates the formulas.

  fill(direction) {
    if (!this.writable() || this.model.mode === 'table') return null;
    const range = this.view.range();
    const down = direction === 'down';
    let source;
    let target;
    if (down ? range.bottom > range.top : range.right > range.left) {
      source = down ? { ...range, bottom: range.top } : { ...range, right: range.left };
      target = down ? { ...range, top: range.top + 1 } : { ...range, left: range.left + 1 };
    } else {
      if (down ? range.top === 1 : range.left === 1) { showError(`fill ${direction}: nothing ${down ? 'above' : 'to the left'} to fill from`); return null; }
      source = down ? { ...range, top: range.top - 1, bottom: range.top - 1 } : { ...range, left: range.left - 1, right: range.left - 1 };
      target = range;
    }
    return this.writes.send('/copy', { source: formatRange(source), target: formatRange(target) }, `fill ${direction}`);
  }

  // The insert menu: where the function goes and what it reads, as the terminal grid decides.

  async insert(name) {
    if (!this.writable() || this.model.mode === 'table') return;
    const range = this.view.range();
    const { active } = this.view.selection;
    const isNumber = async (row, col) => {
      if (row < 1 || col < 1) return false;
      if (!this.model.isLoaded(row)) await this.model.ensure(row, row);
      return this.model.cellAt(row, col)?.type === 'number';
    };
    let inputs;
    try {
      if (range.top === range.bottom && range.left === range.right) {
        let top = active.row;
        while (await isNumber(top - 1, active.col)) top -= 1;
        let argument = null;
        if (top < active.row) argument = formatRange({ top, bottom: active.row - 1, left: active.col, right: active.col });
        else {
          let left = active.col;
          while (await isNumber(active.row, left - 1)) left -= 1;
          if (left < active.col) argument = formatRange({ top: active.row, bottom: active.row, left, right: active.col - 1 });
        }
        if (argument === null) { this.controller.openEditor(`=${name}(`, 'edit'); return; }
        inputs = [{ ref: formatRef(active), input: `=${name}(${argument})` }];
      } else if (range.top === range.bottom) {
        if (range.right + 1 > maxColumns) { showError(`${name}: no room for the result past the sheet's edge`); return; }
        inputs = [{ ref: formatRef({ row: range.top, col: range.right + 1 }), input: `=${name}(${formatRange(range)})` }];
      } else {
        if (range.bottom + 1 > maxRows) { showError(`${name}: no room for the result past the sheet's edge`); return; }
        if (range.right - range.left >= 16384) return;
        inputs = [];
        for (let col = range.left; col <= range.right; col += 1) {
          inputs.push({ ref: formatRef({ row: range.bottom + 1, col }), input: `=${name}(${formatRange({ top: range.top, bottom: range.bottom, left: col, right: col })})` });
        }
      }
    } catch (error) {
      showError(`cannot read the cells for ${name}: ${error.message}`);
      return;
    }
    const limits = await serverLimits().catch(() => null);
    const refusal = limits ? batchRefusal(inputs, limits, name) : null;
    if (refusal) { showError(refusal); return; }
    await this.writes.send('/cells', { cells: inputs }, `insert ${name}`);
  }

  // The clipboard.

  gridFocused() {
    return document.activeElement === this.view.element;
  }

  /** The display texts of `range` (storage rows), fetched where not loaded. */
  async texts(range) {
    const rows = [];
    for (let start = range.top; start <= range.bottom; start += windowRows) {
      const count = Math.min(windowRows, range.bottom - start + 1);
      const byRow = new Map();
      if (this.model.mode !== 'table' && [...Array(Math.ceil(count / 100)).keys()].every((k) => this.model.isLoaded(start + k * 100)) && this.model.isLoaded(start + count - 1)) {
        for (let row = start; row < start + count; row += 1) byRow.set(row, this.model.rowAt(row)?.cells);
      } else {
        const { fetched } = await this.model.fetchWindow(start, start + count);
        for (const { position, row } of fetched) byRow.set(position, new Map(row.cells.map((cell) => [cell.col, cell])));
      }
      for (let row = start; row < start + count; row += 1) {
        const cells = byRow.get(row);
        const line = [];
        for (let col = range.left; col <= range.right; col += 1) line.push(shownText(cells?.get(col)));
        rows.push(line);
      }
    }
    return rows;
  }

  /** Whether every row of `range` is loaded (the copy event can then answer at once). */
  loaded(range) {
    for (let row = range.top; row <= range.bottom; row += 100) if (!this.model.isLoaded(row)) return false;
    return this.model.isLoaded(range.bottom);
  }

  async copy(event, cut) {
    if (!this.gridFocused()) return;
    event.preventDefault();
    const range = this.targetRange();
    if (!range) return;
    if (cut && !this.writable()) return;
    // No await before setData: the clipboard event must be answered while it is dispatched.
    const cap = knownLimits()?.maxBatchCells ?? 100000;
    if (rangeSize(range) > cap) {
      showError(`copy refused: ${rangeSize(range)} cells is over the server's maxBatchCells of ${cap}; nothing was copied`);
      return;
    }
    if (this.model.mode === 'table' || this.loaded(range)) {
      const rows = [];
      for (let row = range.top; row <= range.bottom; row += 1) {
        const position = this.model.mode === 'table' ? this.view.selection.active.row : row;
        const line = [];
        for (let col = range.left; col <= range.right; col += 1) line.push(shownText(this.model.cellAt(position, col)));
        rows.push(line);
      }
      const text = encodeTSV(rows);
      event.clipboardData.setData('text/plain', text);
      this.remember(text, range, cut);
      return;
    }
    try {
      const text = encodeTSV(await this.texts(range));
      await navigator.clipboard.writeText(text);
      this.remember(text, range, cut);
    } catch (error) {
      showError(`cannot copy ${formatRange(range)}: ${error.message}`);
    }
  }

  remember(text, range, cut) {
    this.clipboard = { text, range, cut };
    showError('');
    this.view.element.classList.toggle('cut-pending', cut);
  }

  async paste(event) {
    if (!this.gridFocused()) return;
    event.preventDefault();
    if (!this.writable()) return;
    const text = event.clipboardData?.getData('text/plain') ?? '';
    const limits = await serverLimits().catch(() => null);
    if (!limits) { showError('paste refused: the server\u2019s limits cannot be read; nothing was pasted'); return; }
    const selection = this.view.selection;
    const range = this.targetRange();
    if (!range) return;
    const origin = this.clipboard;
    if (origin && normalized(origin.text) === normalized(text) && this.model.mode !== 'table') {
      const height = origin.range.bottom - origin.range.top + 1;
      const width = origin.range.right - origin.range.left + 1;
      const target = rangeSize(range) > 1 ? range : { top: range.top, left: range.left, bottom: range.top + height - 1, right: range.left + width - 1 };
      const cells = Math.max(height * width, rangeSize(target));
      if (cells > limits.maxBatchCells) { showError(`paste refused: ${cells} cells is over the server's maxBatchCells of ${limits.maxBatchCells}; nothing was pasted`); return; }
      if (range.top + height - 1 > maxRows || range.left + width - 1 > maxColumns) { showError(`paste refused: ${formatRange(target)} reaches past the sheet's edge; nothing was pasted`); return; }
      const answer = await this.writes.send('/copy', { source: formatRange(origin.range), target: formatRange(target) }, 'paste');
      if (!answer) return;
      if (origin.cut) await this.finishCut(origin.range, target);
      this.controller.setSelection({ row: target.top, col: target.left }, { row: target.top, col: target.left }, { row: target.bottom, col: target.right });
      return;
    }
    const rows = decodeTSV(text);
    const width = Math.max(0, ...rows.map((row) => row.length));
    if (rows.length === 0 || width === 0) { showError('the clipboard is empty'); return; }
    const count = rows.length * width;
    if (count > limits.maxBatchCells) { showError(`paste refused: ${count} cells is over the server's maxBatchCells of ${limits.maxBatchCells}; nothing was pasted`); return; }
    const end = { row: range.top + rows.length - 1, col: range.left + width - 1 };
    if (end.row > maxRows || end.col > maxColumns) { showError(`paste refused: ${formatRef({ row: range.top, col: range.left })}:${columnName(Math.min(end.col, maxColumns))}${end.row} reaches past the sheet's edge; nothing was pasted`); return; }
    if (this.model.mode === 'table' && rows.length > 1) { showError('paste refused: the table view takes one row at a time; nothing was pasted'); return; }
    const inputs = [];
    rows.forEach((row, rowOffset) => {
      for (let col = 0; col < width; col += 1) inputs.push({ ref: formatRef({ row: range.top + rowOffset, col: range.left + col }), input: row[col] ?? '' });
    });
    const refusal = batchRefusal(inputs, limits);
    if (refusal) { showError(refusal); return; }
    const answer = await this.writes.send('/cells', { cells: inputs }, 'paste');
    if (answer && inputs.length > 1 && this.model.mode !== 'table') {
      this.controller.setSelection(selection.active, selection.active, end);
    }
  }

  /** After a cut is pasted: the source cells outside the target are emptied. */
  async finishCut(source, target) {
    this.clipboard = null;
    this.view.element.classList.remove('cut-pending');
    const overlaps = !(source.bottom < target.top || source.top > target.bottom || source.right < target.left || source.left > target.right);
    if (!overlaps) { await this.writes.send('/clear', { range: formatRange(source), what: 'all' }, 'cut'); return; }
    const inputs = [];
    for (let row = source.top; row <= source.bottom; row += 1) {
      for (let col = source.left; col <= source.right; col += 1) {
        if (row < target.top || row > target.bottom || col < target.left || col > target.right) inputs.push({ ref: formatRef({ row, col }), input: '' });
      }
    }
    if (inputs.length) await this.writes.send('/cells', { cells: inputs }, 'cut');
  }
}

// Line ends differ between what was written and what the clipboard hands back.
function normalized(text) {
  return text.replace(/\r\n?/g, '\n').replace(/\n$/, '');
}

/** The message refusing `inputs` whole when one write of them passes a cap, or null. */
export function batchRefusal(inputs, limits, what = 'paste') {
  if (inputs.length > limits.maxBatchCells) return `${what} refused: ${inputs.length} cells is over the server's maxBatchCells of ${limits.maxBatchCells}; nothing was written`;
  const bytes = encoder.encode(JSON.stringify({ cells: inputs })).length;
  if (bytes > limits.maxBatchBytes) return `${what} refused: ${bytes} bytes is over the server's maxBatchBytes of ${limits.maxBatchBytes}; nothing was written`;
  return null;
}
