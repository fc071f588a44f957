// How a run looks: RunView turns a run's events (live, or replayed from the
// history) into the page.  The same events always give the same view.
'use strict';

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function shownJson(value) {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

function sectionLabel(section) {
  return section === null || section === undefined ? 'H1' : section;
}

function usageText(usage) {
  if (!usage) return 'no usage reported';
  let text = usage.prompt_tokens + ' prompt · ' + usage.completion_tokens + ' completion tokens';
  if (usage.reasoning_tokens) text += ' · ' + usage.reasoning_tokens + ' reasoning';
  return text;
}

// One message record as a chat bubble: role, content parts, tool calls and results, meta.
function recordNode(record) {
  const node = el('div', 'record role-' + record.role);
  const head = el('div', 'record-head');
  head.append(el('span', 'record-role', record.role));
  if (record.tool_call_id) head.append(el('span', 'record-tag', 'result of ' + record.tool_call_id));
  node.append(head);
  const content = record.content;
  if (Array.isArray(content)) {
    for (const part of content) {
      if (part.type === 'text') node.append(el('div', 'record-text', part.text));
      else node.append(el('div', 'record-part', part.type + ': ' + shownJson(part.image_url || part)));
    }
  } else if (content) {
    node.append(el('div', 'record-text', content));
  }
  for (const call of record.tool_calls || []) {
    const callNode = el('div', 'record-call');
    callNode.append(el('span', 'call-name', call.name), el('span', 'call-id', call.id));
    callNode.append(el('pre', 'call-args', shownJson(call.arguments)));
    node.append(callNode);
  }
  if (record.meta !== undefined) node.append(el('pre', 'record-meta', 'meta ' + shownJson(record.meta)));
  return node;
}

class RunView {
  // options: {controls: {cancel, stop, answer} or null, openLine(line) or null}
  constructor(container, options) {
    this.options = options || {};
    this.root = el('div', 'run');
    container.replaceChildren(this.root);
    this.head = el('div', 'run-head');
    this.title = el('span', 'run-title', 'Run');
    this.status = el('span', 'badge running', 'starting');
    this.current = el('span', 'run-current');
    this.head.append(this.title, this.status, this.current);
    if (this.options.controls) {
      this.stopButton = el('button', 'stop-round', 'Stop round');
      this.stopButton.title = 'Stop the model rounds and tool calls in flight; the run goes on';
      this.cancelButton = el('button', 'danger cancel-run', 'Cancel run');
      this.stopButton.onclick = () => this.options.controls.stop();
      this.cancelButton.onclick = () => this.options.controls.cancel();
      this.head.append(this.stopButton, this.cancelButton);
    }
    this.outcome = el('div', 'outcome');
    this.outcome.hidden = true;
    this.questions = el('div', 'questions');
    const columns = el('div', 'run-columns');
    const left = el('div', 'run-left');
    const right = el('div', 'run-right');
    this.timeline = el('ol', 'timeline');
    this.tasksBox = el('div', 'panel tasks-panel');
    this.tasksBox.append(el('h3', null, 'Tasks'));
    this.tasksTree = el('ul', 'task-tree');
    this.tasksBox.append(this.tasksTree);
    this.tasksBox.hidden = true;
    this.conversations = el('div', 'panel conversations');
    this.conversations.append(el('h3', null, 'Messages'));
    this.conversations.hidden = true;
    left.append(el('h3', 'timeline-title', 'Events'), this.timeline);
    right.append(this.tasksBox, this.conversations);
    columns.append(left, right);
    this.meta = el('div', 'run-meta');
    this.meta.hidden = true;
    this.root.append(this.head, this.meta, this.outcome, this.questions, columns);
    this.rounds = new Map();       // round id -> its card
    this.toolCalls = new Map();    // tool call id -> its row
    this.tasks = new Map();        // task id -> its node
    this.questionBoxes = new Map();
    this.finished = false;
    this.result = null;
    this.records = {};             // section -> records
  }

  apply(event) {
    const handler = this['on_' + event.event];
    if (handler) handler.call(this, event);
  }

  add(className, text) {
    const item = el('li', 'entry ' + className, text);
    this.timeline.append(item);
    return item;
  }

  on_workshop_run(event) {
    this.title.textContent = event.chat ? 'Chat' : event.prompt;
    this.status.textContent = 'running';
    const meta = [];
    for (const [name, value] of Object.entries(event.args || {})) meta.push(name + ' = ' + value);
    if (event.input) meta.push('input: ' + event.input);
    this.meta.textContent = meta.join(' · ');
    this.meta.hidden = !meta.length;
  }

  on_h1_started() { this.setCurrent(null); this.add('section', 'H1 pass'); }

  on_section_started(event) {
    this.setCurrent(event.section);
    const item = this.add('section', '');
    item.append(el('span', 'section-mark', '§'), ' ', this.lineLink(event.section, event.line));
  }

  on_section_finished(event) {
    if (event.returned) this.add('note', sectionLabel(event.section) + ' returned a value');
  }

  on_jump(event) { this.add('note', 'jump from ' + sectionLabel(event.section) + ' to ' + event.target); }

  on_log(event) {
    const item = this.add('log', '');
    let where = sectionLabel(event.section);
    if (event.task) where += ' ' + event.task;
    item.append(el('span', 'log-where', where), el('span', 'log-text', event.message));
  }

  on_chat(event) {
    const card = this.add('round', '');
    const head = el('div', 'round-head');
    head.append(el('span', 'round-name', 'Round ' + event.round),
                el('span', 'round-model', event.model + (event.role ? ' (' + event.role + ')' : '')),
                el('span', 'round-origin', event.origin + ' · ' + sectionLabel(event.section)));
    const text = el('div', 'round-text streaming');
    const usage = el('div', 'round-usage', 'waiting for the model…');
    card.append(head, text, usage);
    this.rounds.set(event.round, {card, text, usage});
    for (const message of event.messages || []) {
      if (message.role === 'tool') this.toolResult(message);
    }
  }

  on_fragment(event) {
    const round = this.rounds.get(event.round);
    if (round && event.kind === 'text') round.text.textContent += event.text;
  }

  on_thinking(event) {
    const round = this.rounds.get(event.round);
    if (round) round.card.insertBefore(el('details', 'thinking', null), round.text)
      .append(el('summary', null, 'reasoning'), el('pre', null, event.text));
  }

  on_model_turn_completed(event) {
    const round = this.rounds.get(event.round);
    if (!round) return;
    round.usage.textContent = usageText(event.usage) + ' · finish: ' + event.finish_reason;
    round.text.classList.remove('streaming');
    if (event.message) round.text.textContent = event.message;
  }

  on_model_turn_failed(event) {
    const round = event.round !== undefined ? this.rounds.get(event.round) : null;
    if (round) {
      round.text.classList.remove('streaming');
      round.usage.textContent = '';
      round.card.classList.add('failed');
      round.card.append(el('div', 'round-error', (event.kind || 'failed') + ': ' + event.message));
      return;
    }
    const item = this.add('precheck', '');
    item.append(el('strong', null, event.reason === 'precheck' ? 'Context precheck refused a round' :
                   'Round refused'), el('span', null, ' · ' + sectionLabel(event.section) + ': ' + event.message));
  }

  on_assistant_reply(event) {
    const round = this.rounds.get(event.round);
    if (!round) return;
    round.text.textContent = event.text;
    round.text.classList.remove('streaming');
  }

  on_tool_calls(event) {
    const round = this.rounds.get(event.round);
    const box = el('div', 'tool-calls');
    for (const call of event.calls) {
      const row = el('div', 'tool-call pending');
      const head = el('div', 'tool-head');
      const state = el('span', 'tool-state', 'running');
      head.append(el('span', 'tool-name', call.name), state);
      const args = el('pre', 'tool-args', shownJson(call.arguments));
      const result = el('pre', 'tool-result');
      result.hidden = true;
      row.append(head, args, result);
      box.append(row);
      this.toolCalls.set(call.id, {row, state, result});
    }
    if (round) {
      round.text.classList.remove('streaming');
      round.card.append(box);
    } else {
      this.add('round', '').append(box);
    }
  }

  on_tool_call_succeeded(event) { this.toolState(event.id, 'ok', 'done'); }

  on_tool_call_failed(event) {
    this.toolState(event.id, 'failed', 'failed');
    const call = this.toolCalls.get(event.id);
    if (call) { call.result.hidden = false; call.result.textContent = event.message; }
  }

  toolState(id, className, text) {
    const call = this.toolCalls.get(id);
    if (!call) return;
    call.row.classList.remove('pending');
    call.row.classList.add(className);
    call.state.textContent = text;
  }

  toolResult(message) {
    const call = this.toolCalls.get(message.tool_call_id);
    if (!call) return;
    call.result.hidden = false;
    call.result.textContent = typeof message.content === 'string' ? message.content : shownJson(message.content);
  }

  on_compaction(event) {
    const item = this.add('compaction', '');
    const what = event.restored ? 'failed; the records were put back (' + event.records_before + ' records)'
      : event.records_before + ' → ' + event.records_after + ' records';
    item.append(el('strong', null, 'Compaction'), el('span', null, ' · ' + sectionLabel(event.section) +
                ' · reason ' + event.reason + ': ' + what));
  }

  on_task_spawned(event) {
    this.tasksBox.hidden = false;
    const node = el('li', 'task queued');
    const line = el('div', 'task-line');
    const state = el('span', 'task-state', 'queued');
    line.append(el('span', 'task-id', event.task), el('span', 'task-section', event.section),
                el('span', 'task-by', event.by), state);
    node.append(line, el('ul', 'task-children'));
    const parentId = event.task.split('.').slice(0, -1).join('.');
    const parent = this.tasks.get(parentId);
    (parent ? parent.node.querySelector('.task-children') : this.tasksTree).append(node);
    this.tasks.set(event.task, {node, state});
  }

  on_task_started(event) { this.taskState(event.task, 'running'); }
  on_task_finished(event) { this.taskState(event.task, event.status); }

  taskState(id, status) {
    const task = this.tasks.get(id);
    if (!task) return;
    task.node.className = 'task ' + status;
    task.state.textContent = status;
  }

  on_question(event) {
    const box = el('form', 'question');
    box.append(el('label', 'question-text', event.question));
    const input = el('input', 'answer-text');
    const send = el('button', 'primary', 'Answer');
    send.type = 'submit';
    box.append(input, send);
    const controls = this.options.controls;
    if (controls && controls.answer) {
      box.onsubmit = (submit) => { submit.preventDefault(); controls.answer(event.id, input.value); };
    } else {
      input.disabled = send.disabled = true;
    }
    this.questions.append(box);
    this.questionBoxes.set(event.id, box);
    if (!input.disabled) input.focus();
    this.add('question-entry', 'Question: ' + event.question);
  }

  on_answered(event) {
    const box = this.questionBoxes.get(event.id);
    if (box) box.remove();
    this.add('answer-entry', 'Answered: ' + event.text);
  }

  on_messages(event) {
    this.conversations.hidden = false;
    this.records[sectionLabel(event.section)] = event.records;
    const box = el('details', 'conversation');
    box.open = true;
    box.append(el('summary', null, sectionLabel(event.section) + ' · ' + event.records.length + ' records'));
    for (const record of event.records) {
      box.append(recordNode(record));
      if (record.role === 'tool') this.toolResult(record);    // a last batch no round sent on
    }
    this.conversations.append(box);
  }

  on_run_finished(event) {
    this.finished = true;
    this.result = event;
    this.setCurrent(undefined);
    this.status.textContent = event.outcome;
    this.status.className = 'badge ' + event.outcome;
    this.outcome.hidden = false;
    this.outcome.className = 'outcome ' + event.outcome;
    if (event.outcome === 'completed') {
      this.outcome.replaceChildren(el('h3', null, 'Result'), el('pre', 'result-text', event.result));
    } else if (event.outcome === 'cancelled') {
      this.outcome.replaceChildren(el('h3', null, 'Cancelled'));
    } else {
      const error = event.error;
      const shown = event.diagnostic || {code: error.kind, message: error.message};
      const head = el('h3', null, 'Run error ');
      head.append(el('span', 'error-kind', shown.code));
      const parts = [head, el('pre', 'error-message', shown.message)];
      const location = error.location || this.luaPosition(error.message);
      if (location && location.line) {
        const where = el('div', 'error-location', location.path + ' ');
        where.append(this.lineLink('line ' + location.line + (location.column ? ':' + location.column : ''),
                                   location.line));
        parts.push(where);
      }
      if (error.retryable) parts.push(el('div', 'note', 'retryable'));
      this.outcome.replaceChildren(...parts);
    }
  }

  on_prepared(event) { this.promptName = event.prompt; }

  // A Lua error's message starts with its position, PROMPT_NAME:LINE: (the
  // chunk of every block is named for the prompt; the line is the file's).
  luaPosition(message) {
    if (!this.promptName || !message.startsWith(this.promptName + ':')) return null;
    const line = /^(\d+):/.exec(message.slice(this.promptName.length + 1));
    return line ? {path: this.title.textContent, line: Number(line[1]), column: null} : null;
  }

  on_stream_end() {
    if (!this.finished) { this.status.textContent = 'ended'; this.status.className = 'badge cancelled'; }
    for (const button of [this.stopButton, this.cancelButton]) if (button) button.hidden = true;
    for (const box of this.questionBoxes.values()) box.remove();
  }

  setCurrent(section) {
    this.current.textContent = section === undefined ? '' : 'running ' + sectionLabel(section);
  }

  lineLink(text, line) {
    const openLine = this.options.openLine;
    if (!openLine || !line) return el('span', null, text);
    const link = el('a', 'line-link', text);
    link.href = '#';
    link.onclick = (click) => { click.preventDefault(); openLine(line); };
    return link;
  }
}

// Follow a run's events from the server; onEvent gets each one.
function followRun(runId, onEvent) {
  const source = new EventSource('/api/runs/' + encodeURIComponent(runId) + '/events');
  source.onmessage = (message) => {
    const event = JSON.parse(message.data);
    onEvent(event);
    if (event.event === 'stream_end') source.close();
  };
  return source;
}
