// smoke_node.mjs - a quick run of the page's module under node (not part
// of CTest; the browser tests of the page cover it in chromium):
//   node src/web/smoke_node.mjs build/src/web/sortnet.wasm
// Opens bitonic:8 on 8..1, steps three layers, builds a frame, reads the
// state, checks a network as the worker would, and exports an SVG.
import fs from 'fs';

const file = process.argv[2] || 'build/src/web/sortnet.wasm';
let mem;
const dec = new TextDecoder(), enc = new TextEncoder();
const view = () => new DataView(mem.buffer);
const wasi = {
  // no files, no preopened directories: the engine needs none
  fd_prestat_get: () => 8, fd_prestat_dir_name: () => 8,
  fd_write: (fd, iovs, n, out) => {
    let len = 0, s = '';
    for (let i = 0; i < n; i++) {
      const p = view().getUint32(iovs + 8 * i, true), l = view().getUint32(iovs + 8 * i + 4, true);
      s += dec.decode(new Uint8Array(mem.buffer, p, l));
      len += l;
    }
    process.stderr.write(s);
    view().setUint32(out, len, true);
    return 0;
  },
  clock_time_get: (id, prec, out) => { view().setBigUint64(out, 0n, true); return 0; },
  proc_exit: (c) => { throw new Error('proc_exit ' + c); },
};
for (const n of ['fd_close', 'fd_fdstat_get', 'fd_fdstat_set_flags', 'fd_filestat_get', 'fd_read',
                 'fd_seek', 'path_filestat_get', 'path_open'])
  wasi[n] = () => 52; // ENOSYS
let started = [];
const env = {
  js_verdict_start: (id, p, len) => { started.push([id, dec.decode(new Uint8Array(mem.buffer, p, len))]); return 1; },
  js_verdict_cancel: () => {},
};
const { instance } = await WebAssembly.instantiate(fs.readFileSync(file),
                                                   { wasi_snapshot_preview1: wasi, env });
const x = instance.exports;
mem = x.memory;
x._initialize();
const str = (p) => { const a = new Uint8Array(mem.buffer, p); return dec.decode(a.subarray(0, a.indexOf(0))); };
const withStr = (s, f) => { const b = enc.encode(s), p = x.snw_alloc(b.length + 1);
  new Uint8Array(mem.buffer, p, b.length).set(b); try { return f(p, b.length); } finally { x.snw_free(p); } };
const call2 = (f, a, b) => withStr(a, (pa, la) => withStr(b, (pb, lb) => f(pa, la, pb, lb)));
const fail = (m) => { console.error('FAIL: ' + m); process.exit(1); };

let t0 = performance.now();
if (call2(x.snw_open, 'bitonic:8', 'list:8,7,6,5,4,3,2,1') !== 0) fail(str(x.snw_error()));
for (let i = 0; i < 3; i++) withStr('right', x.snw_action);
while (x.snw_busy()) x.snw_tick(50);
if (x.snw_frame(1280, 720, 1) !== 0) fail(str(x.snw_error()));
const st = JSON.parse(str(x.snw_state()));
console.log('state:', st.name, 'step', st.step, 'values', st.values.join(','), '|', st.status);
console.log('scene:', x.snw_scene_count(), 'primitives,', x.snw_scene_style_count(), 'styles,',
            x.snw_scene_strings_len(), 'bytes of text');
console.log('open + 3 steps + frame: %s ms', (performance.now() - t0).toFixed(1));
if (st.step !== 3) fail('step ' + st.step);
const cat = JSON.parse(str(x.snw_catalog()));
console.log('catalog:', cat.generators.length, 'generators,', cat.lessons.length, 'lessons, best', cat.best);
t0 = performance.now();
const best = withStr('best:16', (p, l) => withStr('', (q, m) => x.snw_open(p, l, q, m)));
const text = withStr('bracket', x.snw_export);
const ans = withStr(str(text), x.snw_check_text);
console.log('check best:16:', str(ans), (performance.now() - t0).toFixed(1), 'ms');
const svg = str(withStr('svg', x.snw_export));
console.log('svg:', svg.length, 'bytes', svg.startsWith('<?xml') ? 'ok' : 'BAD');
const bad = call2((a, b, c, d) => x.snw_open_text(a, b, c, d, 0, 0), '[(0,1)]\n[(1,x)]\n', 'bad.txt');
console.log('malformed:', bad, str(x.snw_error()));
console.log('ok');
// every shipped lesson, played to its end, framed at every step
for (const l of cat.lessons) {
  if (withStr(l.name, (p, n) => x.snw_lesson_open(0, 0, p, n)) !== 0) fail(l.name + ': ' + str(x.snw_error()));
  const count = JSON.parse(str(x.snw_state())).lesson.count;
  for (let i = 1; i < count; i++) {
    withStr('right', x.snw_action);
    while (x.snw_busy()) x.snw_tick(100);
    if (x.snw_frame(1280, 720, 2) !== 0) fail(str(x.snw_error()));
  }
  const s = JSON.parse(str(x.snw_state()));
  console.log('lesson', l.name, 'step', s.lesson.step + 1, 'of', count, '-', s.lesson.step_title);
}
console.log('lessons ok');
