// digest.wgsl - the per-layer digest by reduction (after common.wgsl), as
// sortnet.cl's sn_digest: sum (mod 2^64) of digest_mix(i, keys[i]), here
// with 64-bit sums as (low, high) pairs. `partial`: one workgroup per tile
// of TILE keys writes its sum to partials[tile] (the fused kernel writes
// the same partials for each of its layers); `total`: workgroup w adds the
// partials of the pass's layer w into digests[P.dstep + w].

@compute @workgroup_size(256)
fn partial(@builtin(local_invocation_id) lid3: vec3<u32>,
           @builtin(workgroup_id) wid: vec3<u32>) {
  let lid = lid3.x;
  let base = wid.x * TILE;
  var s = vec2<u32>(0u, 0u);
  for (var x = lid; x < TILE; x = x + WG) {
    let i = base + x;
    if (i < P.n) { s = add64(s, digest_mix(i, keys[i])); }
  }
  reduce_wg(lid, s);
  if (lid == 0u) { partials[wid.x] = red[0]; }
}

@compute @workgroup_size(256)
fn total(@builtin(local_invocation_id) lid3: vec3<u32>,
         @builtin(workgroup_id) wid: vec3<u32>) {
  let lid = lid3.x;
  let row = wid.x * P.ntiles;
  var s = vec2<u32>(0u, 0u);
  for (var t = lid; t < P.ntiles; t = t + WG) { s = add64(s, partials[row + t]); }
  reduce_wg(lid, s);
  if (lid == 0u) { digests[P.dstep + wid.x] = red[0]; }
}
