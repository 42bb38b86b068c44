/* sound.c - comparison tones through SDL2 audio (see sound.h).
 *
 * Invariant: `queue` is a single-producer (the window thread) single-
 * consumer (SDL's audio callback) ring; head is written only by the
 * producer and tail only by the consumer, both with release/acquire
 * atomics, so neither side ever takes a lock. */
#include "window/sound.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h> // for: access (is there an audio device at all?)

#include <SDL.h>

#include "core/alloc.h"

#define QUEUE 256 /* tones waiting for the audio thread */
#define VOICES 24 /* tones sounding at once */
#define TONE_MS 90.0
#define SN_SOUND_PI 3.14159265358979323846

typedef struct tone {
    double freq, amp, delay_s;
} tone;

typedef struct voice {
    double freq, amp, phase, age_s, wait_s;
    bool on;
} voice;

struct sn_sound {
    SDL_AudioDeviceID dev; /* 0: offline (sn_sound_open_offline) */
    int rate;
    tone queue[QUEUE];
    atomic_uint head, tail;
    voice v[VOICES];        /* audio thread only */
    size_t queued, dropped; /* producer only: what the window asked for */
};

static void take_queued(sn_sound *s)
{
    unsigned tail = atomic_load_explicit(&s->tail, memory_order_relaxed);
    unsigned head = atomic_load_explicit(&s->head, memory_order_acquire);
    while (tail != head) {
        const tone *t = &s->queue[tail % QUEUE];
        int slot = -1;
        for (int i = 0; i < VOICES && slot < 0; i++)
            if (!s->v[i].on)
                slot = i;
        if (slot >= 0)
            s->v[slot] = (voice){t->freq, t->amp, 0, 0, t->delay_s, true};
        tail++;
    }
    atomic_store_explicit(&s->tail, tail, memory_order_release);
}

void sn_sound_mix(sn_sound *s, float *out, int frames)
{
    take_queued(s);
    double dt = 1.0 / s->rate, dur = TONE_MS / 1000.0;
    for (int k = 0; k < frames; k++) {
        double sum = 0;
        for (int i = 0; i < VOICES; i++) {
            voice *v = &s->v[i];
            if (!v->on)
                continue;
            if (v->wait_s > 0) {
                v->wait_s -= dt;
                continue;
            }
            /* a short attack, then an exponential-looking decay */
            double a = v->age_s < 0.005 ? v->age_s / 0.005 : 1 - (v->age_s - 0.005) / dur;
            sum += v->amp * a * a * sin(v->phase);
            v->phase += 2 * SN_SOUND_PI * v->freq * dt;
            if (v->phase > 2 * SN_SOUND_PI)
                v->phase -= 2 * SN_SOUND_PI;
            v->age_s += dt;
            if (v->age_s >= dur + 0.005)
                v->on = false;
        }
        out[k] = (float)tanh(sum); /* many tones at once: soft clipping, no wrap */
    }
}

static void SDLCALL callback(void *user, Uint8 *stream, int len)
{
    sn_sound_mix(user, (float *)(void *)stream, len / (int)sizeof(float));
}

/* Is there anything to play on? Without a sound card, a PulseAudio or a
 * PipeWire socket, SDL would end up in ALSA, which fills stderr with its
 * own complaints before failing; an explicit SDL_AUDIODRIVER is trusted. */
static bool audio_present(void)
{
    const char *drv = getenv("SDL_AUDIODRIVER");
    if (drv && *drv)
        return true;
    if (access("/dev/snd", F_OK) == 0 || getenv("PULSE_SERVER"))
        return true;
    const char *run = getenv("XDG_RUNTIME_DIR");
    char path[4096];
    static const char *const sockets[] = {"pulse/native", "pipewire-0"};
    for (int i = 0; run && i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", run, sockets[i]);
        if (access(path, F_OK) == 0)
            return true;
    }
    return false;
}

sn_sound *sn_sound_open(void)
{
    if (!audio_present() || SDL_InitSubSystem(SDL_INIT_AUDIO) != 0)
        return NULL;
    sn_sound *s = sn_calloc(1, sizeof *s);
    if (!s) {
        SDL_QuitSubSystem(SDL_INIT_AUDIO);
        return NULL;
    }
    SDL_AudioSpec want, have;
    memset(&want, 0, sizeof want);
    want.freq = 44100;
    want.format = AUDIO_F32SYS;
    want.channels = 1;
    want.samples = 512;
    want.callback = callback;
    want.userdata = s;
    s->dev = SDL_OpenAudioDevice(NULL, 0, &want, &have, 0);
    if (s->dev == 0) {
        sn_free(s);
        SDL_QuitSubSystem(SDL_INIT_AUDIO);
        return NULL;
    }
    s->rate = have.freq;
    SDL_PauseAudioDevice(s->dev, 0);
    return s;
}

sn_sound *sn_sound_open_offline(int rate)
{
    if (rate <= 0)
        return NULL;
    sn_sound *s = sn_calloc(1, sizeof *s);
    if (s)
        s->rate = rate;
    return s;
}

void sn_sound_close(sn_sound *s)
{
    if (!s)
        return;
    if (s->dev) {
        SDL_CloseAudioDevice(s->dev);
        SDL_QuitSubSystem(SDL_INIT_AUDIO);
    }
    sn_free(s);
}

void sn_sound_counts(const sn_sound *s, size_t *queued, size_t *dropped)
{
    *queued = s ? s->queued : 0;
    *dropped = s ? s->dropped : 0;
}

void sn_sound_tone(sn_sound *s, double pitch, bool loud, double delay_ms)
{
    if (!s || !isfinite(pitch))
        return;
    unsigned head = atomic_load_explicit(&s->head, memory_order_relaxed);
    unsigned tail = atomic_load_explicit(&s->tail, memory_order_acquire);
    if (head - tail >= QUEUE) {
        s->dropped++; /* full: drop it rather than wait */
        return;
    }
    pitch = fmin(1, fmax(0, pitch));
    /* 220 Hz to 1760 Hz, three octaves, evenly in pitch */
    s->queue[head % QUEUE] =
        (tone){220.0 * pow(2.0, 3.0 * pitch), loud ? 0.22 : 0.07, fmax(0, delay_ms) / 1000.0};
    atomic_store_explicit(&s->head, head + 1, memory_order_release);
    s->queued++;
}
