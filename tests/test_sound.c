/* test_sound.c - the comparison tones without an audio driver or a clock:
 * an offline sound renders exactly what was queued, so whether a tone is
 * heard never depends on how fast a busy machine runs SDL's audio thread. */
#include <math.h>
#include <stddef.h>

#include "sn_test.h"
#include "window/sound.h"

#define RATE 8000

/* Upward zero crossings of out[from, to): the tone's frequency times the
 * span's length in seconds. */
static int crossings(const float *out, int from, int to)
{
    int c = 0;
    for (int k = from + 1; k < to; k++)
        c += out[k - 1] < 0 && out[k] >= 0;
    return c;
}

static float peak(const float *out, int from, int to)
{
    float m = 0;
    for (int k = from; k < to; k++)
        m = fmaxf(m, fabsf(out[k]));
    return m;
}

int main(void)
{
    static float out[RATE]; /* one second */
    size_t queued, dropped;

    /* NULL: silent and counts nothing */
    sn_sound_tone(NULL, 0.5, true, 0);
    sn_sound_counts(NULL, &queued, &dropped);
    CHECK(queued == 0 && dropped == 0);
    CHECK(sn_sound_open_offline(0) == NULL);

    sn_sound *s = sn_sound_open_offline(RATE);
    CHECK(s != NULL);
    if (!s)
        return sn_test_finish("test_sound");

    /* nothing queued: silence */
    sn_sound_mix(s, out, RATE / 10);
    CHECK(peak(out, 0, RATE / 10) == 0);

    /* pitch 0 is 220 Hz, pitch 1/3 an octave up (440 Hz): a 90 ms tone
     * then silence; the second starts 200 ms later */
    sn_sound_tone(s, 0, true, 0);
    sn_sound_tone(s, 1.0 / 3.0, false, 200);
    sn_sound_tone(s, NAN, true, 0); /* not a pitch: ignored, not counted */
    sn_sound_counts(s, &queued, &dropped);
    CHECK(queued == 2 && dropped == 0);
    sn_sound_mix(s, out, RATE);
    int t90 = RATE * 90 / 1000;
    float loud = peak(out, 0, t90), quiet = peak(out, RATE / 5, RATE / 5 + t90);
    CHECKF(loud > 0.1f && loud <= 1.0f, "swap tone peak %g", (double)loud);
    CHECKF(quiet > 0.01f && quiet < loud, "comparison tone peak %g (swap %g)", (double)quiet,
           (double)loud);
    CHECK(peak(out, RATE / 10 + 1, RATE / 5) == 0);        /* the gap between them */
    CHECK(peak(out, RATE / 5 + RATE / 10 + 1, RATE) == 0); /* both have ended */
    int c1 = crossings(out, 0, t90), c2 = crossings(out, RATE / 5, RATE / 5 + t90);
    /* 220 Hz over 90 ms: about 20 crossings; 440 Hz: about 40 */
    CHECKF(c1 >= 18 && c1 <= 21, "220 Hz tone: %d crossings in 90 ms", c1);
    CHECKF(c2 >= 37 && c2 <= 41, "440 Hz tone: %d crossings in 90 ms", c2);

    /* a full queue drops tones instead of waiting, and says how many */
    for (int i = 0; i < 300; i++)
        sn_sound_tone(s, 0.5, false, 0);
    sn_sound_counts(s, &queued, &dropped);
    CHECKF(queued == 2 + 256 && dropped == 300 - 256, "queued %zu dropped %zu", queued, dropped);
    /* many tones at once are soft-clipped, never beyond full scale */
    sn_sound_mix(s, out, RATE / 10);
    CHECK(peak(out, 0, RATE / 10) <= 1.0f && peak(out, 0, RATE / 10) > 0.1f);

    sn_sound_close(s);
    sn_sound_close(NULL);
    return sn_test_finish("test_sound");
}
