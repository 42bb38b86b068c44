// page.js - the page around the engine (src/web/engine.h): it turns events
// into engine calls and paints the scene the engine packs; where anything
// goes is decided in C, never here. Also: the controls, files (JSON read
// here, the module has no JSON reader), downloads and the verdict worker.
'use strict';
(async () => {
  const $ = (id) => document.getElementById(id);
  const canvas = $('canvas'), ctx = canvas.getContext('2d');
  const cfg = JSON.parse($('sn-config').textContent || '{}');
  const b64 = $('sn-wasm').textContent.trim();
  const bin = atob(b64), bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bytes.length; i++) bytes[i] = bin.charCodeAt(i);
  const module = await WebAssembly.compile(bytes);

  // ---- the verdict worker (edit mode): started on the first request
  let worker = null, pending = null, E = null;
  window.snVerdictMs = []; // per answer: {check: ms in the worker, total: ms from the request}
  let asked = 0;
  function startWorker() {
    try {
      const url = URL.createObjectURL(new Blob([$('sn-worker').textContent], {type: 'text/javascript'}));
      worker = new Worker(url);
      URL.revokeObjectURL(url);
    } catch (e) { console.warn('sortnet: no worker, the engine checks itself:', e); return false; }
    worker.postMessage({module});
    worker.onmessage = (e) => {
      if (e.data.closed) worker = null; // it failed: the next request starts a fresh one
      if (e.data.id !== pending) return;
      pending = null;
      window.snVerdictMs.push({check: e.data.ms, total: performance.now() - asked});
      deliver(e.data.id, e.data.answer);
    };
    worker.onerror = (e) => { // it could not start: say so (an "error" answer), start afresh next time
      worker.terminate();
      worker = null;
      if (pending !== null) deliver(pending, 'v1 error the verdict worker failed: ' + e.message);
      pending = null;
    };
    return true;
  }
  function deliver(id, answer) {
    snWithString(E, answer, (p, n) => E.snw_verdict_deliver(id, p, n));
    redraw();
  }
  const env = {
    js_verdict_start(id, p, len) {
      if (!worker && !startWorker()) return 0;
      pending = id >>> 0;
      asked = performance.now();
      worker.postMessage({id: pending, text: snString(E, p, len)});
      return 1;
    },
    js_verdict_cancel() { // a check in progress cannot be interrupted: start afresh
      if (pending === null || !worker) return;
      worker.terminate();
      worker = null;
      pending = null;
    },
  };
  E = await snInstantiate(module, env);
  const cat = window.snCatalog = JSON.parse(snString(E, E.snw_catalog()));
  // GPU (issue 35): the schedule on this GPU (webgpu.js); the page works without it
  try { snGpuAttach({module, E, inputSpec}); } catch (e) { console.warn('sortnet: no GPU panel:', e); }
  const exerciseShows = snExerciseAttach({E, redraw, showError}); // exercise.js: a lesson's exercises

  // ---- engine calls; any failure is one line in #error, nothing else changes
  function showError(text) { $('error').textContent = text || ''; }
  function check(rc) {
    if (rc >= 2) showError(snString(E, E.snw_error()) || 'failed (' + rc + ')');
    else showError('');
    redraw();
    return rc;
  }
  const call = (name, s, ...rest) => snWithString(E, s, (p, n) => E[name](p, n, ...rest));
  function inputSpec() {
    const k = $('input-kind').value, v = $('input-value').value.trim();
    return k === 'random' ? 'random:' + (v || '1') : k === 'bits' ? 'bits:' + v : k === 'list' ? 'list:' + v : k;
  }
  // The input follows n: typed values or bits of another length than the network opened give
  // way to random seed 1, and the line says what changed. A network that does not open at all
  // leaves the controls showing what the picture shows: they never disagree with it.
  function withInput(f) {
    const spec = inputSpec();
    let rc = snWithString(E, spec, f);
    const why = rc >= 2 ? snString(E, E.snw_error()) : '';
    if (rc >= 2 && /^(list|bits):/.test(spec) && /^input: .*expected \d+/.test(why)) {
      rc = snWithString(E, 'random:1', f);
      if (rc < 2) {
        inputShows('random:1', true);
        $('info').textContent = 'input: random, seed 1 (the typed ' + (spec[0] === 'b' ? 'bits' : 'values') +
          ' do not fit ' + JSON.parse(snString(E, E.snw_state())).n + ' wires)';
      }
    } else if (rc < 2) $('info').textContent = '';
    rc = check(rc);
    if (rc >= 2 && window.snState) { pickerShows(window.snState.name, true); inputShows(window.snState.input_spec, true); }
    return rc;
  }
  const open = (spec) => withInput((ip, il) => call('snw_open', spec, ip, il));
  function openText(text, file) {
    if (/\.json$/i.test(file) || /^\s*\{/.test(text)) {
      try { text = jsonToSn(text); } catch (e) { showError(file + ':' + e.message); return 2; }
    }
    return withInput((ip, il) => snWithString(E, file, (fp, fl) => call('snw_open_text', text, fp, fl, ip, il)));
  }
  function act(name) { const rc = call('snw_action', name); if (rc === 2) showError(name + ': unknown action'); redraw(); }

  // A JSON network {"N":n,"nw":[[a,b],...] or [[[a,b],...],...]} as
  // libsortnetwork text (which keeps n); a flat list is layered as early as
  // possible, as the native JSON reader does. Errors say "line:col: why".
  function jsonToSn(text) {
    let o;
    try { o = JSON.parse(text); } catch (e) {
      const m = /line (\d+) column (\d+)/.exec(e.message), pos = /position (\d+)/.exec(e.message);
      let where = m ? m[1] + ':' + m[2] : '1:1';
      if (!m && pos) {
        const before = text.slice(0, +pos[1]).split('\n');
        where = before.length + ':' + (before[before.length - 1].length + 1);
      }
      throw new Error(where + ': ' + e.message.replace(/ in JSON.*$/, ''));
    }
    const nw = o && o.nw, pair = (c) => Array.isArray(c) && c.length === 2 && c.every(Number.isInteger);
    if (!Array.isArray(nw)) throw new Error('1:1: expected {"N":n,"nw":[[a,b],...]}');
    let layers = [];
    if (nw.length && Array.isArray(nw[0]) && Array.isArray(nw[0][0])) layers = nw;
    else {
      const last = [];
      for (const c of nw) {
        if (!pair(c)) throw new Error('1:1: "nw" holds ' + JSON.stringify(c) + ', not a comparator [a,b]');
        const k = Math.max(last[c[0]] ?? -1, last[c[1]] ?? -1) + 1;
        (layers[k] = layers[k] || []).push(c);
        last[c[0]] = last[c[1]] = k;
      }
    }
    let n = Number.isInteger(o.N) ? o.N : 0;
    for (const l of layers) for (const c of l) {
      if (!pair(c)) throw new Error('1:1: "nw" holds ' + JSON.stringify(c) + ', not a comparator [a,b]');
      n = Math.max(n, Number.isInteger(o.N) ? 0 : Math.max(c[0], c[1]) + 1);
    }
    return 'Inputs: ' + n + '\n' + layers.map((l) => l.map((c) => c[0] + ' ' + c[1]).join('\n') + '\n').join('\n');
  }

  // ---- painting: one switch over the packed scene, batched as cairo does
  // (a run of one kind and one style is one path)
  const rgba = (S, i) => S[i + 3] > 0 ? `rgba(${S[i] * 255},${S[i + 1] * 255},${S[i + 2] * 255},${S[i + 3]})` : null;
  const CAPS = ['butt', 'round', 'square'], JOINS = ['miter', 'round'];
  let frames = 0;
  function paint() {
    const buf = E.memory.buffer, count = E.snw_scene_count();
    const P = new Float64Array(buf, E.snw_scene_prims(), count * 16);
    const S = new Float64Array(buf, E.snw_scene_styles(), E.snw_scene_style_count() * 16);
    const pp = E.snw_scene_points(), PT = new Float64Array(buf, pp, (buf.byteLength - pp) >> 3);
    const str = new Uint8Array(buf, E.snw_scene_strings(), E.snw_scene_strings_len());
    const dec = new TextDecoder();
    let kind = -1, style = -1, font = '', fill = null, stroke = null;
    ctx.save();
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    function flush() {
      if (kind < 0 || kind === 4) { kind = -1; return; }
      const s = style * 16;
      if (fill && kind !== 0) { ctx.fillStyle = fill; ctx.fill(); } // lines only stroke
      if (stroke) {
        ctx.strokeStyle = stroke;
        ctx.lineWidth = S[s + 13] & 1 ? Math.max(S[s + 8], 1) : S[s + 8];
        ctx.lineCap = CAPS[S[s + 11]] || 'butt';
        ctx.lineJoin = JOINS[S[s + 12]] || 'miter';
        ctx.setLineDash(S[s + 9] + S[s + 10] >= 2 ? [S[s + 9], S[s + 10]] : []);
        ctx.stroke();
      }
      kind = -1;
    }
    for (let i = 0; i < count; i++) {
      const o = i * 16, k = P[o], st = P[o + 1];
      if (k === 7) continue; // a note: never painted
      if (k === 5 || k === 6) {
        flush();
        font = ''; // restore() brings back the font of its save()
        if (k === 5) { ctx.save(); ctx.beginPath(); ctx.rect(P[o + 6], P[o + 7], P[o + 8] - P[o + 6], P[o + 9] - P[o + 7]); ctx.clip(); }
        else ctx.restore();
        continue;
      }
      if (k !== kind || st !== style) {
        flush();
        kind = k; style = st;
        fill = rgba(S, st * 16); stroke = rgba(S, st * 16 + 4);
        ctx.beginPath();
      }
      const x0 = P[o + 6], y0 = P[o + 7], x1 = P[o + 8], y1 = P[o + 9], r = P[o + 10];
      switch (k) {
      case 0: ctx.moveTo(x0, y0); ctx.lineTo(x1, y1); break;
      case 1:
        if (r >= 1.5 && 2 * r <= Math.min(x1 - x0, y1 - y0)) ctx.roundRect(x0, y0, x1 - x0, y1 - y0, r);
        else ctx.rect(x0, y0, x1 - x0, y1 - y0);
        break;
      case 2: {
        const f = P[o + 14], c = P[o + 15];
        for (let j = 0; j < c; j++) (j ? ctx.lineTo : ctx.moveTo).call(ctx, PT[2 * (f + j)], PT[2 * (f + j) + 1]);
        if (r) ctx.closePath();
        break;
      }
      case 3: ctx.moveTo(x0 + r, y0); ctx.arc(x0, y0, r, 0, 2 * Math.PI); break;
      case 4: {
        const size = P[o + 11];
        if (size < 4) break;
        const f = (P[o + 13] ? 'bold ' : '') + size + 'px "DejaVu Sans", sans-serif';
        if (f !== font) ctx.font = font = f;
        ctx.fillStyle = fill || '#000';
        ctx.fillText(dec.decode(str.subarray(P[o + 14], P[o + 14] + P[o + 15])), x0, P[o + 12]);
        break;
      }
      }
    }
    flush();
    ctx.restore();
    if (frames++ === 0) performance.mark('sn-first-frame');
    window.snFrames = frames;
  }

  // ---- one frame: size the canvas in device pixels, build, paint, read the state
  let raf = 0, last = 0;
  window.snDrawMs = []; // the last frames' build + paint times (bench/web_page_bench.py)
  function draw() {
    const t0 = performance.now(), dpr = window.devicePixelRatio || 1, r = canvas.getBoundingClientRect();
    const w = Math.max(1, Math.round(r.width * dpr)), h = Math.max(1, Math.round(r.height * dpr));
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
    if (E.snw_frame(w, h, dpr) === 0) paint();
    else showError(snString(E, E.snw_error()));
    const prev = window.snState, s = window.snState = JSON.parse(snString(E, E.snw_state()));
    if (!prev || prev.name !== s.name) pickerShows(s.name);
    inputShows(s.input_spec);
    notesShow();
    $('verdict').textContent = [s.name, s.size_text, s.verdict].filter(Boolean).join(' · ');
    $('step').textContent = 'layer ' + s.step + '/' + s.layers;
    $('play').textContent = s.playing ? 'Pause' : 'Play';
    for (const [id, on] of [['structure', s.structure], ['zero-one', s.zero_one], ['edit', s.edit]])
      $(id).setAttribute('aria-pressed', on ? 'true' : 'false');
    document.body.classList.toggle('dark', s.theme === 'dark');
    if (document.activeElement !== $('speed')) { $('speed').max = s.speeds - 1; $('speed').value = s.speed; }
    $('help').setAttribute('aria-pressed', s.help ? 'true' : 'false');
    linkShows(s);
    editRoom(s);
    $('undo').disabled = !s.can_undo;
    $('redo').disabled = !s.can_redo;
    const L = s.lesson;
    $('lesson-info').textContent = L ? 'step ' + (L.step + 1) + '/' + L.count + ': ' + L.step_title : '';
    const shown = L && cat.lessons.find((l) => l.title === L.title);
    if ($('lesson').value !== (shown ? shown.name : '')) $('lesson').value = shown ? shown.name : '';
    $('lesson-prev').disabled = !L || L.step === 0;
    $('lesson-next').disabled = !L || L.step + 1 >= L.count;
    exerciseShows(s);
    if (window.snDrawMs.push(performance.now() - t0) > 600) window.snDrawMs.shift();
  }
  // ---- the address carries the state (session/link.h): replaced as the state changes (not
  // while playing), read when the page opens and when the address changes
  let linkKey = '', linkWritten = '';
  function linkShows(s) {
    if (s.playing || E.snw_busy()) return;
    const key = [s.name, s.step, s.input_spec, s.size_text, s.layers, s.can_undo, s.can_redo, s.lesson && s.lesson.step,
      s.lesson && s.lesson.title, s.exercise && s.exercise.asked].join('|'); // asked: a first answer joins ex=
    if (key === linkKey) return;
    linkKey = key;
    const text = snString(E, E.snw_link());
    window.snLink = text;
    if (!text) return;
    linkWritten = '#' + text;
    if (location.hash !== linkWritten) {
      try { history.replaceState(null, '', linkWritten); } catch (e) { console.warn('sortnet: the address keeps its link:', e); }
    }
  }
  function openLink(hash) { // 0 opened; 2 a bad link: its one line shown
    let text = hash.replace(/^#/, '');
    try { text = decodeURIComponent(text); } catch (e) { /* the engine names the bad byte */ }
    const lt = cfg.lesson_text || null, ln = cfg.lesson_text ? (cfg.lesson_file || 'lesson') : null;
    const rc = snWithString(E, text, (p, n) => lt ? snWithString(E, lt, (tp, tl) =>
      snWithString(E, ln, (np, nl) => E.snw_link_open(p, n, tp, tl, np, nl))) : E.snw_link_open(p, n, 0, 0, 0, 0));
    const why = rc >= 2 ? snString(E, E.snw_error()) : '';
    if (rc < 2) { linkKey = ''; showError(''); }
    redraw();
    return why;
  }
  window.addEventListener('hashchange', () => {
    if (location.hash && location.hash !== linkWritten) { const why = openLink(location.hash); if (why) showError(why); }
  });

  // ---- edit mode on a narrow screen: a larger picture, scrolled with one finger (taps still add:
  // a wire, then another), so rows and columns are far enough apart for a finger
  const ROW_PX = 44, COL_PX = 22, NARROW = 600;
  let roomKey = '';
  function editRoom(s) {
    const vw = document.documentElement.clientWidth, vh = document.documentElement.clientHeight;
    const on = s.edit && vw <= NARROW;
    let cols = 0;
    if (on) {
      const count = E.snw_scene_count(), P = new Float64Array(E.memory.buffer, E.snw_scene_prims(), count * 16), xs = new Set();
      for (let o = 0; o < count * 16; o += 16) if (P[o + 2] === 10) xs.add(Math.round(P[o + 6]));
      cols = xs.size;
    }
    const key = on ? [s.n, cols, vw, vh].join(',') : '';
    if (key === roomKey) return;
    roomKey = key;
    document.body.classList.toggle('edit-room', on);
    if (!on) { canvas.style.width = canvas.style.height = canvas.style.touchAction = ''; return; }
    canvas.style.width = Math.max(vw, cols * COL_PX + 60) + 'px';
    canvas.style.height = Math.max($('stage').clientHeight, s.n * ROW_PX + 240) + 'px';
    canvas.style.touchAction = 'pan-x pan-y';
    redraw();
  }

  window.snStepTo = (k) => { E.snw_step_to(k); draw(); }; // one frame at step k, now
  function frame(t) {
    raf = 0;
    if (E.snw_busy()) E.snw_tick(last ? t - last : 0);
    last = t;
    draw();
    if (E.snw_busy()) redraw(); else last = 0;
  }
  function redraw() { if (!raf) raf = requestAnimationFrame(frame); }
  new ResizeObserver(redraw).observe(canvas);

  // ---- the last frame's primitives of one role (8 wire, 10 comparator, ...;
  // none: all), in CSS pixels: where the tests click and what they measure
  window.snScene = (role) => {
    const count = E.snw_scene_count(), dpr = window.devicePixelRatio || 1, out = [];
    const P = new Float64Array(E.memory.buffer, E.snw_scene_prims(), count * 16);
    const str = new Uint8Array(E.memory.buffer, E.snw_scene_strings(), E.snw_scene_strings_len());
    for (let o = 0; o < count * 16; o += 16)
      if (P[o + 2] === role || role === undefined)
        out.push({kind: P[o], role: P[o + 2], wire: P[o + 3], layer: P[o + 4], cmp: P[o + 5], x0: P[o + 6] / dpr,
          y0: P[o + 7] / dpr, x1: P[o + 8] / dpr, y1: P[o + 9] / dpr, r: P[o + 10] / dpr,
          size: P[o + 11] / dpr, weight: P[o + 13],
          text: P[o] === 4 || P[o] === 7 ? new TextDecoder().decode(str.subarray(P[o + 14], P[o + 14] + P[o + 15])) : null});
    return out;
  };

  // ---- pointer, wheel, keys (as the window's)
  const dev = (e) => [e.offsetX * (window.devicePixelRatio || 1), e.offsetY * (window.devicePixelRatio || 1)];
  // two fingers on the canvas pinch: the zoom of the wheel, around their midpoint. The first
  // finger's press is cancelled when the second comes down (it adds, selects and moves
  // nothing); the fingers left after a pinch do nothing until all are lifted.
  const fingers = new Map();
  let spread = 0, pinched = false;
  const apart = () => { const [a, b] = [...fingers.values()]; return [Math.hypot(a[0] - b[0], a[1] - b[1]), (a[0] + b[0]) / 2, (a[1] + b[1]) / 2]; };
  const pointer = (kind) => (e) => {
    if (e.pointerType === 'touch') {
      if (kind === 0) fingers.set(e.pointerId, dev(e));
      else if (kind === 1 && fingers.has(e.pointerId)) fingers.set(e.pointerId, dev(e));
      if (fingers.size === 2 && kind === 0) { // the pinch begins
        if (!pinched && E.snw_pointer(3, 0, 0)) redraw(); // the first finger's press does nothing
        pinched = true;
        spread = apart()[0];
        return;
      }
      if (kind === 2) {
        fingers.delete(e.pointerId);
        if (pinched) { pinched = fingers.size > 0; return; }
      }
      if (pinched) {
        if (kind === 1 && fingers.size === 2) {
          const [d, mx, my] = apart();
          if (spread > 0 && d > 0 && E.snw_wheel(mx, my, Math.log(d / spread) / Math.log(1.2))) redraw();
          spread = d;
        }
        return;
      }
    }
    if (kind === 0) { canvas.setPointerCapture(e.pointerId); canvas.focus(); }
    if (E.snw_pointer(kind, ...dev(e))) redraw();
  };
  canvas.addEventListener('pointerdown', pointer(0));
  canvas.addEventListener('pointermove', pointer(1));
  canvas.addEventListener('pointerup', pointer(2));
  canvas.addEventListener('pointercancel', pointer(2));
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    if (E.snw_wheel(...dev(e), -e.deltaY / 100)) redraw();
  }, {passive: false});
  // the window's keys; here S and P download (SVG, the canvas as PNG), Ctrl+S the network,
  // O opens a file, F11 fills the screen
  const KEYS = {ArrowRight: 'right', ArrowLeft: 'left', ArrowUp: 'up', ArrowDown: 'down', ' ': 'space',
    Home: 'home', End: 'end', PageUp: 'pageup', PageDown: 'pagedown', Delete: 'delete',
    Backspace: 'delete', Escape: 'escape', F1: 'h', '+': 'plus', '-': 'minus', '?': 'h'};
  const PAGE = {s: () => $('dl-svg').click(), p: () => canvas.toBlob((b) => download(b, '.png')), q() {},
    o: () => $('file').click(), F11: () => document.documentElement.requestFullscreen(),
    'ctrl+s': () => $('dl-bracket').click()};
  document.addEventListener('keydown', (e) => {
    if (/^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName) && e.key !== 'Escape') return;
    const st = window.snState;
    if (e.key === 'Escape' && st && st.lesson && !st.edit && !st.help) { e.preventDefault(); lessonClose(); return; }
    if (e.target.tagName === 'BUTTON' && (e.key === ' ' || e.key === 'Enter')) return; // the button's own
    if (e.altKey) return; // the browser's
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key, plain = !e.ctrlKey && !e.metaKey;
    let name = !plain ? {z: e.shiftKey ? 'redo' : 'undo', y: 'redo'}[k]
      : KEYS[e.key] || ((cat.actions || []).includes(k) && !PAGE[k] ? k : null);
    if (e.key === 'Tab' && e.target === canvas) name = 'tab';
    const page = PAGE[plain ? k : 'ctrl+' + k];
    if (!name && !page) return;
    e.preventDefault();
    if (name) act(name); else page();
  });
  canvas.addEventListener('dblclick', () => act('fit'));

  // ---- controls
  let inputShown = null;
  function inputShows(spec, force) { // the engine's input in the Input control (unless it is being typed in)
    if (!spec || (!force && (spec === inputShown || [$('input-kind'), $('input-value')].includes(document.activeElement)))) return;
    inputShown = spec;
    const m = /^(random|bits|list):(.*)$/.exec(spec);
    $('input-kind').value = m ? m[1] : spec;
    $('input-value').value = m ? m[2] : '';
    $('input-value').disabled = !m;
  }
  function notesShow() { // what the scene left out at this size (its notes), in one line
    const count = E.snw_scene_count(), P = new Float64Array(E.memory.buffer, E.snw_scene_prims(), count * 16);
    const str = new Uint8Array(E.memory.buffer, E.snw_scene_strings(), E.snw_scene_strings_len()), notes = [];
    for (let o = 0; o < count * 16; o += 16) // text hidden first, then labels left out, then thinned
      if (P[o] === 7) notes.push([-P[o + 13], new TextDecoder().decode(str.subarray(P[o + 14], P[o + 14] + P[o + 15]))]);
    const text = [...new Set(notes.sort((a, b) => a[0] - b[0]).map((n) => n[1]))].join(' · ');
    if ($('notes').textContent !== text) { $('notes').textContent = text; $('notes').title = text; }
  }
  function pickerShows(name, force) { // the network shown, in the picker (unless it is being typed in)
    if (force || document.activeElement !== $('net-name')) $('net-name').value = name;
    const m = /^([\w-]+):(\d+)$/.exec(name);
    if (m && [...$('net-gen').options].some((o) => o.value === m[1])) { $('net-gen').value = m[1]; $('net-n').value = m[2]; }
    else $('net-gen').value = ''; // a file, a paste, dist:, lib:...: "other", not the last generator picked
    const gn = $('gpu-n'), gen = $('net-gen').value !== ''; // the GPU's n makes a generator's network
    if (gn) {
      gn.disabled = !gen;
      if (!gen) gn.value = '';
      gn.placeholder = gen ? 'n' : 'as shown';
    }
  }
  for (const g of cat.generators) $('net-gen').add(new Option(g.name, g.name));
  for (const g of ['best', 'median']) if (cat[g]) $('net-gen').add(new Option(g + ':N (' + cat[g].join('..') + ')', g));
  for (const l of cat.lessons) $('lesson').add(new Option(l.title || l.name, l.name));
  const openPicked = () => { $('net-name').value = $('net-gen').value + ':' + $('net-n').value; open($('net-name').value); canvas.focus(); };
  $('net-gen').onchange = $('net-n').onchange = openPicked;
  $('net-open').onclick = () => { open($('net-name').value.trim()); canvas.focus(); };
  $('net-name').onkeydown = (e) => { if (e.key === 'Enter') open($('net-name').value.trim()); };
  $('paste-toggle').onclick = () => {
    const box = $('paste-box');
    box.hidden = !box.hidden;
    $('paste-toggle').setAttribute('aria-expanded', String(!box.hidden));
    redraw();
  };
  $('paste-open').onclick = () => openText($('paste').value, 'pasted');
  $('paste').onkeydown = (e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) $('paste-open').click(); };
  // an image dropped or picked as a network says so (its bytes read as text say only "byte 0xef")
  const IMAGES = [['PNG', [0x89, 0x50, 0x4e, 0x47]], ['JPEG', [0xff, 0xd8, 0xff]], ['GIF', [0x47, 0x49, 0x46, 0x38]],
    ['WebP', [0x52, 0x49, 0x46, 0x46]], ['BMP', [0x42, 0x4d]]];
  const openFile = async (f) => {
    if (!f) return;
    const head = new Uint8Array(await f.slice(0, 16).arrayBuffer());
    const img = IMAGES.find(([, m]) => m.every((b, i) => head[i] === b)) ;
    if (img && !(img[0] === 'BMP' && head.every((b) => b < 0x80))) {
      showError(f.name + ': this is an image (' + img[0] + '), not a network: open a network file ' +
        '(bracket text, JSON or .sn) or paste its text');
      return;
    }
    openText(await f.text(), f.name);
  };
  $('file').onchange = async () => { await openFile($('file').files[0]); $('file').value = ''; };
  document.addEventListener('dragover', (e) => e.preventDefault());
  document.addEventListener('drop', (e) => { e.preventDefault(); openFile(e.dataTransfer.files[0]); });
  $('input-apply').onclick = () => {
    if (check(snWithString(E, inputSpec(), (p, n) => E.snw_set_input(p, n))) < 2) canvas.focus();
  };
  $('input-kind').onchange = () => { // reverse and sorted need no value: at once
    const k = $('input-kind').value, none = k === 'reverse' || k === 'sorted';
    $('input-value').disabled = none;
    $('input-value').placeholder = {random: 'seed', bits: '0110…', list: '3,1,2…'}[k] || '';
    if (none) $('input-apply').onclick(); else { $('input-value').focus(); $('input-value').select(); }
  };
  $('input-value').onkeydown = (e) => { if (e.key === 'Enter') $('input-apply').onclick(); };
  const buttons = {home: 'home', back: 'left', play: 'space', fwd: 'right', end: 'end', structure: 'w',
    'zero-one': 'z', edit: 'e', undo: 'undo', redo: 'redo', delete: 'delete'};
  for (const [id, name] of Object.entries(buttons)) $(id).onclick = () => { act(name); canvas.focus(); };
  // choosing none (or Esc) leaves the lesson: its step's network stays, as a plain one
  const lessonClose = () => { if (E.snw_lesson_close()) showError(''); redraw(); };
  $('lesson').onchange = () => {
    if ($('lesson').value) check(snWithString(E, $('lesson').value, (p, n) => E.snw_lesson_open(0, 0, p, n)));
    else lessonClose();
    canvas.focus();
  };
  const lessonGo = (d) => { if (window.snState.lesson) check(E.snw_lesson_go(window.snState.lesson.step + d)); canvas.focus(); };
  $('lesson-prev').onclick = () => lessonGo(-1);
  $('lesson-next').onclick = () => lessonGo(1);
  $('speed').oninput = () => { // the slider steps the speed as + and - do
    const want = +$('speed').value;
    for (let i = 0, at = window.snState.speed; at !== want && i < 16; i++, at += want > at ? 1 : -1) act(want > at ? 'plus' : 'minus');
  };
  $('speed').onchange = () => canvas.focus();
  $('help').onclick = () => { act('h'); canvas.focus(); };
  $('more').onclick = () => {
    const on = document.body.classList.toggle('more');
    $('more').setAttribute('aria-expanded', String(on));
    redraw();
  };
  $('copy-link').onclick = async () => {
    const url = location.href;
    try { await navigator.clipboard.writeText(url); $('notes').textContent = 'link copied: ' + url; }
    catch (e) { window.prompt('Copy this link:', url); }
    canvas.focus();
  };
  const EXT = {bracket: '.txt', json: '.json', sn: '.sn', svg: '.svg'};
  window.snExport = (fmt) => snString(E, call('snw_export', fmt));
  for (const fmt of Object.keys(EXT)) $('dl-' + fmt).onclick = () => {
    const text = window.snExport(fmt);
    if (text === null) return showError(snString(E, E.snw_error()));
    download(new Blob([text], {type: fmt === 'svg' ? 'image/svg+xml' : 'text/plain'}), EXT[fmt]);
  };
  // a network's file name without the extension it came with: Sort_12.json saves as
  // Sort_12.json, not Sort_12.json.json
  function downloadName(name, ext) {
    return (name || 'network').replace(/\.(json|txt|sn|svg|png|lesson)$/i, '').replace(/[^\w.-]+/g, '_') + ext;
  }
  function download(blob, ext) {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = downloadName(window.snState.name, ext);
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  // ---- what to open first (the config `sortnet web` wrote)
  if (cfg.input) {
    const m = /^(random|bits|list):(.*)$/.exec(cfg.input);
    $('input-kind').value = m ? m[1] : cfg.input;
    $('input-value').value = m ? m[2] : '';
    $('input-value').disabled = !m;
  }
  const linkWhy = location.hash.length > 1 ? openLink(location.hash) : null;
  if (linkWhy === '') { // the link opened: it says what to show
  } else if (cfg.lesson_text || cfg.lesson) {
    const name = cfg.lesson || '';
    if (cfg.lesson_text) check(snWithString(E, cfg.lesson_text, (tp, tl) =>
      snWithString(E, cfg.lesson_file || 'lesson', (fp, fl) => E.snw_lesson_open(tp, tl, fp, fl))));
    else check(snWithString(E, name, (p, n) => E.snw_lesson_open(0, 0, p, n)));
  } else if (cfg.net_text) {
    openText(cfg.net_text, cfg.net_file || 'network');
  } else {
    $('net-name').value = cfg.net || 'bitonic:16';
    open($('net-name').value);
  }
  if (linkWhy) showError(linkWhy); // a bad link: its line, over the default page
  window.snReady = true;
  redraw();
})().catch((e) => {
  document.getElementById('error').textContent = 'sortnet: the page could not start: ' + e.message;
  console.error(e);
});
