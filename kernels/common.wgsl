// common.wgsl - what every sortnet WGSL kernel shares, put in front of
// layer.wgsl, fused.wgsl and digest.wgsl by the page (src/web/page/webgpu.js),
// as keys.cl is put in front of the OpenCL programs. The bindings are one
// layout for all three; a kernel uses the ones it needs.
//
// Invariant shared with the CPU reference (src/core/exec.h) and sortnet.cl:
// a comparator (a, b) leaves the minimum on a and swaps only when the key on
// a is strictly greater than the key on b, comparing "ordered keys" (the
// bijection sn_key_to_ordered: f32 by IEEE totalOrder, -0 before +0, NaNs
// ordered by their bits), so equal keys never move and the payload follows
// deterministically. Closed-form layers compute exactly sn_layer_partner().

struct Params {
  first: u32,     // first layer of this pass (0-based)
  count: u32,     // layers in this pass
  n: u32,         // wires (keys)
  kt: u32,        // 0 = i32, 1 = u32, 2 = f32
  hp: u32,        // 1: a payload moves with the keys
  ntiles: u32,    // tiles of TILE keys covering n (digest partial sums per layer)
  inj_layer: u32, // inject a fault after this layer (0-based); 0xffffffff: none
  inj_index: u32, // ... into this key (its lowest bit flipped, as sn_inject)
  dstep: u32,     // digest step of this pass's first layer (layer k: step k + 1)
  digest: u32,    // 1: digest after every layer (fused.wgsl)
  pad0: u32, pad1: u32,
}

@group(0) @binding(0) var<storage, read_write> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> pay: array<u32>;
// the plan (src/web/gpu_plan.c): 8 words a layer: kind, p, q, row, local, pass
@group(0) @binding(2) var<storage, read> layers: array<u32>;
// explicit layers: partner rows of n words (max end | 0x80000000; idle 0xffffffff)
@group(0) @binding(3) var<storage, read> partners: array<u32>;
// digest partial sums: (low, high) per (layer of the pass, tile)
@group(0) @binding(4) var<storage, read_write> partials: array<vec2<u32>>;
@group(0) @binding(5) var<uniform> P: Params;
// per-step digests (low, high), step 0 = the input
@group(0) @binding(6) var<storage, read_write> digests: array<vec2<u32>>;

const WG: u32 = 256u; // work-items a workgroup

fn to_ordered(kt: u32, bits: u32) -> u32 {
  if (kt == 0u) { return bits ^ 0x80000000u; }
  if (kt == 2u) {
    if ((bits & 0x80000000u) != 0u) { return ~bits; }
    return bits ^ 0x80000000u;
  }
  return bits;
}

// Wire i's partner in layer k when i is the min end of a comparator there
// (the one work-item that does it); 0xffffffff otherwise.
fn min_end(k: u32, i: u32, n: u32) -> u32 {
  let kind = layers[k * 8u];
  let p = layers[k * 8u + 1u];
  let q = layers[k * 8u + 2u];
  var j = 0xffffffffu;
  if (kind == 0u) { // explicit: the partner row
    let e = partners[layers[k * 8u + 3u] * n + i];
    if ((e & 0x80000000u) == 0u) { j = e; }
  } else if (kind == 1u) { // bitonic: mirror i ^ (p - 1) when q == p/2, else i ^ q
    var m = q;
    if (q == p / 2u) { m = p - 1u; }
    let t = i ^ m;
    if (i < t && t < n) { j = t; }
  } else if (kind == 2u) { // odd-even merge: (i, i + q) inside a block of 2p
    let r = q % p;
    if (i >= r && (i - r) % (2u * q) < q) {
      let t = i + q;
      if (t < n && i / (2u * p) == t / (2u * p)) { j = t; }
    }
  } else { // transposition: (i, i + 1) for i = p (mod 2)
    if ((i & 1u) == (p & 1u) && i + 1u < n) { j = i + 1u; }
  }
  return j;
}

// ---- 64-bit arithmetic on (low, high) pairs: WGSL has no u64.
fn add64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let lo = a.x + b.x;
  return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}
fn shr_xor64(a: vec2<u32>, s: u32) -> vec2<u32> { // a ^ (a >> s), 0 < s < 32
  return vec2<u32>(a.x ^ ((a.x >> s) | (a.y << (32u - s))), a.y ^ (a.y >> s));
}
fn mul32(a: u32, b: u32) -> vec2<u32> { // the full 64-bit product
  let a0 = a & 0xffffu; let a1 = a >> 16u;
  let b0 = b & 0xffffu; let b1 = b >> 16u;
  let p00 = a0 * b0; let p01 = a0 * b1; let p10 = a1 * b0; let p11 = a1 * b1;
  let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
  return vec2<u32>((p00 & 0xffffu) | (mid << 16u), p11 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u));
}
fn mul64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> { // mod 2^64
  let l = mul32(a.x, b.x);
  return vec2<u32>(l.x, l.y + a.x * b.y + a.y * b.x);
}
// sn_digest_mix (exec.h): splitmix64's finalizer of (i << 32 | bits).
fn digest_mix(i: u32, bits: u32) -> vec2<u32> {
  var z = add64(vec2<u32>(bits, i), vec2<u32>(0x7F4A7C15u, 0x9E3779B9u));
  z = mul64(shr_xor64(z, 30u), vec2<u32>(0x1CE4E5B9u, 0xBF58476Du));
  z = mul64(shr_xor64(z, 27u), vec2<u32>(0x133111EBu, 0x94D049BBu));
  return shr_xor64(z, 31u);
}

var<workgroup> red: array<vec2<u32>, 256>;

// Sum (mod 2^64) of every work-item's s over the workgroup; the sum is in
// red[0] afterwards. Call from uniform control flow.
fn reduce_wg(lid: u32, s: vec2<u32>) {
  red[lid] = s;
  workgroupBarrier();
  for (var w = WG / 2u; w > 0u; w = w / 2u) {
    if (lid < w) { red[lid] = add64(red[lid], red[lid + w]); }
    workgroupBarrier();
  }
}
