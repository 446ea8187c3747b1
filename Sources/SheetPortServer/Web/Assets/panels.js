// The side panels of the grid: the active cell's history with restore, comment threads, and
// sharing (grants and links). One is open at a time; Escape closes it.
import { api, attempt, sheetPath } from './api.js';
import { h, replace } from './dom.js';
import { showError } from './status.js';

const titles = { history: 'History', comments: 'Comments', share: 'Sharing' };

export class Panels {
  constructor(controller) {
    this.controller = controller;
    this.open = null;
    this.element = h('aside', { class: 'panels', 'aria-label': 'Panels', hidden: true });
    this.comments = [];
  }

  get sheetId() {
    return this.controller.model.sheetId;
  }

  toggle(name) {
    if (this.open === name) { this.close(); return; }
    this.open = name;
    this.element.hidden = false;
    for (const button of document.querySelectorAll('#toolbar [data-action]')) {
      if (titles[button.dataset.action]) button.setAttribute('aria-expanded', button.dataset.action === name ? 'true' : 'false');
    }
    this.refresh();
  }

  close() {
    this.open = null;
    this.element.hidden = true;
    replace(this.element);
    for (const button of document.querySelectorAll('#toolbar [aria-expanded]')) button.setAttribute('aria-expanded', 'false');
  }

  /** Draws the open panel again from the server. */
  async refresh() {
    if (this.open === 'comments' || this.open === null) await this.loadCommentMarkers();
    if (!this.open) return;
    const name = this.open;
    const content = await (name === 'history' ? this.history() : name === 'comments' ? this.commentsPanel() : this.share());
    if (this.open !== name || !content) return;
    const focused = document.activeElement;
    const keep = focused && this.element.contains(focused) && focused.id ? focused.id : null;
    const draft = this.element.querySelector('#comment-text')?.value;
    const close = h('button', { type: 'button', class: 'close', 'aria-label': `Close ${titles[name]}`, text: '\u00d7', onclick: () => { this.close(); this.controller.focusGrid(); } });
    replace(this.element, h('section', { id: `panel-${name}`, 'aria-label': titles[name] }, h('header', {}, h('h2', { text: titles[name] }), close), content));
    const textarea = this.element.querySelector('#comment-text');
    if (textarea && draft) textarea.value = draft;
    if (keep) document.getElementById(keep)?.focus();
  }

  /** The active cell moved: its history follows. */
  selectionChanged() {
    if (this.open === 'history') this.refresh();
  }

  activeRef() {
    return this.controller.refAt(this.controller.view.selection.active);
  }

  // History.

  async history() {
    const ref = this.activeRef();
    const answer = await attempt(`read the history of ${ref}`, () => api('GET', sheetPath(this.sheetId, `/cells/${encodeURIComponent(ref)}/history`)));
    if (!answer) return null;
    const canRestore = !this.controller.readOnly;
    const items = answer.history.map((entry) => h('li', { 'data-version': String(entry.version) },
      h('div', { class: 'entry-head' }, h('strong', { text: `v${entry.version}` }), ' ', h('span', { class: 'subject', text: entry.subject ?? '' }), ' ',
        h('time', { datetime: entry.at ?? '', text: entry.at ? new Date(entry.at).toLocaleString() : '' }), entry.change ? h('span', { class: 'change', text: ` ${entry.change}` }) : null),
      h('code', { class: 'input', text: entry.input === '' ? '(empty)' : entry.input ?? '' }),
      canRestore ? h('button', { type: 'button', 'data-action': 'restore', text: 'Restore', 'aria-label': `Restore ${ref} to version ${entry.version}`, onclick: () => this.restore(ref, entry.version) }) : null));
    return h('div', {}, h('p', { class: 'panel-note', text: `Cell ${ref}, newest first` }),
      items.length ? h('ol', { class: 'history' }, items) : h('p', { text: 'No history for this cell.' }));
  }

  async restore(ref, version) {
    const answer = await this.controller.commands.writes.send(`/cells/${encodeURIComponent(ref)}/restore`, { version }, `restore ${ref}`,
      () => this.controller.commands.refreshShown());
    if (answer) { showError(''); this.refresh(); }
  }

  // Comments.

  async loadCommentMarkers() {
    const answer = await api('GET', sheetPath(this.sheetId, '/comments')).catch(() => null);
    if (!answer) return;
    this.comments = answer.comments ?? [];
    const refs = new Set(this.comments.filter((comment) => !comment.replyTo && !comment.resolved).map((comment) => comment.ref));
    const view = this.controller.view;
    const changed = refs.size !== view.commentRefs.size || [...refs].some((ref) => !view.commentRefs.has(ref));
    view.commentRefs = refs;
    if (changed) view.rebuildAll();
  }

  async commentsPanel() {
    const role = this.controller.role;
    const subject = document.body.dataset.subject ?? '';
    const canComment = role !== 'viewer';
    const threads = this.comments.filter((comment) => !comment.replyTo);
    const replies = (id) => this.comments.filter((comment) => comment.replyTo === id);
    const text = h('textarea', { id: 'comment-text', rows: '3', maxlength: '32767', 'aria-label': 'Comment text (a new thread on the active cell, or a reply)' });
    const say = (comment) => h('li', { class: 'comment', 'data-comment-id': String(comment.id) },
      h('span', { class: 'author', text: comment.author ?? '' }), ': ', h('span', { class: 'comment-text', text: comment.text ?? '' }));
    const list = threads.map((thread) => {
      const mayResolve = role === 'owner' || role === 'editor' || (role === 'commenter' && thread.author === subject);
      return h('article', { class: `thread${thread.resolved ? ' resolved' : ''}`, 'data-comment-id': String(thread.id), 'data-ref': thread.ref, 'aria-label': `Thread on ${thread.ref}` },
        h('div', { class: 'thread-head' }, h('button', { type: 'button', class: 'link', 'data-action': 'go', text: thread.ref, onclick: () => this.controller.goTo(thread.ref) }),
          thread.resolved ? h('span', { class: 'badge', text: `resolved${thread.resolvedBy ? ` by ${thread.resolvedBy}` : ''}` }) : null),
        h('ul', {}, say(thread), replies(thread.id).map(say)),
        canComment ? h('button', { type: 'button', 'data-action': 'reply', text: 'Reply', 'aria-label': `Reply to the thread on ${thread.ref} with the text below`, onclick: () => this.comment(text, thread.id) }) : null,
        mayResolve ? h('button', { type: 'button', 'data-action': 'resolve', text: thread.resolved ? 'Reopen' : 'Resolve', onclick: () => this.resolve(thread) }) : null);
    });
    return h('div', {},
      canComment ? h('div', { class: 'new-comment' }, text,
        h('button', { type: 'button', 'data-action': 'comment', text: `Comment on ${this.activeRef()}`, onclick: () => this.comment(text, null) })) : null,
      list.length ? list : h('p', { text: 'No comments yet.' }));
  }

  async comment(textarea, replyTo) {
    const text = textarea.value;
    if (!text.trim()) { showError('write the comment first'); textarea.focus(); return; }
    const body = replyTo ? { text, replyTo } : { ref: this.activeRef(), text };
    const answer = await attempt('comment', () => api('POST', sheetPath(this.sheetId, '/comments'), body));
    if (!answer) return;
    textarea.value = '';
    showError('');
    await this.refresh();
  }

  async resolve(thread) {
    const answer = await attempt('resolve the thread', () => api('POST', sheetPath(this.sheetId, `/comments/${thread.id}/resolve`), thread.resolved ? { resolved: false } : {}));
    if (answer !== undefined) { showError(''); await this.refresh(); }
  }

  // Sharing.

  async share() {
    const [grants, links] = await Promise.all([
      attempt('read the grants', () => api('GET', sheetPath(this.sheetId, '/grants'))),
      attempt('read the links', () => api('GET', sheetPath(this.sheetId, '/links'))),
    ]);
    if (!grants || !links) return null;
    const subject = h('input', { id: 'grant-subject', type: 'text', 'aria-label': 'Person (subject) to grant a role', maxlength: '256' });
    const role = h('select', { id: 'grant-role', 'aria-label': 'Role' }, ['viewer', 'commenter', 'editor'].map((name) => h('option', { value: name, text: name })));
    const grant = h('button', { type: 'button', 'data-action': 'grant', text: 'Grant', onclick: async () => {
      if (await attempt('grant the role', () => api('POST', sheetPath(this.sheetId, '/grants'), { subject: subject.value, role: role.value }))) { showError(''); this.refresh(); }
    } });
    const grantItems = grants.grants.map((entry) => h('li', { 'data-subject': entry.subject },
      h('span', { class: 'subject', text: entry.subject }), ' ', h('span', { class: 'role', text: entry.role }), ' ',
      h('button', { type: 'button', 'data-action': 'revoke', text: 'Revoke', 'aria-label': `Revoke ${entry.subject}`, onclick: async () => {
        if (await attempt('revoke the grant', () => api('DELETE', sheetPath(this.sheetId, `/grants/${encodeURIComponent(entry.subject)}`))) !== undefined) this.refresh();
      } })));
    this.createdLinks ??= new Map();
    const linkItems = links.links.map((link) => {
      const url = this.createdLinks.get(link.id);
      return h('li', { 'data-link-id': link.id },
        h('span', { class: 'role', text: link.role }), ' ',
        url ? h('input', { class: 'link-url', type: 'text', readonly: true, value: url, 'aria-label': `${link.role} link address`, onfocus: (event) => event.target.select() })
          : h('span', { class: 'panel-note', text: 'address shown only when made' }),
        h('button', { type: 'button', 'data-action': 'delete-link', text: 'Delete link', 'aria-label': `Delete the ${link.role} link`, onclick: async () => {
          if (await attempt('delete the link', () => api('DELETE', sheetPath(this.sheetId, `/links/${encodeURIComponent(link.id)}`))) !== undefined) this.refresh();
        } }));
    });
    const createLink = (linkRole) => h('button', { type: 'button', 'data-action': 'create-link', 'data-role': linkRole, text: `New ${linkRole} link`, onclick: async () => {
      const answer = await attempt('create the link', () => api('POST', sheetPath(this.sheetId, '/links'), { role: linkRole }));
      if (!answer) return;
      const url = answer.link.url ?? new URL(`/l/${answer.link.token}`, location.origin).href;
      this.createdLinks.set(answer.link.id, url);
      showError('');
      await this.refresh();
    } });
    return h('div', {},
      h('h3', { text: 'People' }),
      h('ul', { class: 'grants' }, grantItems),
      h('div', { class: 'grant-form' }, subject, role, grant),
      h('h3', { text: 'Links' }),
      h('ul', { class: 'links' }, linkItems),
      h('div', { class: 'link-form' }, createLink('viewer'), createLink('commenter')));
  }
}
