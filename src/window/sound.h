/* sound.h - optional tones for comparisons, as in "Sound of Sorting":
 * through SDL2's audio, off by default (M or --sound turns it on). The
 * window only queues tones; the audio thread synthesizes them, so a frame
 * never waits for sound. No audio device means silence, never an error. */
#ifndef SN_SOUND_H
#define SN_SOUND_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sn_sound sn_sound;

/* Open the default audio device; NULL (silently) when there is none. */
sn_sound *sn_sound_open(void);
/* A sound with no device: nothing plays, sn_sound_mix renders what was
 * queued (tests hear the tones without an audio driver or a clock). */
sn_sound *sn_sound_open_offline(int rate);
void sn_sound_close(sn_sound *s); /* NULL is a no-op */

/* Synthesize the next `frames` mono float samples at the sound's rate:
 * what SDL's audio thread calls on an open device. */
void sn_sound_mix(sn_sound *s, float *out, int frames);

/* Tones queued and tones dropped (queue full) since opening; what the
 * window asked for, independent of when the audio thread plays them.
 * NULL gives 0 and 0. */
void sn_sound_counts(const sn_sound *s, size_t *queued, size_t *dropped);

/* Queue a short tone starting delay_ms from now: pitch in [0, 1] (low to
 * high, from the values compared), loud for a swap. Drops the tone when
 * the queue is full (never blocks). NULL is a no-op. */
void sn_sound_tone(sn_sound *s, double pitch, bool loud, double delay_ms);

#endif
