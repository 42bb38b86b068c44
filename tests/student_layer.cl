/* student_layer.cl - a correct student's layer kernel (docs/student-kernel.md):
 * one work item per comparator of the layer, keys and payload swapped
 * together. The GPU tests run it with `gpu verify --kernel`, and derive
 * broken ones from it with sed. */
__kernel void sn_layer(__global uint *keys, __global uint *payload,
                       __global const uint2 *pairs, uint count, uint n,
                       uint algo, uint p, uint q)
{
    uint t = get_global_id(0);
    if (t >= count)
        return;
    uint a = pairs[t].x, b = pairs[t].y;
    uint x = keys[a], y = keys[b];
    if (x > y) {
        keys[a] = y;
        keys[b] = x;
        uint pa = payload[a];
        payload[a] = payload[b];
        payload[b] = pa;
    }
}
