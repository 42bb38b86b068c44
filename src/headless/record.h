/* record.h - `sortnet view --record`: the frames of a scripted session
 * written with the script's virtual time, so the same script always gives
 * the same file and pauses last as long as they did.
 *
 *   DIR           PNG frames (frame-000001.png, ...; only frames that
 *                 change) and DIR/frames.ffconcat, which gives each its
 *                 duration (`ffmpeg -f concat -i DIR/frames.ffconcat`)
 *   FILE.gif      an animated GIF through giflib, frame delays in
 *                 centiseconds, only the changed rectangle of each frame,
 *                 one global palette that holds the colours given at open
 *                 exactly (the rank colours survive)
 *   FILE.mp4/.webm  raw frames piped to ffmpeg at 30 frames per second
 *                 (a frame is repeated for as long as it is shown)
 *
 * Frames closer than the format's step (GIF: 50 ms, video: 1/30 s) are
 * merged into the later one. Files, and a DIR's frames, are written to a
 * temporary name beside the target and renamed by sn_record_close (a DIR
 * over an old recording's folder, which must hold nothing else);
 * sn_record_abort removes it. */
#ifndef SN_RECORD_H
#define SN_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "render/palette.h"

typedef struct sn_record sn_record;

typedef enum sn_record_kind {
    SN_RECORD_DIR = 0,
    SN_RECORD_GIF,
    SN_RECORD_VIDEO /* .mp4 or .webm through ffmpeg */
} sn_record_kind;

/* The kind a path asks for (by its extension; anything else: a folder). */
sn_record_kind sn_record_kind_of(const char *path);

/* Is the GIF part built (giflib found at build time)? */
bool sn_record_gif_built(void);

/* Start recording w x h pixel frames into path. keep[0..nkeep) are
 * colours a GIF must hold exactly (at most 128 are used). SN_EUNSUPPORTED
 * when the format's part is missing (no giflib, no ffmpeg), SN_EIO when
 * the file or folder cannot be made; diag says which. */
sn_status sn_record_open(const char *path, int w, int h, const sn_rgb *keep, size_t nkeep,
                         sn_record **out, sn_diag *diag);

/* The picture from virtual time t_ms on: pixels as cairo's RGB24 (one
 * uint32 0x00RRGGBB per pixel, rows `stride` bytes apart; borrowed). */
sn_status sn_record_frame(sn_record *r, double t_ms, const uint8_t *pixels, int stride,
                          sn_diag *diag);

/* The recording ends at virtual time t_ms: the last frame lasts until
 * then; the file is finished and renamed into place; *frames (may be
 * NULL) gets the frames written in all. Frees r. */
sn_status sn_record_close(sn_record *r, double t_ms, size_t *frames, sn_diag *diag);

/* Stop and remove what was written (a failed session). NULL is a no-op. */
void sn_record_abort(sn_record *r);

/* The signal (SIGINT, SIGTERM, SIGHUP) that arrived while a recording was
 * open, else 0. A run that sees one drops the recording (sn_record_abort;
 * sn_record_close does so itself and returns SN_EINTERRUPTED) and exits
 * 128 + the signal. */
int sn_record_signal(void);

/* Frames written so far (GIF images, PNG files, video frames). */
size_t sn_record_frames(const sn_record *r);

#endif
