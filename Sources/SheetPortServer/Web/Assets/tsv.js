// Tab-separated values as Excel puts them on the clipboard: a field holding a tab, a line
// break or a quote is quoted with its quotes doubled; each row ends with a newline.

function field(value) {
  return /[\t\n\r"]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The rows (arrays of strings) as TSV text. */
export function encodeTSV(rows) {
  return rows.map((row) => `${row.map(field).join('\t')}\n`).join('');
}

/** The rows of TSV `text`; a final newline ends the last row rather than starting one. */
export function decodeTSV(text) {
  const rows = [];
  let row = [];
  let value = '';
  let quoted = false;
  let atFieldStart = true;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (quoted) {
      if (character === '"') {
        if (text[index + 1] === '"') { value += '"'; index += 1; } else quoted = false;
      } else value += character;
      continue;
    }
    if (character === '"' && atFieldStart) {
      quoted = true;
      atFieldStart = false;
    } else if (character === '\t') {
      row.push(value); value = ''; atFieldStart = true;
    } else if (character === '\n' || character === '\r') {
      if (character === '\r' && text[index + 1] === '\n') index += 1;
      row.push(value); value = ''; atFieldStart = true;
      rows.push(row); row = [];
    } else {
      value += character;
      atFieldStart = false;
    }
  }
  if (!atFieldStart || row.length > 0 || quoted) { row.push(value); rows.push(row); }
  return rows;
}
