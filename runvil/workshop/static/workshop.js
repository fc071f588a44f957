// The Workshop page: the prompt tree and editor, the run form, the history
// and the chat.  RunView (run_view.js) draws runs.
'use strict';

const DRAFT_KEY = 'runvil-workshop:draft:';
const OPEN_KEY = 'runvil-workshop:open';
const RUN_KEY = 'runvil-workshop:run';      // the run shown beside the editor, followed again after a reload
const CHAT_KEY = 'runvil-workshop:chat';
const VIEW_KEY = 'runvil-workshop:view';
const CHECK_DELAY_MS = 400;
const LINE_HEIGHT_PX = 20;

const $ = (id) => document.getElementById(id);

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)};
  const response = await fetch(path, options);
  const data = await response.json();
  return {status: response.status, data};
}

// -- views --------------------------------------------------------------------
for (const tab of document.querySelectorAll('.tab')) {
  tab.onclick = () => showView(tab.dataset.view);
}

function showView(name) {
  localStorage.setItem(VIEW_KEY, name);
  for (const tab of document.querySelectorAll('.tab')) tab.classList.toggle('active', tab.dataset.view === name);
  for (const view of document.querySelectorAll('.view')) view.hidden = view.id !== 'view-' + name;
  if (name === 'history') History.load();
}

// -- the editor ---------------------------------------------------------------
const Editor = {
  path: null,
  version: null,      // the version on disk the text was opened from
  saved: '',          // the text as last saved or opened
  checkTimer: null,
  problem: null,

  async loadTree() {
    const {data} = await api('/api/files');
    $('root').textContent = data.root;
    const tree = $('file-tree');
    tree.replaceChildren();
    for (const path of data.files) {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = '#';
      link.textContent = path;
      link.dataset.path = path;
      link.onclick = (click) => { click.preventDefault(); Editor.open(path); };
      item.append(link);
      tree.append(item);
    }
    const last = localStorage.getItem(OPEN_KEY);
    if (last && data.files.includes(last)) this.open(last);
  },

  async open(path) {
    const {status, data} = await api('/api/file?path=' + encodeURIComponent(path));
    if (status !== 200) { this.showDiagnostic({code: 'io', message: data.error, line: null}); return; }
    this.path = path;
    this.version = data.version;
    this.saved = data.text;
    localStorage.setItem(OPEN_KEY, path);
    for (const link of document.querySelectorAll('#file-tree a')) {
      link.classList.toggle('active', link.dataset.path === path);
    }
    $('file-name').textContent = path;
    $('conflict').hidden = true;
    const code = $('code');
    code.disabled = false;
    $('save').disabled = false;
    const draft = this.draft();
    // A draft made from this same version on disk survives a reload.
    if (draft && draft.version === data.version && draft.text !== data.text) {
      code.value = draft.text;
      this.check();
    } else {
      this.clearDraft();
      code.value = data.text;
      this.showChecked(data);
    }
    this.refresh();
  },

  draft() {
    const kept = localStorage.getItem(DRAFT_KEY + this.path);
    return kept ? JSON.parse(kept) : null;
  },

  clearDraft() { localStorage.removeItem(DRAFT_KEY + this.path); },

  edited() {
    const text = $('code').value;
    if (text === this.saved) this.clearDraft();
    else localStorage.setItem(DRAFT_KEY + this.path, JSON.stringify({version: this.version, text}));
    this.refresh();
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(() => this.check(), CHECK_DELAY_MS);
  },

  refresh() {
    const code = $('code');
    const lines = code.value.split('\n').length;
    let numbers = '';
    for (let i = 1; i <= lines; i++) numbers += i + '\n';
    $('gutter').textContent = numbers;
    const unsaved = code.value !== this.saved;
    $('save-state').textContent = unsaved ? 'unsaved changes' : 'saved';
    $('save-state').className = 'save-state' + (unsaved ? ' unsaved' : '');
    this.placeMark();
  },

  async check() {
    const text = $('code').value;
    const {status, data} = await api('/api/check', {path: this.path, text});
    if (status === 200 && $('code').value === text) this.showChecked(data);
  },

  showChecked(data) {
    this.showDiagnostic(data.problem);
    RunForm.build(data.form);
  },

  showDiagnostic(problem) {
    this.problem = problem;
    const box = $('diagnostic');
    box.hidden = false;
    if (!problem) {
      box.className = 'diagnostic ok';
      box.textContent = 'No problems: the prompt parses and can run.';
    } else {
      box.className = 'diagnostic error';
      box.replaceChildren();
      const code = document.createElement('span');
      code.className = 'diagnostic-code';
      code.textContent = problem.code;
      const message = document.createElement('span');
      message.className = 'diagnostic-message';
      message.textContent = problem.message;
      box.append(code, message);
      if (problem.line) {
        box.onclick = () => this.goToLine(problem.line);
        box.title = 'Go to line ' + problem.line;
      }
    }
    this.placeMark();
  },

  placeMark() {
    const mark = $('line-mark');
    const line = this.problem && this.problem.line;
    mark.hidden = !line;
    if (line) mark.style.top = (8 + (line - 1) * LINE_HEIGHT_PX - $('code').scrollTop) + 'px';
  },

  goToLine(line) {
    showView('prompts');
    const code = $('code');
    const lines = code.value.split('\n');
    let offset = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
    code.focus();
    code.setSelectionRange(offset, offset + (lines[line - 1] || '').length);
    code.scrollTop = Math.max(0, (line - 5) * LINE_HEIGHT_PX);
    this.placeMark();
  },

  async save(version) {
    const text = $('code').value;
    const {status, data} = await api('/api/save', {path: this.path, text, version});
    if (status === 409) { this.showConflict(text, data.conflict); return; }
    if (status !== 200) { this.showDiagnostic({code: 'io', message: data.error, line: null}); return; }
    this.version = data.version;
    this.saved = data.text;
    this.clearDraft();
    $('conflict').hidden = true;
    this.showChecked(data);
    this.refresh();
  },

  showConflict(mine, disk) {
    $('conflict').hidden = false;
    $('conflict-mine').textContent = mine;
    $('conflict-disk').textContent = disk.text;
    $('keep-mine').onclick = () => this.save(disk.version);
    $('take-disk').onclick = () => {
      this.version = disk.version;
      this.saved = disk.text;
      $('code').value = disk.text;
      this.clearDraft();
      $('conflict').hidden = true;
      this.edited();
    };
  },
};

$('code').addEventListener('input', () => Editor.edited());
$('code').addEventListener('keydown', (key) => {
  if (key.key !== 'Tab' || key.shiftKey || key.ctrlKey || key.altKey) return;
  key.preventDefault();       // Tab indents (Lua blocks use two spaces) instead of leaving the editor
  document.execCommand('insertText', false, '  ');
});
$('code').addEventListener('scroll', () => {
  $('gutter').scrollTop = $('code').scrollTop;
  Editor.placeMark();
});
$('save').onclick = () => Editor.save(Editor.version);
document.addEventListener('keydown', (key) => {
  if ((key.ctrlKey || key.metaKey) && key.key === 's' && Editor.path) { key.preventDefault(); Editor.save(Editor.version); }
});

// -- the run form -------------------------------------------------------------
const LIMIT_LABELS = {
  round_cap: 'Round cap', concurrency: 'Concurrency', response_cap: 'Response cap (bytes)',
  memory_ceiling: 'Memory ceiling (bytes)', log_event_quota: 'Log event quota', receive_timeout: 'Receive timeout (s)'};

function field(labelText, input, hint) {
  const label = document.createElement('label');
  label.className = 'field';
  const name = document.createElement('span');
  name.className = 'field-name';
  name.textContent = labelText;
  label.append(name, input);
  if (hint) {
    const small = document.createElement('small');
    small.textContent = hint;
    label.append(small);
  }
  return label;
}

function input(name, value, placeholder) {
  const node = document.createElement('input');
  node.name = name;
  if (value !== null && value !== undefined) node.value = value;
  if (placeholder) node.placeholder = placeholder;
  return node;
}

const RunForm = {
  form: null,

  build(form) {
    const box = $('run-form');
    // Rebuilding keeps what the user typed in fields that stay.
    const typed = {};
    for (const node of box.querySelectorAll('input, textarea')) typed[node.name] = node.value;
    this.form = form;
    box.hidden = !form;
    if (!form) return;
    $('form-title').textContent = form.name;
    $('form-description').textContent = form.description || '';
    const args = $('form-args');
    args.replaceChildren();
    for (const arg of form.args) {
      const name = 'arg:' + arg.name;
      const node = input(name, name in typed ? typed[name] : arg.default, arg.required ? 'required' : '');
      node.dataset.type = arg.type;
      args.append(field(arg.name + ' (' + arg.type + ')', node, arg.description));
    }
    const inputBox = $('form-input');
    inputBox.replaceChildren();
    if (form.input) {
      const area = document.createElement('textarea');
      area.name = 'input';
      area.rows = 3;
      area.value = typed.input || '';
      inputBox.append(field('input' + (form.input.required ? '' : ' (optional)'), area, form.input.description));
    }
    const roles = $('form-roles');
    roles.replaceChildren();
    $('form-roles-box').hidden = !form.roles.length;
    for (const role of form.roles) {
      const name = 'bind:' + role.label;
      roles.append(field(role.label, input(name, typed[name] || '', role.model || 'the Host\'s binding')));
    }
    const limits = $('form-limits');
    limits.replaceChildren();
    for (const [limit, value] of Object.entries(form.limits)) {
      const name = 'limit:' + limit;
      limits.append(field(LIMIT_LABELS[limit] || limit, input(name, typed[name] || '', String(value))));
    }
  },

  request() {
    const request = {prompt: Editor.path, text: $('code').value, args: {}, limits: {}, binds: {}, input: null};
    for (const node of $('run-form').querySelectorAll('input, textarea')) {
      const [kind, name] = node.name.split(':');
      if (kind === 'arg' && node.value !== '') request.args[name] = node.value;
      else if (kind === 'limit') request.limits[name] = node.value;
      else if (kind === 'bind') request.binds[name] = node.value;
      else if (kind === 'input' && node.value !== '') request.input = node.value;
    }
    return request;
  },
};

$('run-form').onsubmit = async (submit) => {
  submit.preventDefault();
  $('form-error').textContent = '';
  const {status, data} = await api('/api/runs', RunForm.request());
  if (status !== 200) { $('form-error').textContent = data.error; return; }
  localStorage.setItem(RUN_KEY, data.run_id);
  showRun(data.run_id, $('run-view'), Editor.path);
};

function runControls(runId) {
  const post = (what, body) => api('/api/runs/' + runId + '/' + what, body || {});
  return {cancel: () => post('cancel'), stop: () => post('stop'), answer: (id, text) => post('answer', {id, text})};
}

// Show a run (live or past) in container; lines link to the editor when the
// run's prompt is the file open there.
// What a container shows follows one run's events at a time: showing another
// closes the streams it followed.
function release(container) {
  for (const source of container.sources || []) source.close();
  container.sources = [];
}

function showRun(runId, container, prompt) {
  release(container);
  const view = new RunView(container, {
    controls: runControls(runId),
    openLine: (line) => { if (Editor.path === view.prompt) Editor.goToLine(line); else openAt(view.prompt, line); },
  });
  view.prompt = prompt;
  container.sources.push(followRun(runId, (event) => {
    if (event.event === 'workshop_run') view.prompt = event.prompt;
    view.apply(event);
  }));
  return view;
}

async function openAt(path, line) {
  await Editor.open(path);
  Editor.goToLine(line);
}

// -- history ------------------------------------------------------------------
const History = {
  async load() {
    const {data} = await api('/api/runs');
    const rows = $('history-rows');
    rows.replaceChildren();
    for (const run of data.runs) {
      const row = document.createElement('tr');
      row.dataset.runId = run.run_id;
      const pick = document.createElement('input');
      pick.type = 'checkbox';
      pick.className = 'pick';
      pick.onchange = () => this.picked();
      const open = document.createElement('button');
      open.textContent = 'Open';
      open.className = 'open-run';
      open.onclick = () => this.open(run.run_id);
      const cells = [pick, new Date(run.started * 1000).toLocaleString(), run.chat ? 'chat' : run.prompt,
                     run.outcome || 'running', open];
      for (const cell of cells) {
        const td = document.createElement('td');
        td.append(cell);
        row.append(td);
      }
      row.children[3].className = 'badge-cell ' + (run.outcome || 'running');
      rows.append(row);
    }
    this.picked();
  },

  checked() {
    return [...document.querySelectorAll('#history-rows .pick:checked')].map((box) => box.closest('tr').dataset.runId);
  },

  picked() { $('compare').disabled = this.checked().length !== 2; },

  open(runId) { showRun(runId, $('history-detail'), null); },

  compare() {
    const [first, second] = this.checked();
    const detail = $('history-detail');
    release(detail);
    detail.replaceChildren();
    const banner = document.createElement('div');
    banner.className = 'compare-banner';
    const sides = document.createElement('div');
    sides.className = 'compare';
    detail.append(banner, sides);
    const views = [first, second].map((runId) => {
      const side = document.createElement('div');
      side.className = 'compare-side';
      sides.append(side);
      return {runId, view: new RunView(side, {}), ended: false};
    });
    for (const entry of views) {
      detail.sources.push(followRun(entry.runId, (event) => {
        entry.view.apply(event);
        if (event.event === 'stream_end') { entry.ended = true; this.judge(views, banner); }
      }));
    }
  },

  judge(views, banner) {
    if (!views.every((entry) => entry.ended)) return;
    const [a, b] = views.map((entry) => entry.view);
    const sameResult = JSON.stringify(a.result) === JSON.stringify(b.result);
    const sameMessages = JSON.stringify(a.records) === JSON.stringify(b.records);
    const noMessages = !Object.keys(a.records).length && !Object.keys(b.records).length;
    banner.textContent = (sameResult ? 'Same outcome and result' : 'The outcomes or results differ') + ' · ' +
      (noMessages ? 'no messages in either' : sameMessages ? 'same messages' : 'the messages differ');
    banner.className = 'compare-banner ' + (sameResult && sameMessages ? 'same' : 'differ');
  },
};

$('compare').onclick = () => History.compare();

// -- chat ---------------------------------------------------------------------
const Chat = {
  runId: null,
  question: null,     // the open question id: the chat waits for a turn
  bubble: null,       // the reply streaming in

  async start() {
    const {status, data} = await api('/api/chat', {model: $('chat-model').value});
    if (status !== 200) { this.state(data.error, 'failed'); return; }
    if (this.runId) api('/api/runs/' + this.runId + '/cancel', {});
    localStorage.setItem(CHAT_KEY, data.run_id);
    this.follow(data.run_id);
  },

  follow(runId) {
    this.runId = runId;
    this.question = this.bubble = null;
    $('chat-log').replaceChildren();
    this.state('Starting…', 'running');
    release($('chat-log'));
    $('chat-log').sources.push(followRun(runId, (event) => this.apply(event)));
  },

  state(text, className) {
    $('chat-state').textContent = text;
    $('chat-state').className = 'chat-state ' + (className || '');
  },

  say(role, text) {
    const bubble = document.createElement('div');
    bubble.className = 'bubble ' + role;
    bubble.textContent = text;
    $('chat-log').append(bubble);
    $('chat-log').scrollTop = $('chat-log').scrollHeight;
    return bubble;
  },

  apply(event) {
    const kind = event.event;
    if (kind === 'question') {
      this.question = event.id;
      this.ready(true);
      this.state('Your turn', 'ready');
    } else if (kind === 'answered') {
      this.say('user', event.text);
      this.ready(false);
      this.state('The model is answering…', 'running');
    } else if (kind === 'fragment' && event.origin === 'chat' && event.kind === 'text') {
      if (!this.bubble) this.bubble = this.say('assistant streaming', '');
      this.bubble.textContent += event.text;
      $('chat-log').scrollTop = $('chat-log').scrollHeight;
    } else if (kind === 'reply' && event.origin === 'chat') {
      if (!this.bubble) this.bubble = this.say('assistant', '');
      this.bubble.textContent = event.text;
      this.bubble.className = 'bubble assistant';
      this.bubble = null;
    } else if (kind === 'compaction' && event.reason !== 'failed turn') {
      this.say('note', event.restored ? 'The compaction failed; the conversation was kept as it was.'
        : 'Older turns were summarized to fit the context window (' + event.records_before + ' → ' +
          event.records_after + ' records).');
    } else if (kind === 'log' && event.message.startsWith('turn failed: ')) {
      if (this.bubble) { this.bubble.remove(); this.bubble = null; }
      this.say('error', 'This turn failed and was dropped: ' + event.message.slice('turn failed: '.length));
    } else if (kind === 'run_finished') {
      const error = event.error;
      this.state(event.outcome === 'failed' ? 'Ended: ' + error.kind + ': ' + error.message : 'Ended (' +
                 event.outcome + ')', event.outcome);
      this.ready(false);
    }
  },

  ready(open) {
    $('chat-text').disabled = $('chat-send').disabled = !open;
    if (open) $('chat-text').focus();
  },

  async send() {
    const text = $('chat-text').value;
    if (!text.trim() || this.question === null) return;
    const id = this.question;
    this.question = null;
    this.ready(false);
    $('chat-text').value = '';
    await api('/api/runs/' + this.runId + '/answer', {id, text});
  },
};

$('chat-start').onclick = () => Chat.start();
$('chat-compose').onsubmit = (submit) => { submit.preventDefault(); Chat.send(); };
$('chat-text').addEventListener('keydown', (key) => {
  if (key.key === 'Enter' && !key.shiftKey) { key.preventDefault(); Chat.send(); }
});

Editor.loadTree();
if (localStorage.getItem(RUN_KEY)) showRun(localStorage.getItem(RUN_KEY), $('run-view'), null);
if (localStorage.getItem(CHAT_KEY)) Chat.follow(localStorage.getItem(CHAT_KEY));
showView(localStorage.getItem(VIEW_KEY) || 'prompts');
