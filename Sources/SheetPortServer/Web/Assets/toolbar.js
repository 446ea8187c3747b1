// The grid's toolbar: formats, undo, fills, the insert menu, sizes and the panels' buttons.
import { h } from './dom.js';
import { pixelsToPoints, pixelsToWidth } from './geometry.js';

const numberFormats = [
  ['General', 'General'], ['0', 'Number 0'], ['0.00', 'Number 0.00'], ['#,##0', 'Thousands #,##0'],
  ['#,##0.00', 'Thousands #,##0.00'], ['0%', 'Percent 0%'], ['0.00%', 'Percent 0.00%'],
  ['$#,##0.00', 'Currency $#,##0.00'], ['0.00E+00', 'Scientific'], ['m/d/yyyy', 'Date m/d/yyyy'],
  ['yyyy-mm-dd', 'Date yyyy-mm-dd'], ['h:mm', 'Time h:mm'], ['@', 'Text @'],
];

function button(action, text, label, onclick) {
  return h('button', { type: 'button', 'data-action': action, text, title: label, 'aria-label': label, onclick });
}

/** The #toolbar of `controller`'s grid; `controller.toolbar.update` follows the active cell. */
export function buildToolbar(controller) {
  const commands = controller.commands;
  const then = (work) => async () => { await work(); controller.focusGrid(); };
  const table = controller.mode === 'table';
  const formats = h('select', { id: 'number-format', 'aria-label': 'Number format' },
    numberFormats.map(([code, label]) => h('option', { value: code, text: label })));
  formats.addEventListener('change', then(() => commands.format({ numberFormat: formats.value }, 'set the number format')));
  const fill = h('input', { id: 'fill-color', type: 'color', value: '#ffffff', 'aria-label': 'Fill colour', title: 'Fill colour' });
  fill.addEventListener('change', then(() => commands.format({ fill: fill.value.toUpperCase() }, 'set the fill')));
  const ink = h('input', { id: 'text-color', type: 'color', value: '#000000', 'aria-label': 'Text colour', title: 'Text colour' });
  ink.addEventListener('change', then(() => commands.format({ color: ink.value.toUpperCase() }, 'set the text colour')));
  const width = h('input', { id: 'column-width', type: 'number', min: '0', max: '255', step: '0.01', 'aria-label': 'Column width (characters)', title: 'Column width (characters)' });
  width.addEventListener('change', () => { commands.sizeSelection('col', Number(width.value)); controller.focusGrid(); });
  const height = h('input', { id: 'row-height', type: 'number', min: '0', max: '409', step: '0.25', 'aria-label': 'Row height (points)', title: 'Row height (points)' });
  height.addEventListener('change', () => { commands.sizeSelection('row', Number(height.value)); controller.focusGrid(); });

  const insert = ['SUM', 'AVERAGE', 'COUNT', 'MIN', 'MAX'].map((name) => button(`insert-${name.toLowerCase()}`, name, `Insert ${name} for the selection`, then(() => commands.insert(name))));
  const panels = controller.panels;
  const sheetPath = `/sheets/${encodeURIComponent(controller.model.sheetId)}`;
  const groups = [
    h('div', { class: 'group', role: 'group', 'aria-label': 'Edit' },
      button('undo', '\u21b6 Undo', 'Undo your last write (Ctrl-Z)', then(() => commands.undo())),
      table ? null : button('fill-down', 'Fill \u2193', 'Fill down (Ctrl-D)', then(() => commands.fill('down'))),
      table ? null : button('fill-right', 'Fill \u2192', 'Fill right (Ctrl-R)', then(() => commands.fill('right')))),
    h('div', { class: 'group', role: 'group', 'aria-label': 'Format' },
      button('bold', 'B', 'Bold (Ctrl-B)', then(() => commands.toggle('bold'))),
      button('italic', 'I', 'Italic (Ctrl-I)', then(() => commands.toggle('italic'))),
      button('align-left', '\u2190', 'Align left', then(() => commands.format({ align: 'left' }, 'align left'))),
      button('align-center', '\u2194', 'Align centre', then(() => commands.format({ align: 'center' }, 'centre'))),
      button('align-right', '\u2192', 'Align right', then(() => commands.format({ align: 'right' }, 'align right'))),
      formats,
      h('label', { class: 'colour' }, 'Fill ', fill),
      h('label', { class: 'colour' }, 'Text ', ink),
      button('clear-format', 'Clear formatting', 'Clear formatting', then(() => commands.clearFormats()))),
    table ? null : h('div', { class: 'group', role: 'group', 'aria-label': 'Insert function' }, h('span', { class: 'group-label', text: 'Insert' }), insert),
    table ? null : h('div', { class: 'group', role: 'group', 'aria-label': 'Sizes' },
      h('label', {}, 'Width ', width), h('label', {}, 'Height ', height)),
    h('div', { class: 'group', role: 'group', 'aria-label': 'Panels' },
      button('history', 'History', 'The active cell\u2019s history', () => panels.toggle('history')),
      button('comments', 'Comments', 'Comment threads', () => panels.toggle('comments')),
      controller.role === 'owner' ? button('share', 'Share', 'Sharing: grants and links', () => panels.toggle('share')) : null,
      table ? h('a', { href: sheetPath, class: 'button-link', text: 'Grid' })
        : button('table-view', 'Table view', 'Sort and filter in the table view', () => { location.href = `${sheetPath}/table`; })),
  ];
  const toolbar = h('div', { id: 'toolbar', role: 'toolbar', 'aria-label': 'Sheet tools', 'aria-controls': 'grid' }, groups);
  if (controller.readOnly) {
    for (const control of toolbar.querySelectorAll('button, select, input')) {
      const action = control.dataset.action;
      if (!['history', 'comments', 'share', 'table-view'].includes(action)) control.disabled = true;
    }
  }
  controller.toolbar = {
    update(cell, active) {
      const style = cell?.style ?? {};
      const code = style.numFmt ?? 'General';
      if (![...formats.options].some((option) => option.value === code)) formats.append(h('option', { value: code, text: code }));
      formats.value = code;
      fill.value = (style.fill ?? '#ffffff').toLowerCase();
      ink.value = (style.color ?? '#000000').toLowerCase();
      toolbar.querySelector('[data-action=bold]')?.setAttribute('aria-pressed', style.bold ? 'true' : 'false');
      toolbar.querySelector('[data-action=italic]')?.setAttribute('aria-pressed', style.italic ? 'true' : 'false');
      const view = controller.view;
      if (document.activeElement !== width) width.value = String(Math.round(pixelsToWidth(view.colAxis.sizeOf(active.col)) * 100) / 100);
      if (document.activeElement !== height) height.value = String(pixelsToPoints(view.rowAxis.sizeOf(active.row)));
    },
  };
  return toolbar;
}
