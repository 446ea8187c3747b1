// What the grid shows: the sheet's metadata and the rows windows on screen, fetched in chunks
// of rows (GET rows, or GET view for the table view), following `next` when a window stops early.
import { api, sheetPath } from './api.js';
import { parseRef } from './refs.js';

/** Rows a chunk holds: the unit of fetching and of refetching. */
export const chunkRows = 100;
/** Chunks kept in memory: scrolling through a million rows holds 20,000 of them at most. */
const keptChunks = 200;

export class SheetModel {
  /** `mode` is `grid` (storage rows) or `table` (view positions, with `query` sort and filter). */
  constructor(sheetId, mode, query = '') {
    this.sheetId = sheetId;
    this.mode = mode;
    this.query = query;
    this.meta = null;
    this.version = 0;
    this.rows = new Map();        // position -> { row, height, hidden, cells: Map(col -> cell) }
    this.chunks = new Map();      // chunk index -> { generation, loaded }
    this.total = null;            // table view: rows in the view
    this.listeners = new Set();
    this.generation = 0;
  }

  /** Calls `listener(kind, detail)` on `rows` (positions changed) and `version`. */
  listen(listener) {
    this.listeners.add(listener);
  }

  emit(kind, detail) {
    for (const listener of this.listeners) listener(kind, detail);
  }

  noteVersion(version) {
    if (typeof version === 'number' && version > this.version) {
      this.version = version;
      this.emit('version', version);
    }
  }

  /** GET the sheet's metadata. */
  async loadMeta() {
    this.meta = await api('GET', sheetPath(this.sheetId));
    this.noteVersion(this.meta.version);
    return this.meta;
  }

  windowPath(start, count) {
    if (this.mode === 'table') {
      const query = this.query ? `${this.query}&` : '';
      return sheetPath(this.sheetId, `/view?${query}start=${start}&count=${count}`);
    }
    return sheetPath(this.sheetId, `/rows?start=${start}&count=${count}`);
  }

  /** The row at `position`, or undefined when not loaded or empty. */
  rowAt(position) {
    return this.rows.get(position);
  }

  /** The cell at `position`, `col`, or undefined. */
  cellAt(position, col) {
    return this.rows.get(position)?.cells.get(col);
  }

  /** Whether the chunk holding `position` is loaded. */
  isLoaded(position) {
    return this.chunks.get(Math.floor((position - 1) / chunkRows))?.loaded === true;
  }

  /** Loads the chunks covering positions `first`...`last` not yet loaded (or all, `force`). */
  ensure(first, last, force = false) {
    this.evictAround(first, last);
    const loads = [];
    for (let chunk = Math.floor((first - 1) / chunkRows); chunk <= Math.floor((last - 1) / chunkRows); chunk += 1) {
      const state = this.chunks.get(chunk);
      if (!force && state) { if (state.promise) loads.push(state.promise); continue; }
      loads.push(this.loadChunk(chunk));
    }
    return Promise.all(loads);
  }

  /**
   * Forgets the chunks overlapping positions `first`...`last` (they are fetched again when
   * shown) and fetches again those of them inside `shown` ({first, last}, the rows on screen).
   */
  refresh(first, last, shown) {
    for (const chunk of [...this.chunks.keys()]) {
      const start = chunk * chunkRows + 1;
      if (start + chunkRows - 1 >= first && start <= last) this.chunks.delete(chunk);
    }
    const from = Math.max(first, shown.first);
    const to = Math.min(last, shown.last);
    return from <= to ? this.ensure(from, to) : Promise.resolve();
  }

  /** Keeps at most `keptChunks` chunks: those farthest from `first`...`last` are forgotten. */
  evictAround(first, last) {
    if (this.chunks.size <= keptChunks) return;
    const middle = (first + last) / 2;
    const far = [...this.chunks.keys()].filter((chunk) => !this.chunks.get(chunk).promise)
      .sort((a, b) => Math.abs(b * chunkRows - middle) - Math.abs(a * chunkRows - middle));
    for (const chunk of far.slice(0, this.chunks.size - keptChunks)) {
      this.chunks.delete(chunk);
      for (let position = chunk * chunkRows + 1; position <= (chunk + 1) * chunkRows; position += 1) this.rows.delete(position);
    }
  }

  /**
   * The rows of positions `start` up to `end` (excluded) from the server, following `next`
   * when a window stops early: { fetched: [{ position, row }], version }.
   */
  async fetchWindow(start, end) {
    const fetched = [];
    let next = start;
    let version = 0;
    while (next !== null && next < end) {
      const answer = await api('GET', this.windowPath(next, end - next));
      version = Math.max(version, answer.version ?? 0);
      if (typeof answer.total === 'number') this.total = answer.total;
      const from = next;
      answer.rows.forEach((row, index) => fetched.push({ position: this.mode === 'table' ? from + index : row.row, row }));
      if (answer.next === null || answer.next === undefined || answer.next <= next) break;
      next = answer.next;
    }
    return { fetched, version };
  }

  async loadChunk(chunk) {
    this.generation += 1;
    const generation = this.generation;
    const state = { generation, loaded: this.chunks.get(chunk)?.loaded ?? false };
    this.chunks.set(chunk, state);
    const start = chunk * chunkRows + 1;
    const end = start + chunkRows;
    state.promise = (async () => {
      let fetched;
      let version;
      try {
        ({ fetched, version } = await this.fetchWindow(start, end));
      } catch (error) {
        if (this.chunks.get(chunk) === state) this.chunks.delete(chunk);
        throw error;
      }
      if (this.chunks.get(chunk) !== state || state.generation !== generation) return;
      for (let position = start; position < end; position += 1) this.rows.delete(position);
      for (const { position, row } of fetched) {
        this.rows.set(position, { row: row.row, height: row.height ?? null, hidden: row.hidden === true,
          cells: new Map(row.cells.map((cell) => [cell.col, cell])) });
      }
      state.loaded = true;
      state.promise = null;
      this.noteVersion(version);
      this.emit('rows', { first: start, last: end - 1 });
    })();
    return state.promise;
  }

  /**
   * Applies a write's `changed` cells (grid mode: storage positions); answers whether each
   * landed in a loaded chunk (else the chunk is fetched when shown).
   */
  applyChanged(changed) {
    let first = Infinity;
    let last = -Infinity;
    for (const cell of changed ?? []) {
      const ref = parseRef(cell.ref);
      if (!ref) continue;
      const position = this.mode === 'table' ? this.positionOfSource(ref.row) : ref.row;
      if (position === null || !this.isLoaded(position)) continue;
      let row = this.rows.get(position);
      if (!row) { row = { row: ref.row, height: null, hidden: false, cells: new Map() }; this.rows.set(position, row); }
      if (cell.type === 'empty' && !cell.style) row.cells.delete(ref.col);
      else row.cells.set(ref.col, { ...cell, col: ref.col });
      first = Math.min(first, position);
      last = Math.max(last, position);
    }
    if (first <= last) this.emit('rows', { first, last });
  }

  /** The view position showing storage row `row` (table view), or null. */
  positionOfSource(row) {
    for (const [position, entry] of this.rows) if (entry.row === row) return position;
    return null;
  }

  /** The storage row at `position`. */
  sourceRow(position) {
    if (this.mode !== 'table') return position;
    return this.rows.get(position)?.row ?? null;
  }
}
