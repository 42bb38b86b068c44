/* keys.cl - the key order every sortnet kernel compares in, built in front
 * of each of our programs (not of a student's --kernel file, which receives
 * ordered keys already).
 *
 * Raw 32-bit keys of type kt (0 = i32, 1 = u32, 2 = f32) map to "ordered
 * keys" whose plain unsigned order is the key order (f32: IEEE totalOrder),
 * exactly as sn_key_to_ordered / sn_key_from_ordered in src/core/exec.h. */

inline uint to_ordered(uint kt, uint bits)
{
    if (kt == 0)
        return bits ^ 0x80000000u;
    if (kt == 2)
        return (bits & 0x80000000u) ? ~bits : (bits ^ 0x80000000u);
    return bits;
}

inline uint from_ordered(uint kt, uint o)
{
    if (kt == 0)
        return o ^ 0x80000000u;
    if (kt == 2)
        return (o & 0x80000000u) ? (o ^ 0x80000000u) : ~o;
    return o;
}
