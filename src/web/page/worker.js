// worker.js - the WASI shim and the edit mode's verdict worker. The page
// runs this text as a script (for snInstantiate) and also starts it as a
// Web Worker from a Blob URL (works from file://): that instance of the
// same module answers {id, text} with snw_check_text, so the page never
// freezes while a network is proved.
'use strict';

// Instantiate a compiled module (wasi-libc, reactor) with the few WASI
// calls it imports; anything else answers ENOSYS. env: the module's own
// imports (js_verdict_start, js_verdict_cancel).
async function snInstantiate(module, env) {
  const ENOSYS = 52;
  let mem = null;
  const dv = () => new DataView(mem.buffer);
  const wasi = {
    fd_write(fd, iovs, n, nwritten) {
      let total = 0, text = '';
      for (let i = 0; i < n; i++) {
        const p = dv().getUint32(iovs + 8 * i, true), len = dv().getUint32(iovs + 8 * i + 4, true);
        text += new TextDecoder().decode(new Uint8Array(mem.buffer, p, len));
        total += len;
      }
      (fd === 2 ? console.warn : console.log)(text.replace(/\n$/, ''));
      dv().setUint32(nwritten, total, true);
      return 0;
    },
    clock_time_get(id, precision, out) { // nanoseconds as two 32-bit halves (no BigInt)
      const ns = (id === 0 ? Date.now() : performance.now()) * 1e6;
      dv().setUint32(out, ns % 4294967296, true);
      dv().setUint32(out + 4, Math.floor(ns / 4294967296), true);
      return 0;
    },
    random_get(buf, len) {
      for (let i = 0; i < len; i += 65536)
        crypto.getRandomValues(new Uint8Array(mem.buffer, buf + i, Math.min(65536, len - i)));
      return 0;
    },
    proc_exit(code) { throw new Error('sortnet exited with ' + code); },
    environ_sizes_get(count, size) { dv().setUint32(count, 0, true); dv().setUint32(size, 0, true); return 0; },
    environ_get() { return 0; },
    args_sizes_get(count, size) { dv().setUint32(count, 0, true); dv().setUint32(size, 0, true); return 0; },
    args_get() { return 0; },
    fd_prestat_get() { return 8; }, // EBADF: no preopened directories (older modules asked)
  };
  const imports = {};
  for (const im of WebAssembly.Module.imports(module)) {
    const table = im.module === 'wasi_snapshot_preview1' ? wasi : env;
    imports[im.module] = imports[im.module] || {};
    imports[im.module][im.name] = table[im.name] || (() => ENOSYS);
  }
  const inst = await WebAssembly.instantiate(module, imports);
  mem = inst.exports.memory;
  if (inst.exports._initialize) inst.exports._initialize();
  return inst.exports;
}

// Call f(ptr, len, ...) with s as UTF-8 in the module's memory.
function snWithString(E, s, f) {
  const b = new TextEncoder().encode(s);
  const p = E.snw_alloc(b.length + 1);
  new Uint8Array(E.memory.buffer, p, b.length + 1).set(b);
  new Uint8Array(E.memory.buffer)[p + b.length] = 0;
  try { return f(p, b.length); } finally { E.snw_free(p); }
}

// A NUL-terminated (or ptr, len) string of the module's memory.
function snString(E, p, len) {
  if (!p) return null;
  const m = new Uint8Array(E.memory.buffer);
  if (len === undefined) { len = 0; while (m[p + len]) len++; }
  return new TextDecoder().decode(m.subarray(p, p + len));
}

if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  let ready = null;
  self.onmessage = (e) => {
    if (e.data.module) {
      ready = snInstantiate(e.data.module, {js_verdict_start: () => 0, js_verdict_cancel() {}});
      return;
    }
    const {id, text} = e.data;
    ready.then((E) => {
      const t0 = performance.now();
      try {
        const answer = snWithString(E, text, (p, n) => snString(E, E.snw_check_text(p, n)));
        self.postMessage({id, answer, ms: performance.now() - t0});
      } catch (e) { // a trap (out of memory, say) leaves the instance unusable: answer, then end
        self.postMessage({id, answer: 'v1 error the checker stopped: ' + e.message, ms: 0, closed: true});
        self.close();
      }
    }, (e) => self.postMessage({id, answer: 'v1 error the checker did not start: ' + e.message, ms: 0, closed: true}));
  };
}
