// Mnemos session inspector: a small script over Mnemos' JSON API (docs/inspector.md).
// Memory content is untrusted: every piece of data reaches the page as a text node (textContent),
// never as markup. The page has no endpoint of its own; every read and action is an API call made
// with the signed-in user's token (kept in sessionStorage) or the browser's own credentials.
(function () {
  'use strict';

  const TOKEN_KEY = 'mnemos.inspector.token';
  const PAGE = 20;
  const NEXT_CURSOR = 'Mnemos-Next-Cursor';
  const base = new URL(document.querySelector('meta[name="mnemos-api-base"]').content, location.href);

  const $ = (id) => document.getElementById(id);

  /** Builds an element; string children become text nodes, so data is never parsed as HTML. */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name === 'text') node.textContent = String(value);
      else if (name === 'onclick') node.addEventListener('click', value);
      else node.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child === undefined || child === null || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  /** A text cell or block that keeps the stored text exactly, whatever its script or direction. */
  const text = (tag, value, attrs) => el(tag, Object.assign({ dir: 'auto', class: 'text' }, attrs || {}), value == null ? '' : String(value));
  const sessionLink = (id, label) => el('a', { href: '#/session/' + encodeURIComponent(id), class: 'mono' }, label || id);
  const when = (at) => at ? el('time', { datetime: at }, String(at).replace('T', ' ').replace(/\.\d+Z$/, 'Z')) : '';

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  function show(message, kind) {
    const box = $('message');
    box.textContent = message;
    box.className = kind === 'info' ? 'info' : '';
    box.hidden = false;
  }

  function hideMessage() {
    $('message').hidden = true;
    $('message').textContent = '';
  }

  // ---- API ----------------------------------------------------------------------------------

  class ApiError extends Error {
    constructor(status, problem) {
      super((problem && (problem.detail || problem.title)) || ('HTTP ' + status));
      this.status = status;
      this.problem = problem || {};
    }
  }

  function token() {
    return sessionStorage.getItem(TOKEN_KEY);
  }

  async function api(path, options) {
    const opts = Object.assign({ method: 'GET' }, options || {});
    const headers = { Accept: 'application/json' };
    if (token()) headers.Authorization = 'Bearer ' + token();
    if (window.mnemosDevHeaders) Object.assign(headers, window.mnemosDevHeaders()); // dev-user.js, dev mode only
    const init = { method: opts.method, headers, credentials: 'same-origin' };
    if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(opts.body);
    }
    let response;
    try {
      response = await fetch(new URL(path, base), init);
    } catch (e) {
      throw new ApiError(0, { detail: 'the server could not be reached' });
    }
    const type = response.headers.get('Content-Type') || '';
    const body = type.includes('json') ? await response.json().catch(() => null) : await response.text();
    if (!response.ok) {
      if (response.status === 401 && !opts.quiet) signedOut('Your credentials were refused (401): sign in again.');
      throw new ApiError(response.status, typeof body === 'object' ? body : null);
    }
    return { body, headers: response.headers, status: response.status };
  }

  const get = async (path) => (await api(path)).body;
  const enc = encodeURIComponent;

  function failure(e, what) {
    if (e.status === 401) return;
    if (e.status === 404) show(what + ': not found (it does not exist, or it is not yours).');
    else if (e.status === 409) show(what + ': ' + e.message);
    else show(what + ' failed' + (e.status ? ' (' + e.status + ')' : '') + ': ' + e.message);
  }

  // ---- sign-in --------------------------------------------------------------------------------

  let me = null;

  /**
   * The caller's user id, from their profile. An application without the profile layer has no v1/profile (404): one
   * page of the caller's sessions then checks the credentials, and the user is the dev-mode pick, or unnamed.
   */
  async function whoAmI() {
    try {
      return { user: (await api('v1/profile', { quiet: true })).body.userId, profile: true };
    } catch (e) {
      if (e.status !== 404) throw e;
    }
    await api('v1/sessions?limit=1', { quiet: true });
    const picked = window.mnemosDevUser ? window.mnemosDevUser() : null; // dev-user.js, dev mode only
    return { user: picked || 'this user', profile: false };
  }

  async function signIn() {
    try {
      const caller = await whoAmI();
      me = caller.user;
      $('whoami').textContent = 'Signed in as ' + me;
      $('nav-profile').hidden = !caller.profile;
      $('nav').hidden = false;
      return true;
    } catch (e) {
      me = null;
      $('nav').hidden = true;
      $('whoami').textContent = 'Not signed in';
      if (e.status === 401 && token()) {
        sessionStorage.removeItem(TOKEN_KEY);
        show('The token was refused (401): paste a valid one.');
      } else if (e.status && e.status !== 401) {
        failure(e, 'Signing in');
      }
      return false;
    }
  }

  function signedOut(reason) {
    sessionStorage.removeItem(TOKEN_KEY);
    me = null;
    $('nav').hidden = true;
    $('whoami').textContent = 'Not signed in';
    showView('view-signin');
    if (reason) show(reason);
  }

  async function probeDevToken() {
    try {
      const response = await fetch(new URL('dev/token', base), { method: 'HEAD' });
      $('dev-form').hidden = !response.ok;
    } catch (e) {
      $('dev-form').hidden = true;
    }
  }

  $('token-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const value = $('token-input').value.trim().replace(/^Bearer\s+/i, '');
    if (!value) return;
    sessionStorage.setItem(TOKEN_KEY, value);
    $('token-input').value = '';
    await start();
  });

  $('dev-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const user = $('dev-user').value.trim() || 'dev-user';
    const response = await fetch(new URL('dev/token?user=' + enc(user), base));
    if (!response.ok) {
      show('No dev token (' + response.status + '): paste a token instead.');
      return;
    }
    sessionStorage.setItem(TOKEN_KEY, (await response.text()).trim());
    await start();
  });

  $('sign-out').addEventListener('click', () => signedOut(null));

  // ---- views ----------------------------------------------------------------------------------

  const VIEWS = ['view-signin', 'view-sessions', 'view-session', 'view-profile'];

  function showView(id) {
    for (const view of VIEWS) $(view).hidden = view !== id;
    for (const [link, view] of [['nav-sessions', 'view-sessions'], ['nav-profile', 'view-profile']]) {
      if (view === id) $(link).setAttribute('aria-current', 'page');
      else $(link).removeAttribute('aria-current');
    }
  }

  async function route() {
    if (!me) {
      showView('view-signin');
      return;
    }
    const hash = location.hash.replace(/^#\/?/, '');
    const parts = hash.split('/').map(decodeURIComponent);
    if (parts[0] === 'session' && parts[1]) {
      const version = parts[2] === 'v' && parts[3] ? Number(parts[3]) : null;
      await openSession(parts[1], version);
    } else if (parts[0] === 'profile') {
      await openProfile();
    } else {
      await openSessions();
    }
  }

  window.addEventListener('hashchange', () => {
    hideMessage();
    route();
  });

  // ---- sessions -------------------------------------------------------------------------------

  const live = { ids: [], shown: 0, cursor: null, serverPaged: false };
  const ended = { cursor: null };

  async function openSessions() {
    showView('view-sessions');
    clear($('live-sessions').tBodies[0]);
    clear($('ended-sessions').tBodies[0]);
    Object.assign(live, { ids: [], shown: 0, cursor: null, serverPaged: false });
    ended.cursor = null;
    await Promise.all([moreLive(true), moreEnded(true)]);
  }

  /** Live ids come a page at a time when the API pages them (Mnemos-Next-Cursor); else the page pages them. */
  async function moreLive(first) {
    try {
      let ids;
      if (first || live.serverPaged) {
        const query = 'v1/sessions?limit=' + PAGE + (live.cursor ? '&cursor=' + enc(live.cursor) : '');
        const page = await api(query);
        live.cursor = page.headers.get(NEXT_CURSOR);
        live.serverPaged = live.serverPaged || live.cursor !== null;
        live.ids = live.ids.concat(page.body);
      }
      ids = live.ids.slice(live.shown, live.serverPaged ? undefined : live.shown + PAGE);
      live.shown += ids.length;
      const states = await Promise.all(ids.map((id) => get('v1/sessions/' + enc(id)).catch(() => null)));
      const body = $('live-sessions').tBodies[0];
      ids.forEach((id, i) => {
        const state = states[i];
        body.append(el('tr', {}, el('td', {}, sessionLink(id)), text('td', state ? state.goal : ''),
            el('td', {}, state ? String(state.version) : '—'), el('td', {}, state ? when(state.updatedAt) : '')));
      });
      $('live-empty').hidden = live.ids.length > 0;
      $('live-more').hidden = live.serverPaged ? !live.cursor : live.shown >= live.ids.length;
    } catch (e) {
      failure(e, 'Listing live sessions');
    }
  }

  async function moreEnded(first) {
    try {
      const page = await api('v1/sessions/ended?limit=' + PAGE + (!first && ended.cursor ? '&cursor=' + enc(ended.cursor) : ''));
      ended.cursor = page.headers.get(NEXT_CURSOR);
      const body = $('ended-sessions').tBodies[0];
      for (const entry of page.body) {
        body.append(el('tr', {}, el('td', {}, sessionLink(entry.sessionId)), text('td', entry.goal), el('td', {}, when(entry.endedAt))));
      }
      $('ended-empty').hidden = body.rows.length > 0;
      $('ended-more').hidden = !ended.cursor;
    } catch (e) {
      $('ended-empty').hidden = false;
      if (e.status !== 404) failure(e, 'Listing ended sessions');
    }
  }

  $('live-more').addEventListener('click', () => moreLive(false));
  $('ended-more').addEventListener('click', () => moreEnded(false));
  $('search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const id = $('search-id').value.trim();
    if (id) location.hash = '#/session/' + enc(id);
  });

  // ---- one session ----------------------------------------------------------------------------

  const current = { id: null, live: null, events: [], last: 0, selected: null, byVersion: new Map() };

  const TYPES = { CREATE: 'create', PATCH: 'step', ROLLBACK: 'rollback', FORK: 'fork', END: 'end' };

  async function allEvents(id) {
    let events = [];
    for (let from = 1; ;) {
      const page = await get('v1/sessions/' + enc(id) + '/events?from=' + from + '&limit=1000');
      events = events.concat(page);
      if (page.length < 1000) return events;
      from = page[page.length - 1].version + 1;
    }
  }

  async function openSession(id, version) {
    showView('view-session');
    $('session-id').textContent = id;
    for (const node of ['timeline', 'state', 'diff', 'trace', 'report', 'session-meta']) clear($(node));
    $('session-fork').hidden = true;
    $('trace-section').hidden = true;
    $('report-section').hidden = true;
    let state = null;
    let events;
    try {
      state = await get('v1/sessions/' + enc(id)).catch((e) => {
        if (e.status === 404) return null;
        throw e;
      });
      events = await allEvents(id);
    } catch (e) {
      failure(e, 'Session ' + id);
      clear($('timeline'));
      $('session-meta').textContent = 'Nothing to show.';
      return;
    }
    if (!events.length) {
      show('Session ' + id + ': not found (it does not exist, or it is not yours).');
      return;
    }
    Object.assign(current, { id, live: state, events, last: events[events.length - 1].version, byVersion: new Map() });
    events.forEach((ev) => current.byVersion.set(ev.version, ev));
    const first = events[0].state;
    const isEnded = !state;
    $('session-meta').append(isEnded ? 'Ended' : 'Live', ' · owner ', text('span', (state || first || {}).userId || me),
        ' · ', String(current.last), ' versions');
    const origin = (state && state.forkedFrom) || (first && first.forkedFrom);
    if (origin) {
      const fork = clear($('session-fork'));
      fork.append('Forked from ', sessionLink(origin.sessionId), ' at ',
          el('a', { href: '#/session/' + enc(origin.sessionId) + '/v/' + origin.version }, 'version ' + origin.version));
      fork.hidden = false;
    }
    renderTimeline();
    fillDiffSelectors();
    $('rollback-btn').disabled = isEnded;
    $('fork-btn').disabled = isEnded;
    if (isEnded) loadReport(id);
    const from = Math.max(1, current.last - 1);
    await Promise.all([select(version && current.byVersion.has(version) ? version : current.last), runDiff(from, current.last)]);
  }

  /** What each event did, as short markers: plan versions, evaluations, rollback targets, forks. */
  function markers() {
    const result = new Map();
    const add = (version, label, cls) => {
      if (!result.has(version)) result.set(version, []);
      result.get(version).push({ label, cls });
    };
    let plans = 0;
    for (const ev of current.events) {
      if (ev.state) plans = ev.state.plans.reduce((max, p) => Math.max(max, p.version), 0);
      if (ev.type === 'ROLLBACK' && ev.toVersion) {
        add(ev.version, 'rolled back to v' + ev.toVersion, 'rollback');
        add(ev.toVersion, 'rollback target of v' + ev.version, 'target');
      }
      if (ev.type === 'FORK' && ev.state && ev.state.forkedFrom) {
        add(ev.version, 'forked from v' + ev.state.forkedFrom.version + ' of ' + ev.state.forkedFrom.sessionId, 'fork');
      }
      const patch = ev.patch || {};
      if (patch.addPlan) {
        plans += 1;
        add(ev.version, 'plan v' + plans, 'plan');
      }
      if (patch.evaluatePlan) {
        add(ev.version, 'plan v' + patch.evaluatePlan.version + ' scored ' + patch.evaluatePlan.score, 'plan');
      }
      if (patch.stepPointer) add(ev.version, 'step pointer ' + patch.stepPointer.index + ' ' + (patch.stepPointer.name || ''), 'pointer');
    }
    return result;
  }

  function renderTimeline() {
    const list = clear($('timeline'));
    const marks = markers();
    for (const ev of current.events) {
      const type = TYPES[ev.type] || String(ev.type).toLowerCase();
      const step = ev.note && ev.note.startsWith('step ') ? ev.note.substring(5) : null;
      const item = el('li', { id: 'v-' + ev.version, 'data-version': ev.version, 'data-type': type },
          el('button', { type: 'button', class: 'select-version', 'aria-pressed': 'false', onclick: () => select(ev.version) }, 'v' + ev.version),
          ' ', el('span', { class: 'type type-' + type }, type), ' ', when(ev.at),
          el('div', { class: 'meta' }, 'by ', text('span', ev.actor || '—'),
              step ? [' · step ', text('span', step, { class: 'step-name' })] : '',
              ev.note && !step ? [' · ', text('span', ev.note, { class: 'note' })] : ''),
          el('div', {}, (marks.get(ev.version) || []).map((m) => el('span', { class: 'marker marker-' + m.cls }, m.label))));
      if ((marks.get(ev.version) || []).some((m) => m.cls === 'target')) item.classList.add('target');
      list.append(item);
    }
  }

  async function select(version) {
    current.selected = version;
    for (const item of $('timeline').children) {
      const on = Number(item.dataset.version) === version;
      item.classList.toggle('selected', on);
      item.querySelector('button').setAttribute('aria-pressed', String(on));
    }
    $('state-version').textContent = String(version);
    const box = clear($('state'));
    try {
      renderState(box, await get('v1/sessions/' + enc(current.id) + '/versions/' + version));
    } catch (e) {
      box.append(el('p', { class: 'empty' }, e.status === 410 ? 'Version ' + version + ' is older than the retention window.' : 'Not available: ' + e.message));
    }
    await loadTrace(version);
  }

  function fields(pairs) {
    const dl = el('dl', { class: 'fields' });
    for (const [name, value] of pairs) dl.append(el('dt', {}, name), value instanceof Node ? el('dd', {}, value) : text('dd', value));
    return dl;
  }

  function pointer(p) {
    return p ? p.index + ' ' + (p.name || '') : '';
  }

  function renderState(box, s) {
    box.append(fields([['goal', s.goal || ''], ['context', s.context || ''], ['status', s.status], ['step pointer', pointer(s.stepPointer)],
        ['summary', s.summary || ''], ['updated', when(s.updatedAt)]]));
    box.append(el('h4', {}, 'Constraints'));
    box.append(s.constraints.length ? el('table', { id: 'state-constraints' }, el('thead', {}, el('tr', {}, el('th', {}, 'Constraint'), el('th', {}, 'Scope'), el('th', {}, 'Source'))),
        el('tbody', {}, s.constraints.map((c) => el('tr', {}, text('td', c.text), el('td', {}, c.scope), text('td', c.source || '')))))
      : el('p', { class: 'empty' }, 'None'));
    box.append(el('h4', {}, 'Collected'));
    const keys = Object.keys(s.collected);
    box.append(keys.length ? fields(keys.map((k) => [k, s.collected[k]])) : el('p', { class: 'empty' }, 'None'));
    box.append(el('h4', {}, 'Open questions'));
    box.append(s.openQuestions.length ? el('ul', {}, s.openQuestions.map((q) => text('li', q))) : el('p', { class: 'empty' }, 'None'));
    box.append(el('h4', {}, 'Plans'));
    if (!s.plans.length) box.append(el('p', { class: 'empty' }, 'None'));
    for (const plan of s.plans) {
      box.append(el('div', { class: 'plan', id: 'plan-' + plan.version },
          el('h5', {}, 'Plan v' + plan.version, ' ', el('span', { class: 'meta' }, when(plan.createdAt))),
          text('pre', plan.content, { class: 'plan-content' }),
          el('div', { class: 'evaluation' }, plan.score == null && plan.feedback == null ? el('span', { class: 'empty' }, 'Not evaluated')
            : [el('strong', {}, 'Score: '), el('span', { class: 'plan-score' }, String(plan.score)), ' · ', el('strong', {}, 'Feedback: '),
              text('span', plan.feedback || '', { class: 'plan-feedback' })])));
    }
    box.append(el('h4', {}, 'Observations'));
    box.append(s.observations.length ? el('table', {}, el('thead', {}, el('tr', {}, el('th', {}, 'Observation'), el('th', {}, 'Kind'), el('th', {}, 'Scope'), el('th', {}, 'Slot'), el('th', {}, 'Explicit'))),
        el('tbody', {}, s.observations.map((o) => el('tr', {}, text('td', o.text), el('td', {}, o.kind), el('td', {}, o.scope), text('td', o.slot || ''), el('td', {}, o.explicit ? 'yes' : 'no')))))
      : el('p', { class: 'empty' }, 'None'));
  }

  // ---- trace ----------------------------------------------------------------------------------

  async function loadTrace(version) {
    const section = $('trace-section');
    const box = clear($('trace'));
    const ev = current.byVersion.get(version);
    if (!ev || ev.type !== 'PATCH') {
      section.hidden = true;
      return;
    }
    $('trace-version').textContent = String(version);
    section.hidden = false;
    let trace;
    try {
      trace = await get('v1/sessions/' + enc(current.id) + '/steps/' + version + '/trace');
    } catch (e) {
      box.append(el('p', { class: 'empty', id: 'no-trace' }, e.status === 404
        ? 'No trace: this version was not written by an AI-service step, or its trace has expired.' : 'Trace not available: ' + e.message));
      return;
    }
    const read = trace.read;
    const inj = trace.injected;
    const written = trace.written;
    const newest = read.sessionVersion === written.basedOn;
    box.append(fields([['step', trace.step], ['method', trace.method], ['at', when(trace.at)]]));
    box.append(el('h4', {}, 'Read'));
    box.append(fields([
      ['session version', el('span', {}, el('span', { id: 'trace-read' }, 'v' + read.sessionVersion), ' ',
          el('span', { class: newest ? 'ok' : 'warn', id: 'trace-newest' }, newest
            ? 'the newest version: nothing was written between the read and the write'
            : 'not the newest: another write landed after the read; the step re-read v' + written.basedOn))],
      ['profile', el('span', { class: read.profile === 'LOADED' ? 'ok' : 'warn', id: 'trace-profile' },
          read.profile + (read.profileCache ? ' (cache ' + read.profileCache + ')' : '') + ', ' + read.profileFacts + ' facts')]]));
    box.append(el('h4', {}, 'Injected'));
    if (inj) {
      box.append(fields([
        ['tokens', el('span', { id: 'trace-tokens', class: inj.overBudget ? 'warn' : '' }, inj.tokens + ' of a budget of ' + inj.budget + (inj.overBudget ? ' (over budget)' : ''))],
        ['characters', String(inj.chars)], ['sha-256', el('code', {}, inj.sha256 || '')],
        ['plans shown', (inj.plans || []).map((p) => 'v' + p).join(', ') || 'none'],
        ['profile facts shown', (inj.profileFacts || []).join(', ') || 'none'],
        ['overrides', (inj.overrides || []).map((o) => JSON.stringify(o)).join('; ') || 'none']]));
      box.append(text('pre', inj.block, { id: 'trace-block', 'aria-label': 'The injected memory block' }));
    } else {
      box.append(el('p', { class: 'empty' }, 'Nothing was injected.'));
    }
    box.append(el('h4', {}, 'Written'));
    box.append(fields([['version', 'v' + written.version + ' on v' + written.basedOn], ['retries', el('span', { id: 'trace-retries' }, String(written.retries))],
        ['fields', el('span', { id: 'trace-fields' }, (written.fields || []).join(', '))]]));
    if (ev.patch) box.append(el('details', {}, el('summary', {}, 'Patch as written'), text('pre', JSON.stringify(ev.patch, null, 2), { id: 'trace-patch' })));
    const t = trace.timings || {};
    const ms = (micros) => (micros / 1000).toFixed(1) + ' ms';
    if (trace.tools) {
      box.append(el('h4', {}, 'Tools'));
      box.append(trace.tools.length ? el('table', { id: 'trace-tools' }, el('thead', {}, el('tr', {}, el('th', {}, 'Tool'), el('th', {}, 'Arguments'), el('th', {}, 'Result or error'), el('th', {}, 'Duration'))),
        el('tbody', {}, trace.tools.map((run) => el('tr', {}, text('td', run.tool), text('td', run.arguments || ''),
          run.error != null ? text('td', 'failed: ' + run.error, { class: 'text warn' }) : text('td', run.result || ''), el('td', {}, ms(run.durationMicros || 0))))))
        : el('p', { class: 'empty', id: 'no-tools' }, 'The model call ran no tools.'));
    }
    box.append(el('h4', {}, 'Timings'));
    const timings = [['load', ms(t.loadMicros || 0)], ['render', ms(t.renderMicros || 0)], ['model', ms(t.modelMicros || 0)], ['write (before its round trip)', ms(t.writeMicros || 0)]];
    if (t.firstTokenMicros != null) timings.splice(3, 0, ['first token (streamed)', ms(t.firstTokenMicros)]);
    box.append(fields(timings));
  }

  // ---- diff -----------------------------------------------------------------------------------

  function fillDiffSelectors() {
    for (const id of ['diff-from', 'diff-to']) {
      const selectBox = clear($(id));
      for (const ev of current.events) selectBox.append(el('option', { value: ev.version }, 'v' + ev.version + ' ' + (TYPES[ev.type] || '')));
    }
  }

  $('diff-form').addEventListener('submit', (event) => {
    event.preventDefault();
    runDiff(Number($('diff-from').value), Number($('diff-to').value));
  });

  async function runDiff(from, to) {
    $('diff-from').value = String(from);
    $('diff-to').value = String(to);
    const box = clear($('diff'));
    let a;
    let b;
    try {
      [a, b] = await Promise.all([from, to].map((v) => get('v1/sessions/' + enc(current.id) + '/versions/' + v)));
    } catch (e) {
      box.append(el('p', { class: 'empty' }, 'Cannot compare: ' + e.message));
      return;
    }
    const rows = diffStates(a, b);
    if (!rows.length) {
      box.append(el('p', { class: 'empty', id: 'diff-none' }, 'v' + from + ' and v' + to + ' hold the same state.'));
      return;
    }
    box.append(el('table', { id: 'diff-table' },
        el('thead', {}, el('tr', {}, el('th', {}, 'Field'), el('th', {}, 'Change'), el('th', {}, 'v' + from), el('th', {}, 'v' + to))),
        el('tbody', {}, rows.map((r) => el('tr', { class: 'change-' + r.change, 'data-field': r.field },
            text('td', r.field, { class: 'mono' }), el('td', {}, r.change), text('td', r.before), text('td', r.after))))));
  }

  /** Field by field; list items matched by id (constraints, observations), version (plans), key or value. */
  function diffStates(a, b) {
    const rows = [];
    const cmp = (field, before, after) => {
      before = before == null ? '' : String(before);
      after = after == null ? '' : String(after);
      if (before === after) return;
      rows.push({ field, change: before === '' ? 'added' : after === '' ? 'removed' : 'changed', before, after });
    };
    for (const f of ['status', 'goal', 'context', 'summary']) cmp(f, a[f], b[f]);
    cmp('stepPointer', pointer(a.stepPointer), pointer(b.stepPointer));
    const keyed = (field, listA, listB, key, parts) => {
      const mapA = new Map(listA.map((x) => [key(x), x]));
      const mapB = new Map(listB.map((x) => [key(x), x]));
      for (const k of new Set([...mapA.keys(), ...mapB.keys()])) {
        for (const [part, render] of Object.entries(parts)) {
          cmp(field + '[' + k + ']' + (part ? '.' + part : ''), mapA.has(k) ? render(mapA.get(k)) : null, mapB.has(k) ? render(mapB.get(k)) : null);
        }
      }
    };
    keyed('constraints', a.constraints, b.constraints, (c) => c.id, { '': (c) => c.text + ' [' + c.scope + ']' });
    keyed('collected', Object.entries(a.collected), Object.entries(b.collected), (e) => e[0], { '': (e) => e[1] });
    keyed('openQuestions', a.openQuestions, b.openQuestions, (q) => q, { '': (q) => q });
    keyed('plans', a.plans, b.plans, (p) => 'v' + p.version, { content: (p) => p.content, score: (p) => p.score, feedback: (p) => p.feedback });
    keyed('observations', a.observations, b.observations, (o) => o.id, { '': (o) => o.text + ' (' + o.kind + ', ' + o.scope + ')' });
    return rows;
  }

  // ---- actions --------------------------------------------------------------------------------

  function confirmAction(message) {
    const dialog = $('confirm');
    $('confirm-text').textContent = message;
    dialog.returnValue = '';
    return new Promise((resolve) => {
      dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
      dialog.showModal();
    });
  }

  $('rollback-btn').addEventListener('click', async () => {
    const to = current.selected;
    const expected = current.last;
    if (!(await confirmAction('Roll back session ' + current.id + ' to version ' + to + '? This writes version '
        + (expected + 1) + ', equal to version ' + to + '; the history is kept.'))) return;
    try {
      const state = (await api('v1/sessions/' + enc(current.id) + '/rollback', { method: 'POST', body: { toVersion: to, expectedVersion: expected } })).body;
      await openSession(current.id, state.version);
      show('Rolled back: version ' + state.version + ' equals version ' + to + '.', 'info');
    } catch (e) {
      if (e.status === 409) {
        const now = e.problem.currentVersion;
        await openSession(current.id, current.selected);
        show('Not rolled back: the session changed since this page loaded it' + (now ? ' (it is now at version ' + now + ')' : '')
            + '. Review the timeline and try again.');
      } else {
        failure(e, 'Rollback');
      }
    }
  });

  $('fork-btn').addEventListener('click', async () => {
    const from = current.selected;
    if (!(await confirmAction('Fork session ' + current.id + ' from version ' + from + '? This starts a new session with that state.'))) return;
    try {
      const fork = (await api('v1/sessions/' + enc(current.id) + '/fork', { method: 'POST', body: { fromVersion: from } })).body;
      location.hash = '#/session/' + enc(fork.sessionId);
      show('Forked: new session ' + fork.sessionId + ' starts from version ' + from + ' of ' + current.id + '.', 'info');
    } catch (e) {
      failure(e, 'Fork');
    }
  });

  // ---- promotion report -----------------------------------------------------------------------

  function decisionTable(id, entries) {
    if (!entries.length) return el('p', { class: 'empty' }, 'None');
    return el('table', { id },
        el('thead', {}, el('tr', {}, ['Text', 'Slot', 'Category', 'Scope', 'Confidence', 'Reason'].map((h) => el('th', { scope: 'col' }, h)))),
        el('tbody', {}, entries.map((d) => el('tr', {}, text('td', d.text), text('td', d.slot || ''), el('td', {}, d.category || ''),
            el('td', {}, d.scope || ''), el('td', {}, String(d.confidence)), text('td', d.reason || '')))));
  }

  async function loadReport(id) {
    const box = clear($('report'));
    $('report-section').hidden = false;
    $('undo-actions').hidden = true;
    $('undo-force-btn').hidden = true;
    clear($('undo-result'));
    try {
      const report = await get('v1/sessions/' + enc(id) + '/report');
      box.append(el('p', {}, 'Ended ', when(report.endedAt)));
      box.append(el('h4', {}, 'Promoted'), decisionTable('report-promoted', report.promoted));
      box.append(el('h4', {}, 'Pending (waiting for the user)'), decisionTable('report-pending', report.pending));
      box.append(el('h4', {}, 'Rejected'), decisionTable('report-rejected', report.rejected));
      $('undo-actions').hidden = false;
    } catch (e) {
      box.append(el('p', { class: 'empty' }, e.status === 404 ? 'No promotion report was stored for this session.' : 'Not available: ' + e.message));
    }
  }

  // ---- undo a promotion -----------------------------------------------------------------------

  /** Undoes the shown session's promotion; a 409 names the facts later changes touched and offers "Undo anyway". */
  async function undoPromotion(force) {
    const id = current.id;
    if (!(await confirmAction(force
      ? 'Undo the promotion of session ' + id + ' anyway? What later changes made to those facts stays; the rest is reverted.'
      : 'Undo the promotion of session ' + id + '? The facts it promoted are removed, the facts it replaced come back and its pending candidates are dropped.'))) return;
    const box = clear($('undo-result'));
    try {
      const report = (await api('v1/sessions/' + enc(id) + '/promotion/undo' + (force ? '?force=true' : ''), { method: 'POST' })).body;
      $('undo-force-btn').hidden = true;
      const reverted = report.changes.filter((c) => c.action === 'RETRACT' || c.action === 'RESTORE').length;
      show((report.repeated ? 'Already undone: ' : 'Undone: ') + reverted + ' facts reverted, ' + report.kept.length + ' left as they are.', 'info');
      box.append(el('table', { id: 'undo-changes' },
          el('thead', {}, el('tr', {}, ['Action', 'Fact', 'Before', 'After', 'Reason'].map((h) => el('th', { scope: 'col' }, h)))),
          el('tbody', {}, report.changes.map((c) => el('tr', { 'data-action': c.action }, el('td', {}, c.action),
              el('td', {}, c.factId == null ? '' : String(c.factId)), text('td', c.before || ''), text('td', c.after || ''), text('td', c.reason || ''))))));
      if (report.kept.length) {
        box.append(el('ul', { id: 'undo-kept' }, report.kept.map((k) => el('li', { 'data-fact': k.factId }, 'fact ' + k.factId + ': ', text('span', k.reason)))));
      }
    } catch (e) {
      if (e.status === 409) {
        $('undo-force-btn').hidden = false;
        show('Not undone: ' + e.message);
        box.append(el('ul', { id: 'undo-conflicts' }, (e.problem.conflicts || []).map((c) => el('li', { 'data-fact': c.factId }, 'fact ' + c.factId + ': ', text('span', c.reason)))));
      } else {
        failure(e, 'Undo');
      }
    }
  }

  $('undo-btn').addEventListener('click', () => undoPromotion(false));
  $('undo-force-btn').addEventListener('click', () => undoPromotion(true));

  // ---- profile over time ----------------------------------------------------------------------

  const times = { instants: [], index: -1 };

  /** Steps through the instants of the audit trail: the profile as of each, and what changed at it. */
  async function timeStep(index) {
    if (index < 0 || index >= times.instants.length) return;
    times.index = index;
    const at = times.instants[index];
    const before = index > 0 ? times.instants[index - 1] : '1970-01-01T00:00:00Z';
    $('time-at').textContent = at;
    $('time-step').textContent = 'change ' + (index + 1) + ' of ' + times.instants.length;
    $('time-earlier').disabled = index === 0;
    $('time-later').disabled = index === times.instants.length - 1;
    let profile;
    let diff;
    try {
      [profile, diff] = await Promise.all([get('v1/profile?asOf=' + enc(at)), get('v1/profile/diff?from=' + enc(before) + '&to=' + enc(at))]);
    } catch (e) {
      failure(e, 'Reading the profile as of ' + at);
      return;
    }
    if (times.index !== index) return; // a later step was asked for meanwhile
    const madeBy = (h) => h ? [h.action.toLowerCase(), ' by ', text('span', h.actor || '—'), h.sessionId ? [' in ', sessionLink(h.sessionId)] : ''] : '';
    const facts = clear($('time-facts').tBodies[0]);
    for (const fact of profile.facts) {
      facts.append(el('tr', { 'data-fact': fact.id }, text('td', fact.text), text('td', fact.slot || ''), el('td', {}, when(fact.validFrom)), el('td', {}, madeBy(fact.madeBy))));
    }
    $('time-empty').hidden = profile.facts.length > 0;
    const changes = clear($('time-changes').tBodies[0]);
    for (const change of diff.changes) {
      const by = change.by;
      changes.append(el('tr', { 'data-change': change.change, 'data-fact': change.fact.id }, el('td', {}, change.change), text('td', change.fact.text),
          el('td', {}, by ? by.action : ''), text('td', by ? by.actor : ''), el('td', {}, by && by.sessionId ? sessionLink(by.sessionId) : '')));
    }
  }

  $('time-earlier').addEventListener('click', () => timeStep(times.index - 1));
  $('time-later').addEventListener('click', () => timeStep(times.index + 1));

  // ---- profile --------------------------------------------------------------------------------

  async function openProfile() {
    showView('view-profile');
    for (const id of ['facts', 'pending', 'history']) clear($(id).tBodies[0]);
    let profile;
    let history;
    let pending;
    try {
      [profile, history, pending] = await Promise.all([get('v1/profile'), get('v1/profile/history'), get('v1/profile/pending')]);
    } catch (e) {
      failure(e, 'Reading the profile');
      return;
    }
    const origin = new Map();
    for (const entry of history.events) if (entry.factId != null) origin.set(entry.factId, entry); // newest first: the last one wins, the oldest
    const facts = $('facts').tBodies[0];
    for (const fact of profile.facts) {
      const first = origin.get(fact.id);
      facts.append(el('tr', { 'data-fact': fact.id }, text('td', fact.text), el('td', {}, fact.category), text('td', fact.slot || ''),
          el('td', {}, fact.confidence.toFixed(2)),
          el('td', {}, first ? [first.action.toLowerCase(), ' by ', text('span', first.actor || '—'),
            first.sessionId ? [' from ', sessionLink(first.sessionId)] : '', ' · ', when(first.at)] : when(fact.updatedAt))));
    }
    $('facts-empty').hidden = profile.facts.length > 0;
    const rows = $('pending').tBodies[0];
    for (const c of pending) {
      rows.append(el('tr', { 'data-candidate': c.id }, text('td', c.text), el('td', {}, c.category), text('td', c.slot || ''),
          el('td', {}, c.confidence.toFixed(2)), text('td', c.reason || ''), el('td', {}, c.sessionId ? sessionLink(c.sessionId) : ''),
          el('td', {}, el('button', { type: 'button', class: 'confirm', onclick: () => decide(c, 'confirm') }, 'Confirm'), ' ',
              el('button', { type: 'button', class: 'reject', onclick: () => decide(c, 'reject') }, 'Reject'))));
    }
    $('pending-empty').hidden = pending.length > 0;
    times.instants = [...new Set(history.events.map((h) => h.at))].sort((a, b) => Date.parse(a) - Date.parse(b) || (a < b ? -1 : 1));
    clear($('time-facts').tBodies[0]);
    clear($('time-changes').tBodies[0]);
    $('time-controls').hidden = times.instants.length === 0;
    timeStep(times.instants.length - 1);
    const log = $('history').tBodies[0];
    for (const h of history.events) {
      log.append(el('tr', {}, el('td', {}, when(h.at)), el('td', {}, h.action), text('td', h.before || ''), text('td', h.after || ''),
          text('td', h.reason || ''), text('td', h.actor || ''), el('td', {}, h.sessionId ? sessionLink(h.sessionId) : '')));
    }
  }

  async function decide(candidate, decision) {
    try {
      await api('v1/profile/pending/' + candidate.id + '/' + decision, { method: 'POST' });
      await openProfile();
      show((decision === 'confirm' ? 'Confirmed: ' : 'Rejected: ') + candidate.text, 'info');
    } catch (e) {
      failure(e, decision === 'confirm' ? 'Confirming' : 'Rejecting');
    }
  }

  // ---- start ----------------------------------------------------------------------------------

  async function start() {
    hideMessage();
    if (await signIn()) {
      await route();
    } else {
      showView('view-signin');
      await probeDevToken();
    }
    document.body.dataset.ready = 'true';
  }

  start();
})();
