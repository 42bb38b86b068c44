// layer.wgsl - one compare-exchange layer per pass (after common.wgsl), as
// sortnet.cl's sn_pairs / sn_bitonic_left / sn_oem_left / sn_trans_left:
// one work-item per wire, the min end of each comparator does it. A grid
// stride covers n larger than the dispatch.

@compute @workgroup_size(256)
fn layer(@builtin(global_invocation_id) gid: vec3<u32>,
         @builtin(num_workgroups) nwg: vec3<u32>) {
  let n = P.n;
  let k = P.first;
  for (var i = gid.x; i < n; i = i + nwg.x * WG) {
    let j = min_end(k, i, n);
    if (j == 0xffffffffu) { continue; }
    let x = keys[i];
    let y = keys[j];
    if (to_ordered(P.kt, x) > to_ordered(P.kt, y)) {
      keys[i] = y;
      keys[j] = x;
      if (P.hp != 0u) {
        let t = pay[i];
        pay[i] = pay[j];
        pay[j] = t;
      }
    }
  }
}

// Fault injection for the verifier's self-test (sortnet.cl's sn_inject):
// flip the lowest bit of one key, so it surely differs from the reference.
@compute @workgroup_size(1)
fn inject(@builtin(global_invocation_id) gid: vec3<u32>) {
  if (gid.x == 0u && P.inj_index < P.n) { keys[P.inj_index] = keys[P.inj_index] ^ 1u; }
}
