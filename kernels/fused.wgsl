// fused.wgsl - a run of tile-local layers in one pass (after common.wgsl),
// as fused.cl's tile kernels: one workgroup per tile of TILE keys loads its
// keys (and payload) into workgroup memory, does every layer of the run
// there with a barrier between layers, and writes them back once. With
// P.digest it also sums every layer's digest over its tile into
// partials[layer of the run * ntiles + tile] (digest.wgsl's `total` adds
// them up), and it injects the verifier's fault after layer P.inj_layer,
// so every layer is checked even though it never leaves the tile.

var<workgroup> sk: array<u32, TILE>;
var<workgroup> sp: array<u32, TILE>;

@compute @workgroup_size(256)
fn fused(@builtin(local_invocation_id) lid3: vec3<u32>,
         @builtin(workgroup_id) wid: vec3<u32>) {
  let lid = lid3.x;
  let n = P.n;
  let base = wid.x * TILE;
  var cnt = 0u;
  if (base < n) { cnt = min(TILE, n - base); }
  for (var x = lid; x < cnt; x = x + WG) {
    sk[x] = keys[base + x];
    if (P.hp != 0u) { sp[x] = pay[base + x]; }
  }
  workgroupBarrier();
  for (var l = 0u; l < P.count; l = l + 1u) {
    let k = P.first + l;
    for (var x = lid; x < cnt; x = x + WG) {
      let j = min_end(k, base + x, n);
      if (j == 0xffffffffu) { continue; }
      let y = j - base; // inside the tile: the plan says this layer is local
      let a = sk[x];
      let b = sk[y];
      if (to_ordered(P.kt, a) > to_ordered(P.kt, b)) {
        sk[x] = b;
        sk[y] = a;
        if (P.hp != 0u) {
          let t = sp[x];
          sp[x] = sp[y];
          sp[y] = t;
        }
      }
    }
    workgroupBarrier();
    if (k == P.inj_layer && lid == 0u && P.inj_index >= base && P.inj_index < base + cnt) {
      sk[P.inj_index - base] = sk[P.inj_index - base] ^ 1u;
    }
    workgroupBarrier();
    if (P.digest != 0u) {
      var s = vec2<u32>(0u, 0u);
      for (var x = lid; x < cnt; x = x + WG) { s = add64(s, digest_mix(base + x, sk[x])); }
      reduce_wg(lid, s);
      if (lid == 0u) { partials[l * P.ntiles + wid.x] = red[0]; }
      workgroupBarrier();
    }
  }
  for (var x = lid; x < cnt; x = x + WG) {
    keys[base + x] = sk[x];
    if (P.hp != 0u) { pay[base + x] = sp[x]; }
  }
}
