// The page's controls and information: a panel at the top left (scene, formulation, h, t, the
// step's solver status) and a bar at the bottom (play/pause, time slider, speed, toggles).
import { momentumText } from './vectors.js';

const kStyle = `
.qd-panel{position:absolute;top:12px;left:12px;min-width:250px;max-width:420px;padding:12px 14px;
  background:rgba(22,25,31,.84);color:#e6e9ef;border-radius:8px;font:13px/1.5 system-ui,
  -apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;box-shadow:0 2px 12px rgba(0,0,0,.35)}
.qd-panel h1{margin:0 0 6px;font-size:16px;font-weight:600;color:#fff}
.qd-panel .qd-row{display:flex;justify-content:space-between;gap:16px}
.qd-panel .qd-key{color:#9aa4b5}
.qd-panel .qd-value{min-width:0;overflow-wrap:anywhere;text-align:right;font-variant-numeric:tabular-nums}
.qd-ok{color:#7ee08a}.qd-warn{color:#ffd23f}.qd-bad{color:#ff6b6b}
.qd-message{margin-top:6px;color:#ff9b9b;white-space:pre-wrap}
.qd-panel.qd-wide{max-width:min(600px,48vw)}
.qd-notes{margin-top:8px;max-height:40vh;overflow-x:hidden;overflow-y:auto;color:#c5ccd8;
  font:11px/1.3 ui-monospace,"DejaVu Sans Mono",monospace}
.qd-note{white-space:pre-wrap;overflow-wrap:anywhere;min-height:1.3em}
.qd-legend{margin-top:8px;display:flex;flex-wrap:wrap;gap:4px 10px;font-size:12px;color:#c5ccd8}
.qd-swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px;
  vertical-align:-1px}
.qd-bar{position:absolute;left:12px;right:12px;bottom:12px;display:flex;align-items:center;
  gap:12px;padding:8px 12px;background:rgba(22,25,31,.84);color:#e6e9ef;border-radius:8px;
  font:13px system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif}
.qd-bar button{width:74px;padding:5px 0;border:0;border-radius:5px;background:#3d7eff;color:#fff;
  font:inherit;font-weight:600;cursor:pointer}.qd-bar button:hover{background:#5a92ff}
.qd-bar input[type=range]{flex:1;accent-color:#3d7eff}
.qd-bar select{background:#2a2f38;color:#e6e9ef;border:1px solid #454c59;border-radius:4px;
  font:inherit;padding:2px 4px}
.qd-bar label{white-space:nowrap;cursor:pointer}.qd-bar input[type=checkbox]{accent-color:#3d7eff}
.qd-time{min-width:92px;text-align:right;font-variant-numeric:tabular-nums}
.qd-readout{position:absolute;display:none;padding:6px 9px;background:rgba(22,25,31,.92);
  color:#e6e9ef;border:1px solid #ffd23f;border-radius:6px;font:12px/1.45 ui-monospace,monospace;
  white-space:pre;pointer-events:none}
.qd-help{position:absolute;top:12px;right:12px;color:#8d96a6;font:12px system-ui,sans-serif;
  text-align:right}
`;

export function element(tag, attributes = {}, text = '') {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  return node;
}

export function row(parent, key) {
  const line = element('div', { class: 'qd-row' });
  line.append(element('span', { class: 'qd-key' }, key));
  const value = element('span', { class: 'qd-value' });
  line.append(value);
  parent.append(line);
  return value;
}

// The notes' lines (viewer_data.h: preformatted text such as a plan's summary or a comparison's
// table), one element each that wraps inside the panel instead of running past its edge; a
// wrapped line continues under its value column (after its first run of two or more spaces,
// at most 24 characters in; else 2 characters in).
function notesElement(text) {
  const box = element('div', { class: 'qd-notes', id: 'qd-notes' });
  for (const line of text.replace(/\n$/, '').split('\n')) {
    const note = element('div', { class: 'qd-note' }, line);
    const value = /^\S.*?\s{2,}(?=\S)/.exec(line);
    const indent = value && value[0].length <= 24 ? value[0].length : 2;
    note.style.paddingLeft = `${indent}ch`;
    note.style.textIndent = `-${indent}ch`;
    box.append(note);
  }
  return box;
}

function statusClass(status) {
  if (status === 'solved' || status === 'initial') return 'qd-ok';
  if (status === 'solved_inaccurate') return 'qd-warn';
  return 'qd-bad';
}

export class Panel {
  // data: viewer_data.h's JSON; legend: [{name, color (CSS)}]; handlers: {onPlayPause,
  // onSeekFrame(j), onSpeed(factor), onToggle(showPoints, showArrows)}; forceScale: text;
  // forceThreshold [N]: momentum terms below it are not listed as vectors (vectors.js).
  constructor(data, legend, handlers, forceScale, forceThreshold = 0) {
    this.forceThreshold = forceThreshold;
    document.head.append(element('style', {}, kStyle));
    const run = data.run;
    const info = element('div', { class: 'qd-panel', id: 'qd-info' });
    info.append(element('h1', {}, data.scene.name || '(unnamed scene)'));
    row(info, 'formulation').textContent = run.formulation || '?';
    row(info, 'time step h').textContent = `${run.time_step} s`;
    this.time = row(info, 't');
    this.step = row(info, 'step');
    this.status = row(info, 'solver status');
    this.iterations = row(info, 'iterations');
    this.contactCount = row(info, 'contacts');
    row(info, 'force arrows').textContent = `on the object, ${forceScale}`;
    // The momentum term s·M_u·v_u/h per object (viewer_data.h: frames.momentum): the part of
    // the contact forces that pays for resetting the objects' velocity each step.
    this.momentum = row(info, 'momentum term');
    if (run.steps_done < run.steps_requested) {
      info.append(element('div', { class: 'qd-message' },
        `run stopped: step ${run.steps_done + 1} of ${run.steps_requested} failed ` +
        `(${run.status})${run.message ? `: ${run.message}` : ''}`));
    }
    const legendBox = element('div', { class: 'qd-legend' });
    for (const item of legend) {
      const entry = element('span');
      const swatch = element('span', { class: 'qd-swatch' });
      swatch.style.background = item.color;
      entry.append(swatch, document.createTextNode(item.name));
      legendBox.append(entry);
    }
    info.append(legendBox);
    this.info = info;
    if (data.notes) {
      info.classList.add('qd-wide');
      info.append(notesElement(data.notes));
    }

    const bar = element('div', { class: 'qd-bar' });
    this.playButton = element('button', { id: 'qd-play', title: 'play / pause (space)' }, 'Play');
    this.playButton.addEventListener('click', handlers.onPlayPause);
    this.slider = element('input', {
      id: 'qd-slider', type: 'range', min: '0', max: String(data.frames.t.length - 1),
      step: '1', value: '0', 'aria-label': 'time',
    });
    this.slider.addEventListener('input', () => handlers.onSeekFrame(Number(this.slider.value)));
    this.clock = element('span', { class: 'qd-time' });
    const speed = element('select', { id: 'qd-speed', title: 'playback speed' });
    for (const factor of [0.1, 0.25, 0.5, 1, 2, 4]) {
      const option = element('option', { value: String(factor) }, `${factor}×`);
      if (factor === 1) option.selected = true;
      speed.append(option);
    }
    speed.addEventListener('change', () => handlers.onSpeed(Number(speed.value)));
    const toggle = (id, text) => {
      const label = element('label');
      const box = element('input', { id, type: 'checkbox' });
      box.checked = true;
      label.append(box, document.createTextNode(` ${text}`));
      return [label, box];
    };
    const [pointsLabel, points] = toggle('qd-points', 'contact points');
    const [arrowsLabel, arrows] = toggle('qd-forces', 'force arrows');
    const onToggle = () => handlers.onToggle(points.checked, arrows.checked);
    points.addEventListener('change', onToggle);
    arrows.addEventListener('change', onToggle);
    bar.append(this.playButton, this.slider, this.clock, speed, pointsLabel, arrowsLabel);

    const help = element('div', { class: 'qd-help' },
      'drag: orbit · right-drag: pan · wheel: zoom · space: play/pause · ←/→: step\n' +
      'hover or click a contact point: its force · #t=1.5 in the address: open at t = 1.5 s');
    help.style.whiteSpace = 'pre-line';
    this.readout = element('div', { class: 'qd-readout', id: 'qd-contact' });
    document.body.append(info, bar, help, this.readout);
  }

  // Adds a section (e.g. execution.js's) to the panel, before its notes.
  addSection(node) {
    this.info.insertBefore(node, this.info.querySelector('.qd-notes'));
  }

  // Shows `text` beside the page point (x, y) [px]; hides the readout when text is empty.
  showReadout(text, x, y) {
    this.readout.textContent = text;
    this.readout.style.display = text ? 'block' : 'none';
    this.readout.style.left = `${x + 14}px`;
    this.readout.style.top = `${y + 14}px`;
  }

  setPlaying(playing) {
    this.playButton.textContent = playing ? 'Pause' : 'Play';
  }

  // Shows frame j of `frames` at playback time t [s].
  update(frames, j, t, stepsRequested) {
    this.time.textContent = `${t.toFixed(3)} s`;
    this.clock.textContent = `${t.toFixed(3)} s`;
    this.step.textContent = `${frames.step[j]} / ${stepsRequested}`;
    const status = frames.status[j];
    this.status.textContent = status;
    this.status.className = `qd-value ${statusClass(status)}`;
    this.iterations.textContent = j === 0 ? '–' : String(frames.iterations[j]);
    this.contactCount.textContent = String(frames.contacts[j].length);
    this.momentum.textContent =
      momentumText(frames.momentum ? frames.momentum[j] : [], this.forceThreshold);
    if (Number(this.slider.value) !== j) this.slider.value = String(j);
  }
}
