// webgpu.js - the shown schedule on the student's own GPU (WebGPU), verified
// against the WebAssembly reference layer by layer, as `sortnet gpu verify`
// does with OpenCL. The plan (layers, tile-local runs), the keys and the
// reference's per-layer digests come from the C core (src/web/gpu_plan.c,
// in an instance of the module of its own, so that nothing the page's
// engine holds is at risk); the kernels are kernels/*.wgsl (SN_WGSL, put in
// front of this file by src/cli/embed_web.cmake).
//
// window.snGpu: what the last run found (the tests read it); window.snGpuRun(opts)
// runs one: opts {net: name or text (default: the shown network), text: true
// when net is network text, input (default: the page's input), type: 'i32' |
// 'u32' | 'f32', payload: bool, inject: {layer (1-based), index} | null,
// time: bool (default true), verify: false (no digests: the final array
// only, for benchmarks), fuse: false (every layer a pass of its own),
// kernels: {name: WGSL} replacing kernels/NAME.wgsl for this run, max_buffer:
// bytes, a lower buffer limit than the adapter's, lose: true (the device
// destroyed before the run) (tests)}. Errors never throw out of it: snGpu.status
// 'error' and snGpu.message say what happened.
'use strict';

const SN_GPU_TILE = 1024; // keys a workgroup's tile: 4 KB of keys + 4 KB of payload
const SN_GPU_MAX_N = 1 << 24;

function snGpuAttach({module, E, inputSpec}) {
  const $ = (id) => document.getElementById(id);
  const line = $('gpu-line'), box = $('gpu-box');
  const gpu = window.snGpu = {available: null, adapter: '', status: 'idle', message: ''};
  let P = null; // the plan's own instance of the module
  let device = null, adapter = null, pipes = null, used = null;
  const lost = new WeakMap(); // device -> why it was lost

  function say(text, kind) {
    line.textContent = text;
    line.className = kind || '';
  }
  function set(fields) { Object.assign(gpu, fields); }

  // ---- the controls (page.html holds the empty box)
  box.insertAdjacentHTML('beforeend',
    '<button id="gpu-run" data-testid="gpu-run" title="Run the shown network on this GPU and compare every layer">Run on this GPU</button>' +
    '<select id="gpu-type" data-testid="gpu-type" aria-label="key type"><option value="i32">i32</option>' +
    '<option value="u32">u32</option><option value="f32">f32</option>' +
    '<option value="f32s">f32, NaNs, ±0</option></select>' +
    '<label title="move the original index with the keys"><input id="gpu-payload" data-testid="gpu-payload" type="checkbox"> payload</label>' +
    '<input id="gpu-n" data-testid="gpu-n" type="number" min="1" max="' + SN_GPU_MAX_N + '" placeholder="n" aria-label="keys (empty: the shown network)" class="num" title="n: the generator with this many keys (empty: the shown network)">' +
    '<input id="gpu-fault" data-testid="gpu-fault" type="number" min="1" placeholder="fault" aria-label="inject a fault after layer" class="num" title="inject a fault: corrupt one key after this layer">');

  // ---- WebGPU: the adapter once, a device per run until it is lost
  async function getDevice() {
    if (device) return device;
    if (!navigator.gpu) throw new Error('WebGPU is not available in this browser (no navigator.gpu)');
    adapter = adapter || await navigator.gpu.requestAdapter();
    if (!adapter) throw new Error('WebGPU is not available here: the browser offers no GPU adapter');
    const lim = adapter.limits;
    device = await adapter.requestDevice({requiredLimits: {
      maxStorageBufferBindingSize: lim.maxStorageBufferBindingSize, maxBufferSize: lim.maxBufferSize}});
    const d = device;
    d.lost.then((info) => {
      if (device === d) { device = null; pipes = null; adapter = null; } // a lost device's adapter is spent
      lost.set(d, info.message || info.reason || 'no reason given');
      if (gpu.status !== 'running') { // between runs: say so now; during one, the run says it
        set({status: 'error', message: 'the GPU device was lost (' + lost.get(d) + '); the next run asks for a new one'});
        say('GPU: ' + gpu.message, 'err');
      }
    });
    pipes = null;
    return d;
  }
  function adapterName() {
    const i = (adapter && adapter.info) || {};
    return i.description || [i.vendor, i.architecture, i.device].filter(Boolean).join(' ') || 'unnamed adapter';
  }

  // Compile the three kernels; a WGSL error names its file, line and column.
  // src: replacement sources (tests: a kernel that does not compile).
  async function pipelines(d, src) {
    if (pipes && !src) return pipes;
    const W = Object.assign({}, SN_WGSL, src || {});
    const pre = 'const TILE: u32 = ' + SN_GPU_TILE + 'u;\n' + W.common + '\n';
    const preLines = pre.split('\n').length - 1;
    const entries = [0, 1, 2, 3, 4, 5, 6].map((b) => ({binding: b, visibility: GPUShaderStage.COMPUTE,
      buffer: {type: b === 5 ? 'uniform' : b === 2 || b === 3 ? 'read-only-storage' : 'storage',
        hasDynamicOffset: b === 5}}));
    const bgl = d.createBindGroupLayout({entries});
    const layout = d.createPipelineLayout({bindGroupLayouts: [bgl]});
    const out = {bgl};
    for (const [file, points] of [['layer', ['layer', 'inject']], ['fused', ['fused']], ['digest', ['partial', 'total']]]) {
      const code = pre + W[file];
      const mod = d.createShaderModule({code, label: file + '.wgsl'});
      const info = await mod.getCompilationInfo();
      const bad = info.messages.find((m) => m.type === 'error');
      if (bad) {
        const where = bad.lineNum > preLines ? 'kernels/' + file + '.wgsl:' + (bad.lineNum - preLines)
          : 'kernels/common.wgsl:' + (bad.lineNum - 1);
        throw new Error('the GPU kernels do not compile: ' + where + ':' + bad.linePos + ': ' + bad.message);
      }
      for (const p of points)
        out[p] = await d.createComputePipelineAsync({layout, compute: {module: mod, entryPoint: p}});
    }
    if (!src) pipes = out;
    return out;
  }

  // ---- the plan's module instance (made afresh after a trap)
  async function plan() {
    if (!P) P = await snInstantiate(module, {js_verdict_start: () => 0, js_verdict_cancel() {}});
    return P;
  }
  const u32s = (p, count) => new Uint32Array(P.memory.buffer, p, count).slice();
  function cFail(rc) { if (rc) throw new Error(snString(P, P.snw_gpu_error())); }

  const size = (b) => b >= 1048576 ? (b / 1048576).toFixed(1) + ' MB' : b >= 1024 ? (b / 1024).toFixed(1) + ' KB' : b + ' bytes';
  function buffer(d, bytes, usage, data, cap) {
    const max = Math.min(d.limits.maxStorageBufferBindingSize, cap || Infinity);
    if (bytes > max)
      throw new Error(size(bytes) + ' in one buffer is over this adapter\'s limit of ' + size(max) +
        ' (maxStorageBufferBindingSize): take fewer keys');
    const b = d.createBuffer({size: Math.max(16, Math.ceil(bytes / 4) * 4), usage, mappedAtCreation: !!data});
    if (data) { new Uint32Array(b.getMappedRange()).set(data); b.unmap(); }
    return b;
  }

  // One GPU run of the plan: all passes in one compute pass (WebGPU orders
  // the dispatches' storage accesses), digests after every layer when
  // `digest`, up to layer `stop` (count). Returns {keys, pay, digests, ms}.
  async function gpuRun(d, pl, job, {digest, stop, readKeys}) {
    const S = GPUBufferUsage.STORAGE, CD = GPUBufferUsage.COPY_DST, CS = GPUBufferUsage.COPY_SRC;
    const {n, L, layers, partners, passes, kt, input, inpay, inject} = job;
    const ntiles = Math.ceil(n / SN_GPU_TILE);
    // passes up to `stop`: a fused run cut at stop keeps its first layers
    const todo = [];
    for (const [first, count, fused] of passes) {
      if (first >= stop) break;
      todo.push([first, Math.min(count, stop - first), fused && Math.min(count, stop - first) > 1]);
    }
    const maxRun = Math.max(1, ...todo.map((p) => p[1]));
    const bufs = [];
    const mk = (bytes, usage, data) => { const b = buffer(d, bytes, usage, data, job.cap); bufs.push(b); return b; };
    d.pushErrorScope('out-of-memory');
    d.pushErrorScope('validation');
    let scoped = true;
    const scopes = async () => { // what the GPU refused, by its own words
      scoped = false;
      const ve = await d.popErrorScope(), oe = await d.popErrorScope();
      if (ve) throw new Error('the GPU refused the run: ' + ve.message);
      if (oe) throw new Error('the GPU is out of memory: ' + oe.message);
    };
    try {
      const kb = mk(n * 4, S | CD | CS, input);
      const pb = inpay ? mk(n * 4, S | CD | CS, inpay) : mk(16, S);
      const lb = mk(layers.length * 4, S, layers);
      const rb = partners.length ? mk(partners.length * 4, S, partners) : mk(16, S);
      const partial = mk(ntiles * maxRun * 8, S);
      const dig = mk((L + 1) * 8, S | CS);
      const slots = todo.length + 1, stride = 256;
      const params = new Uint32Array(slots * stride / 4);
      const inj = inject ? inject.layer - 1 : 0xffffffff, injIndex = inject ? inject.index : 0;
      const put = (slot, first, count, dstep) => params.set(
        [first, count, n, kt, inpay ? 1 : 0, ntiles, inj, injIndex, dstep, digest ? 1 : 0, 0, 0], slot * stride / 4);
      put(0, 0, 1, 0);
      todo.forEach(([first, count], i) => put(i + 1, first, count, first + 1));
      const ub = mk(params.byteLength, GPUBufferUsage.UNIFORM, params);
      const bg = d.createBindGroup({layout: pl.bgl, entries: [kb, pb, lb, rb, partial, ub, dig].map((buffer, binding) =>
        ({binding, resource: binding === 5 ? {buffer, size: 64} : {buffer}}))});
      const enc = d.createCommandEncoder();
      const cp = enc.beginComputePass();
      const go = (pipe, slot, groups) => {
        cp.setPipeline(pipe);
        cp.setBindGroup(0, bg, [slot * stride]);
        cp.dispatchWorkgroups(groups);
      };
      const wide = Math.min(Math.ceil(n / 256), 65535);
      if (digest) { go(pl.partial, 0, ntiles); go(pl.total, 0, 1); }
      todo.forEach(([first, count, fused], i) => {
        if (fused) {
          go(pl.fused, i + 1, ntiles);
          if (digest) go(pl.total, i + 1, count);
          return;
        }
        go(pl.layer, i + 1, wide);
        if (inject && inject.layer - 1 === first) go(pl.inject, i + 1, 1);
        if (digest) { go(pl.partial, i + 1, ntiles); go(pl.total, i + 1, 1); }
      });
      cp.end();
      const reads = [];
      const back = (src, bytes) => {
        const r = d.createBuffer({size: bytes, usage: GPUBufferUsage.MAP_READ | CD});
        bufs.push(r);
        enc.copyBufferToBuffer(src, 0, r, 0, bytes);
        reads.push(r);
        return r;
      };
      const rk = readKeys ? back(kb, n * 4) : null;
      const rp = readKeys && inpay ? back(pb, n * 4) : null;
      const rd = digest ? back(dig, (L + 1) * 8) : null;
      const t0 = performance.now();
      d.queue.submit([enc.finish()]);
      await scopes();
      await Promise.all(reads.map((r) => r.mapAsync(GPUMapMode.READ)));
      const ms = performance.now() - t0;
      const get = (r) => r ? new Uint32Array(r.getMappedRange()).slice() : null;
      return {keys: get(rk), pay: get(rp), digests: get(rd), ms};
    } finally {
      if (scoped) await scopes().catch(() => {});
      for (const b of bufs) b.destroy();
    }
  }

  const hex = (d, k) => (d[2 * k + 1] >>> 0).toString(16).padStart(8, '0') + (d[2 * k] >>> 0).toString(16).padStart(8, '0');
  const keyText = (bits) => snString(P, P.snw_gpu_key_text(bits >>> 0));

  async function run(opts) {
    opts = opts || {};
    const t = opts.type || 'i32', kt = {i32: 0, u32: 1, f32: 2}[t];
    for (const k of Object.keys(gpu)) if (!['available', 'adapter', 'reason', 'runs'].includes(k)) delete gpu[k];
    set({status: 'running', message: 'running…', runs: (gpu.runs || 0) + 1});
    say('GPU: running…');
    const trapped = (e) => e instanceof WebAssembly.RuntimeError || e instanceof RangeError;
    try {
      if (kt === undefined) throw new Error('key type ' + t + ': expected i32, u32 or f32');
      const d = used = await getDevice();
      const pl = await pipelines(d, opts.kernels);
      if (opts.lose) d.destroy(); // tests: the device lost before the run
      await plan();
      let net = opts.net, text = !!opts.text, shown = '';
      if (net === undefined) { // the shown network as sn text (edits included), by its shown name
        net = snString(E, snWithString(E, 'sn', (p, l) => E.snw_export(p, l)));
        text = true;
        shown = JSON.parse(snString(E, E.snw_state())).name || '';
      }
      cFail(snWithString(P, net, (p, l) => P.snw_gpu_plan(p, l, text ? 1 : 0, SN_GPU_TILE)));
      const n = P.snw_gpu_n(), L = Number(P.snw_gpu_layers());
      if (n > SN_GPU_MAX_N) throw new Error(n + ' keys: the page runs at most 2^24');
      const input = opts.input || inputSpec();
      cFail(snWithString(P, input, (p, l) => P.snw_gpu_keys(p, l, kt, opts.payload ? 1 : 0)));
      const info = JSON.parse(snString(P, P.snw_gpu_info()));
      let inject = null;
      if (opts.inject) {
        const il = opts.inject.layer | 0, ii = (opts.inject.index ?? 0) | 0;
        if (il < 1 || il > L) throw new Error('inject a fault after layer ' + il + ': the network has layers 1 to ' + L);
        if (ii < 0 || ii >= n) throw new Error('inject a fault into key ' + ii + ': the keys are 0 to ' + (n - 1));
        inject = {layer: il, index: ii};
      }
      const np = Number(P.snw_gpu_pass_count()), pr = u32s(P.snw_gpu_passes(), np * 4);
      const passes = [];
      for (let i = 0; i < np; i++) passes.push([pr[4 * i], pr[4 * i + 1], pr[4 * i + 2]]);
      if (opts.fuse === false) // every layer a pass of its own (benchmarks: the same result)
        passes.splice(0, passes.length, ...Array.from({length: L}, (_, k) => [k, 1, 0]));
      const job = {n, L, kt, inject, passes, cap: opts.max_buffer,
        layers: u32s(P.snw_gpu_layer_table(), Math.max(L, 1) * 8),
        partners: u32s(P.snw_gpu_partners(), Number(P.snw_gpu_partner_rows()) * n),
        input: u32s(P.snw_gpu_input(), n),
        inpay: opts.payload ? u32s(P.snw_gpu_input_payload(), n) : null};
      // the reference (the CLI trace's digests), then the GPU with a digest after every layer
      cFail(P.snw_gpu_reference());
      const ref = u32s(P.snw_gpu_digests(), (L + 1) * 2);
      const refKeys = u32s(P.snw_gpu_final(), n);
      const refPay = opts.payload ? u32s(P.snw_gpu_final_payload(), n) : null;
      // timing: the whole run (upload, layers, read back) against sn_exec_run in WebAssembly
      const timing = async () => {
        // repeated until 20 ms have passed: small runs are below the clock's resolution
        let reps = 0;
        const t1 = performance.now();
        do { cFail(P.snw_gpu_cpu_run()); reps++; } while (performance.now() - t1 < 20 && reps < 1000);
        const wasm = (performance.now() - t1) / reps;
        const g = await gpuRun(d, pl, job, {digest: false, stop: L, readKeys: true});
        return {g, wasm_ms: wasm, gpu_ms: g.ms, ratio: wasm / Math.max(g.ms, 1e-3)};
      };
      const verify = opts.verify !== false; // false: the final array only (benchmarks)
      const timed = !verify ? await timing() : null;
      const v = verify ? await gpuRun(d, pl, job, {digest: true, stop: L, readKeys: true}) : timed.g;
      const result = {adapter: adapterName(), n, layers: L, size: info.size, name: info.name || shown,
        passes: info.passes, fused_passes: info.fused_passes, fused_layers: info.fused_layers,
        tile: SN_GPU_TILE, type: t, payload: !!opts.payload, inject};
      let k = verify ? 0 : L + 1;
      while (k <= L && v.digests[2 * k] === ref[2 * k] && v.digests[2 * k + 1] === ref[2 * k + 1]) k++;
      let differ = null;
      if (k <= L) { // the first layer whose digest differs: run to it and find the key
        const w = await gpuRun(d, pl, job, {digest: false, stop: k, readKeys: true});
        const exp = u32s(P.snw_gpu_state(k), n);
        let i = 0;
        while (i < n && w.keys[i] === exp[i]) i++;
        differ = {first_layer: k, index: i < n ? i : null, expected: i < n ? keyText(exp[i]) : null,
          actual: i < n ? keyText(w.keys[i]) : null, expected_digest: hex(ref, k), actual_digest: hex(v.digests, k)};
      } else {
        let i = 0;
        while (i < n && v.keys[i] === refKeys[i]) i++;
        if (i < n) differ = {first_layer: L, index: i, expected: keyText(refKeys[i]), actual: keyText(v.keys[i])};
        else if (refPay) {
          i = 0;
          while (i < n && v.pay[i] === refPay[i]) i++;
          if (i < n) differ = {first_layer: L, index: i, payload: true, expected: String(refPay[i]), actual: String(v.pay[i])};
        }
      }
      const tm = timed || (opts.time !== false ? await timing() : null);
      if (tm) Object.assign(result, {wasm_ms: tm.wasm_ms, gpu_ms: tm.gpu_ms, ratio: tm.ratio});
      if (verify) result.verify_ms = v.ms;
      result.verified = verify ? 'layers' : 'final';
      result.final = Array.from(v.keys.subarray(0, 32), keyText); // the GPU's first keys, as text
      if (differ) {
        Object.assign(result, differ, {status: 'differs', identical: false});
        result.message = (differ.payload ? 'payload differs' : 'differs') + ' on ' + result.adapter +
          ': first at layer ' + differ.first_layer + (differ.index !== null ? ', index ' + differ.index +
          ': expected ' + differ.expected + ', got ' + differ.actual : ' (digest ' + differ.actual_digest +
          ', expected ' + differ.expected_digest + ')') + (inject ? ' (fault injected after layer ' + inject.layer + ')' : '');
      } else {
        Object.assign(result, {status: 'identical', identical: true});
        result.message = 'identical on ' + result.adapter + ': ' + n + ' keys (' + t + (opts.payload ? ', payload' : '') +
          '), ' + L + ' layers, ' + (verify ? 'every layer\'s digest and the final array' : 'the final array (layers not checked)');
      }
      if (result.ratio != null)
        result.message += '; GPU ' + result.gpu_ms.toFixed(1) + ' ms, WebAssembly ' + result.wasm_ms.toFixed(result.wasm_ms < 1 ? 3 : 1) +
          ' ms (' + (result.ratio >= 1 ? result.ratio.toFixed(2) + '× faster on the GPU' : (1 / result.ratio).toFixed(1) + '× slower on the GPU') + ')';
      set(result);
      say('GPU: ' + result.message, differ ? 'err' : 'ok');
    } catch (e) {
      if (trapped(e)) P = null; // the plan's instance is spent; the page's engine is not touched
      let msg = (e && e.message ? e.message : String(e)).split('\n')[0].trim(); // not Dawn's source lines
      if (/out of memory/i.test(msg) && !/^the /.test(msg)) msg = 'the GPU is out of memory: ' + msg;
      if (trapped(e)) msg = 'the reference ran out of memory (' + msg + '): take fewer keys';
      else if (used && (lost.has(used) || /lost|destroy/i.test(msg))) {
        const why = await used.lost.then((i) => i.message || i.reason);
        msg = 'the GPU device was lost (' + why + '): ' + msg + '; the next run asks for a new one';
      }
      set({status: 'error', message: msg, identical: null});
      say('GPU: ' + msg, 'err');
    }
    return Object.assign({}, gpu);
  }

  let busy = null;
  window.snGpuRun = (opts) => (busy = (busy || Promise.resolve()).then(() => run(opts)));

  $('gpu-run').addEventListener('click', () => {
    const ty = $('gpu-type').value, nv = $('gpu-n').value.trim(), fv = $('gpu-fault').value.trim();
    const opts = {type: ty === 'f32s' ? 'f32' : ty, payload: $('gpu-payload').checked};
    if (nv) opts.net = $('net-gen').value + ':' + nv;
    if (ty === 'f32s') opts.input = 'special:' + (/^\d+$/.test($('input-value').value.trim()) ? $('input-value').value.trim() : '1');
    if (fv) opts.inject = {layer: +fv, index: 0};
    $('gpu-run').disabled = true;
    window.snGpuRun(opts).finally(() => { $('gpu-run').disabled = false; });
  });

  // Is WebGPU here at all? One line when not; the rest of the page is unchanged.
  (async () => {
    let why = null;
    if (!navigator.gpu) why = 'this browser has no WebGPU';
    else {
      try { adapter = await navigator.gpu.requestAdapter(); } catch (e) { why = e.message; }
      if (!adapter && !why) why = 'the browser offers no GPU adapter: WebGPU is off or there is no driver';
    }
    if (why) {
      set({available: false, reason: why, status: 'unavailable', message: 'WebGPU is not available: ' + why});
      say('GPU: WebGPU is not available here (' + why + '); everything else works.', 'off');
      $('gpu-run').disabled = true;
    } else {
      set({available: true, adapter: adapterName()});
      say('');
    }
  })();
}
