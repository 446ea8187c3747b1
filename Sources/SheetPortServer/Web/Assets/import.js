// Importing a workbook: POST /api/imports with the file's bytes, then the job until it ends;
// its pre-flight findings and the first-worksheet statement are listed in #import-findings.
import { api, report } from './api.js';
import { h, replace } from './dom.js';
import { showError } from './status.js';

const ended = new Set(['succeeded', 'failed', 'cancelled']);

// A header value must be Latin-1 for fetch; other characters become `_` (the server names the
// sheet from the workbook, not from the file name).
function headerSafe(name) {
  return name.replace(/[^\x20-\x7e]/g, '_');
}

function findingItem(finding) {
  const count = finding.count > 1 ? ` (${finding.count})` : '';
  return h('li', { 'data-code': finding.code, 'data-severity': finding.severity ?? '', class: `finding ${finding.severity ?? ''}` },
    h('span', { class: 'severity', text: finding.severity ?? '' }), ' ',
    h('code', { text: finding.code }), ' ',
    h('span', { class: 'message', text: `${finding.message ?? ''}${count}` }));
}

async function waitForJob(id) {
  for (;;) {
    const { job } = await api('GET', `/api/imports/${encodeURIComponent(id)}`);
    if (ended.has(job.status)) return job;
    await new Promise((resolve) => { setTimeout(resolve, 250); });
  }
}

/** Imports `file`, listing what the pre-flight found in `list`; answers the job. */
export async function importWorkbook(file, list) {
  replace(list, h('li', { class: 'progress', text: `Importing ${file.name}\u2026` }));
  try {
    const { job: started } = await api('POST', '/api/imports', file, { 'Content-Type': 'application/octet-stream', 'X-Filename': headerSafe(file.name) });
    const job = await waitForJob(started.id);
    const items = [];
    if (job.status === 'succeeded') {
      const sheet = job.result.sheet;
      items.push(h('li', { class: 'statement', 'data-code': 'first-worksheet' },
        'Only the first worksheet of a workbook is imported: ',
        h('a', { href: `/sheets/${encodeURIComponent(sheet.id)}`, text: sheet.name }),
        ` from ${file.name}.`));
      for (const finding of job.result.warnings ?? []) items.push(findingItem(finding));
      showError('');
    } else {
      const error = job.error ?? { code: job.status, message: `the import was ${job.status}` };
      items.push(h('li', { class: 'statement failed', 'data-code': error.code, text: `Import of ${file.name} ${job.status}: ${error.message ?? error.code}` }));
      for (const finding of error.findings ?? []) items.push(findingItem(finding));
      showError(`import ${job.status}: ${error.message ?? error.code}`);
    }
    replace(list, items);
    return job;
  } catch (error) {
    replace(list, h('li', { class: 'statement failed', 'data-code': error.code ?? 'error', text: `Import of ${file.name} refused: ${error.message}` }),
      (error.body?.error?.findings ?? []).map(findingItem));
    report(error, `import ${file.name}`);
    return null;
  }
}
