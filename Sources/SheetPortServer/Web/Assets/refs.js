// A1 references: the grid's coordinates are { row, col } numbers from 1.

/** Excel's grid. */
export const maxRows = 1048576;
export const maxColumns = 16384;

/** The column's letters (1 -> A, 28 -> AB). */
export function columnName(col) {
  let name = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** The column number of letters (AB -> 28), or 0 when not letters of the grid. */
export function columnNumber(letters) {
  if (!/^[A-Za-z]{1,3}$/.test(letters)) return 0;
  let col = 0;
  for (const letter of letters.toUpperCase()) col = col * 26 + (letter.charCodeAt(0) - 64);
  return col <= maxColumns ? col : 0;
}

/** `B2` for { row: 2, col: 2 }. */
export function formatRef(cell) {
  return `${columnName(cell.col)}${cell.row}`;
}

/** { row, col } of `B2` / `$B$2`, or null. */
export function parseRef(text) {
  const match = /^\$?([A-Za-z]{1,3})\$?([0-9]{1,7})$/.exec(text.trim());
  if (!match) return null;
  const col = columnNumber(match[1]);
  const row = Number(match[2]);
  return col && row >= 1 && row <= maxRows ? { row, col } : null;
}

/** A range { top, left, bottom, right } from two corners in any order. */
export function rangeOf(a, b) {
  return { top: Math.min(a.row, b.row), left: Math.min(a.col, b.col), bottom: Math.max(a.row, b.row), right: Math.max(a.col, b.col) };
}

/** `A1:B3`, or `A1` for one cell. */
export function formatRange(range) {
  const start = formatRef({ row: range.top, col: range.left });
  if (range.top === range.bottom && range.left === range.right) return start;
  return `${start}:${formatRef({ row: range.bottom, col: range.right })}`;
}

/** The number of cells of `range`. */
export function rangeSize(range) {
  return (range.bottom - range.top + 1) * (range.right - range.left + 1);
}

/** Whether `cell` lies in `range`. */
export function inRange(range, cell) {
  return cell.row >= range.top && cell.row <= range.bottom && cell.col >= range.left && cell.col <= range.right;
}

/**
 * What the address field takes: a cell (`C7`, `$B$2`), a range (`A1:C9`), whole columns (`B:D`),
 * whole rows (`3:5`), as a range; null otherwise (then the caller tries the defined names).
 */
export function parseAddress(text) {
  const trimmed = text.trim();
  const [first, second, extra] = trimmed.split(':');
  if (extra !== undefined || first === undefined) return null;
  if (second === undefined) {
    const cell = parseRef(first);
    return cell ? rangeOf(cell, cell) : null;
  }
  const a = parseRef(first);
  const b = parseRef(second);
  if (a && b) return rangeOf(a, b);
  const columns = [first, second].map((part) => columnNumber(part.replaceAll('$', '')));
  if (columns[0] && columns[1] && /^\$?[A-Za-z]+$/.test(first) && /^\$?[A-Za-z]+$/.test(second)) {
    return { top: 1, bottom: maxRows, left: Math.min(...columns), right: Math.max(...columns) };
  }
  const rows = [first, second].map((part) => (/^\$?[0-9]{1,7}$/.test(part) ? Number(part.replaceAll('$', '')) : 0));
  if (rows[0] >= 1 && rows[1] >= 1 && rows[0] <= maxRows && rows[1] <= maxRows) {
    return { top: Math.min(...rows), bottom: Math.max(...rows), left: 1, right: maxColumns };
  }
  return null;
}
