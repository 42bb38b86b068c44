/* record.c - recordings of scripted sessions with their virtual time
 * (see record.h).
 *
 * Invariant: `pend` holds the newest picture not yet written and `pend_t`
 * the virtual time it appeared; it is written once the time it stays on
 * screen is known (when a different picture comes, or at close), so every
 * written frame carries its true duration.
 *
 * The GIF palette is chosen here, not by giflib: a fixed palette (the
 * colours the caller must keep, a 5x5x5 colour cube and a grey ramp) so
 * that consecutive frames share it and only changed rectangles need
 * storing; giflib's own quantizer builds a new palette per picture. */
#include "headless/record.h"

#include <errno.h>
#include <fcntl.h> // for: open (the GIF with the mode of every output)
#include <math.h>
#include <dirent.h> // for: opendir (a recording's folder removed)
#include <signal.h> // for: signal (SIGPIPE: an ffmpeg that stops reading), sigaction
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h> // for: mkdir
#include <unistd.h>   // for: access (is ffmpeg on PATH?)

#include <cairo.h> // for: cairo_image_surface_create_for_data (PNG frames)

#ifdef SN_HAVE_GIF
#include <gif_lib.h> // for: EGifOpenFileHandle, EGifPutLine, ...
#endif

#include "core/alloc.h"
#include "core/format.h" // for: sn_file_temp_template
#include "core/temp_file.h"
#include "headless/temp_signals.h"

#define GIF_MIN_MS 50.0
#define GIF_TRANSPARENT 255
#define VIDEO_FPS 30.0

struct sn_record {
    sn_record_kind kind;
    char path[4096], tmp[4200];
    int slot; /* a GIF or video temporary's registration (core/temp_file.h), or -1 */
    int w, h;
    uint32_t *pend; /* [w * h] newest picture, not written yet */
    double pend_t;
    bool have_pend;
    size_t frames;
    /* DIR */
    FILE *concat;
    /* GIF */
#ifdef SN_HAVE_GIF
    GifFileType *gif;
#endif
    sn_rgb pal[256];
    int pal_n;
    uint8_t *lut;        /* [1 << 24] palette index of each colour, when known */
    uint8_t *known;      /* [1 << 21] bit per colour: lut entry computed */
    uint8_t *cur, *prev; /* [w * h] indexed pictures */
    uint8_t *line;       /* [w] one row as written */
    bool have_prev;
    double written_cs; /* centiseconds written so far (delays add up exactly) */
    /* video */
    FILE *pipe;
    void (*old_sigpipe)(int); /* restored at release (when sigpipe_set) */
    bool sigpipe_set;
    double written_frames;
};

/* ---- signals: while a recording is open, SIGINT, SIGTERM and SIGHUP only
 * set caught_signal (the run polls sn_record_signal and drops the
 * recording, old file kept, temporary removed); a signal ignored (a
 * background job's SIGINT) stays ignored. */

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define STOP_SIGNALS (sizeof stop_signals / sizeof stop_signals[0])
static volatile sig_atomic_t caught_signal;
static struct sigaction stop_old[STOP_SIGNALS];
static bool stop_set[STOP_SIGNALS];

static void on_stop_signal(int sig)
{
    caught_signal = sig;
}

static void catch_stop_signals(void)
{
    for (size_t i = 0; i < STOP_SIGNALS; i++) {
        struct sigaction sa;
        if (stop_set[i] || sigaction(stop_signals[i], NULL, &stop_old[i]) != 0 ||
            (!(stop_old[i].sa_flags & SA_SIGINFO) && stop_old[i].sa_handler == SIG_IGN))
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_stop_signal;
        sigemptyset(&sa.sa_mask);
        stop_set[i] = sigaction(stop_signals[i], &sa, NULL) == 0;
    }
}

static void release_stop_signals(void)
{
    for (size_t i = 0; i < STOP_SIGNALS; i++)
        if (stop_set[i]) {
            sigaction(stop_signals[i], &stop_old[i], NULL);
            stop_set[i] = false;
        }
}

int sn_record_signal(void)
{
    return caught_signal;
}

/* ---- a recording's folder: written as a temporary folder beside it and
 * renamed over the old one when complete */

/* Is name one a recording's folder holds? */
static bool recording_entry(const char *name)
{
    size_t n = strlen(name);
    return strcmp(name, "frames.ffconcat") == 0 ||
           (n == 16 && strncmp(name, "frame-", 6) == 0 && strspn(name + 6, "0123456789") == 6 &&
            strcmp(name + 12, ".png") == 0);
}

/* Remove dir's entries (all, or only a recording's) and dir itself. */
static void remove_folder(const char *dir, bool only_recording)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char p[4400];
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
                (only_recording && !recording_entry(e->d_name)))
                continue;
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* A folder at path may be replaced only when it holds a recording (or
 * nothing): --record ~/Documents must not remove a user's files. */
static sn_status check_old_folder(const char *path, sn_diag *diag)
{
    DIR *d = opendir(path);
    if (!d)
        return sn_diag_set(diag, SN_EIO, 0, 0, "%s: %s", path, strerror(errno));
    struct dirent *e;
    sn_status st = SN_OK;
    char p[4400];
    struct stat sb;
    while (st == SN_OK && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(p, sizeof p, "%s/%s", path, e->d_name);
        if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
            st = sn_diag_set(diag, SN_EIO, 0, 0,
                             "%s: Is a directory (--record replaces a folder only when it holds "
                             "a recording)",
                             p);
        else if (!recording_entry(e->d_name))
            st = sn_diag_set(diag, SN_EIO, 0, 0,
                             "%s: holds %s, which is no recording's: --record replaces a folder "
                             "only when it holds a recording (or nothing); name a new one",
                             path, e->d_name);
    }
    closedir(d);
    return st;
}

static sn_status open_dir(sn_record *r, sn_diag *diag)
{
    struct stat sb;
    if (stat(r->path, &sb) == 0 && !S_ISDIR(sb.st_mode))
        return sn_diag_set(diag, SN_EIO, 0, 0, "%s: %s", r->path, strerror(ENOTDIR));
    if (stat(r->path, &sb) == 0) {
        sn_status st = check_old_folder(r->path, diag);
        if (st != SN_OK)
            return st;
    }
    sn_file_temp_template(r->path, r->tmp, sizeof r->tmp);
    if (!mkdtemp(r->tmp)) {
        r->tmp[0] = '\0';
        return sn_diag_set(diag, SN_EIO, 0, 0, "%s: %s", r->path, strerror(errno));
    }
    /* mkdtemp makes it 0700: the mode mkdir would give */
    mode_t mask = umask(0);
    umask(mask);
    chmod(r->tmp, 0777 & ~mask);
    char cpath[4400];
    snprintf(cpath, sizeof cpath, "%s/frames.ffconcat", r->tmp);
    if (!(r->concat = fopen(cpath, "w")))
        return sn_diag_set(diag, SN_EIO, 0, 0, "%s/frames.ffconcat: %s", r->path, strerror(errno));
    fprintf(r->concat, "ffconcat version 1.0\n");
    return SN_OK;
}

/* The finished temporary folder in path's place; an old recording there
 * is moved aside first and removed after. */
static sn_status replace_dir(sn_record *r, sn_diag *diag)
{
    struct stat sb;
    if (lstat(r->path, &sb) != 0) {
        if (rename(r->tmp, r->path) != 0)
            return sn_diag_set(diag, SN_EIO, 0, 0, "%s: %s", r->path, strerror(errno));
        return SN_OK;
    }
    char old[4200];
    sn_file_temp_template(r->path, old, sizeof old);
    if (!mkdtemp(old)) /* an empty folder that rename() may replace */
        return sn_diag_set(diag, SN_EIO, 0, 0, "%s: %s", r->path, strerror(errno));
    if (rename(r->path, old) != 0) {
        int e = errno;
        rmdir(old);
        return sn_diag_set(diag, SN_EIO, 0, 0, "%s: %s", r->path, strerror(e));
    }
    if (rename(r->tmp, r->path) != 0) {
        int e = errno;
        rename(old, r->path); /* the old recording back in its place */
        return sn_diag_set(diag, SN_EIO, 0, 0, "%s: %s", r->path, strerror(e));
    }
    remove_folder(old, true);
    return SN_OK;
}

sn_record_kind sn_record_kind_of(const char *path)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return SN_RECORD_DIR;
    if (strcmp(dot, ".gif") == 0 || strcmp(dot, ".GIF") == 0)
        return SN_RECORD_GIF;
    if (strcmp(dot, ".mp4") == 0 || strcmp(dot, ".webm") == 0)
        return SN_RECORD_VIDEO;
    return SN_RECORD_DIR;
}

bool sn_record_gif_built(void)
{
#ifdef SN_HAVE_GIF
    return true;
#else
    return false;
#endif
}

size_t sn_record_frames(const sn_record *r)
{
    return r ? r->frames : 0;
}

/* ---- palette */

static void palette_build(sn_record *r, const sn_rgb *keep, size_t nkeep)
{
    int n = 0;
    size_t room = 256 - 125 - 12 - 1; /* the last index: transparent */
    size_t step = nkeep > room ? (nkeep + room - 1) / room : 1;
    for (size_t i = 0; i < nkeep && n < (int)room; i += step)
        r->pal[n++] = keep[i];
    for (int b = 0; b < 5; b++)
        for (int g = 0; g < 5; g++)
            for (int rr = 0; rr < 5; rr++)
                r->pal[n++] = (sn_rgb){rr / 4.0, g / 4.0, b / 4.0};
    for (int i = 0; i < 12; i++) /* greys between the cube's steps: anti-aliased text */
        r->pal[n++] = (sn_rgb){(i + 0.5) / 12.0, (i + 0.5) / 12.0, (i + 0.5) / 12.0};
    r->pal_n = n;
}

static uint8_t nearest(const sn_record *r, uint32_t px)
{
    double R = (px >> 16 & 255) / 255.0, G = (px >> 8 & 255) / 255.0, B = (px & 255) / 255.0;
    int best = 0;
    double bd = 1e9;
    for (int i = 0; i < r->pal_n; i++) {
        double dr = R - r->pal[i].r, dg = G - r->pal[i].g, db = B - r->pal[i].b;
        double d = 2 * dr * dr + 4 * dg * dg + 3 * db * db;
        if (d < bd) {
            bd = d;
            best = i;
        }
    }
    return (uint8_t)best;
}

static void index_picture(sn_record *r, const uint32_t *px, uint8_t *out)
{
    size_t count = (size_t)r->w * (size_t)r->h;
    for (size_t i = 0; i < count; i++) {
        uint32_t c = px[i] & 0xffffffu;
        if (!(r->known[c >> 3] & (1u << (c & 7)))) {
            r->lut[c] = nearest(r, c);
            r->known[c >> 3] |= (uint8_t)(1u << (c & 7));
        }
        out[i] = r->lut[c];
    }
}

/* ---- writing one frame that lasts dur_ms */

static sn_status write_dir(sn_record *r, double dur_ms, sn_diag *d);
static sn_status write_gif(sn_record *r, double end_ms, sn_diag *d);
static sn_status write_video(sn_record *r, double end_ms, sn_diag *d);

static sn_status flush_pending(sn_record *r, double end_ms, sn_diag *d)
{
    if (!r->have_pend)
        return SN_OK;
    switch (r->kind) {
    case SN_RECORD_DIR: return write_dir(r, end_ms - r->pend_t, d);
    case SN_RECORD_GIF: return write_gif(r, end_ms, d);
    case SN_RECORD_VIDEO: return write_video(r, end_ms, d);
    }
    return SN_OK;
}

static sn_status write_dir(sn_record *r, double dur_ms, sn_diag *d)
{
    char name[64], path[sizeof r->tmp + 64];
    r->frames++;
    snprintf(name, sizeof name, "frame-%06zu.png", r->frames);
    snprintf(path, sizeof path, "%s/%s", r->tmp, name);
    cairo_surface_t *s = cairo_image_surface_create_for_data(
        (unsigned char *)r->pend, CAIRO_FORMAT_RGB24, r->w, r->h, r->w * 4);
    errno = 0;
    cairo_status_t cs = cairo_surface_write_to_png(s, path);
    int e = errno; /* cairo says only "error while writing": errno says why */
    cairo_surface_destroy(s);
    if (cs != CAIRO_STATUS_SUCCESS) {
        remove(path); /* no frame cut short */
        return sn_diag_set(d, SN_EIO, 0, 0, "%s/%s: %s", r->path, name,
                           cs == CAIRO_STATUS_WRITE_ERROR && e ? strerror(e)
                                                               : cairo_status_to_string(cs));
    }
    errno = 0;
    fprintf(r->concat, "file '%s'\nduration %.4f\n", name, fmax(dur_ms, 0) / 1000.0);
    fflush(r->concat);
    return ferror(r->concat) ? sn_diag_set(d, SN_EIO, 0, 0, "%s/frames.ffconcat: write error: %s",
                                           r->path, strerror(errno ? errno : EIO))
                             : SN_OK;
}

static sn_status write_video(sn_record *r, double end_ms, sn_diag *d)
{
    /* repeat the picture for every 1/30 s tick it covers */
    double until = round(end_ms * VIDEO_FPS / 1000.0);
    size_t bytes = (size_t)r->w * (size_t)r->h * 4;
    while (r->written_frames < until) {
        if (fwrite(r->pend, 1, bytes, r->pipe) != bytes)
            return sn_diag_set(d, SN_EIO, 0, 0, "%s: ffmpeg stopped reading frames", r->path);
        r->written_frames++;
        r->frames++;
    }
    return SN_OK;
}

#ifdef SN_HAVE_GIF
/* giflib's error; for a failed write the cause (errno, cleared before
 * the giflib calls), which its text only guesses at ("disk full?"). */
static sn_status gif_error(sn_record *r, sn_diag *d)
{
    int e = errno, code = r->gif ? r->gif->Error : 0;
    if ((code == E_GIF_ERR_WRITE_FAILED || code == E_GIF_ERR_DISK_IS_FULL) && e)
        return sn_diag_set(d, SN_EIO, 0, 0, "%s: %s", r->path, strerror(e));
    return sn_diag_set(d, SN_EIO, 0, 0, "%s: giflib: %s", r->path, GifErrorString(code));
}

static sn_status write_gif(sn_record *r, double end_ms, sn_diag *d)
{
    index_picture(r, r->pend, r->cur);
    /* the rectangle that differs from the picture on screen */
    int x0 = 0, y0 = 0, x1 = r->w - 1, y1 = r->h - 1;
    if (r->have_prev) {
        x0 = r->w, y0 = r->h, x1 = -1, y1 = -1;
        for (int y = 0; y < r->h; y++) {
            const uint8_t *a = r->cur + (size_t)y * (size_t)r->w;
            const uint8_t *b = r->prev + (size_t)y * (size_t)r->w;
            if (memcmp(a, b, (size_t)r->w) == 0)
                continue;
            int l = 0, h = r->w - 1;
            while (a[l] == b[l])
                l++;
            while (a[h] == b[h])
                h--;
            x0 = l < x0 ? l : x0;
            x1 = h > x1 ? h : x1;
            y0 = y < y0 ? y : y0;
            y1 = y;
        }
        if (x1 < 0) { /* nothing changed: one pixel, so the delay still counts */
            x0 = x1 = y0 = y1 = 0;
        }
    }
    /* delays in centiseconds, rounded so that they add up to end_ms */
    double end_cs = round(end_ms / 10.0);
    double delay = end_cs - r->written_cs;
    if (delay < 2)
        delay = 2; /* browsers play 0 and 1 as 10: never write them */
    r->written_cs += delay;
    /* unchanged pixels inside the rectangle are transparent: the picture
     * below shows through, and long runs of one index compress well */
    GraphicsControlBlock gcb = {DISPOSE_DO_NOT, false, (int)fmin(delay, 65535),
                                r->have_prev ? GIF_TRANSPARENT : NO_TRANSPARENT_COLOR};
    GifByteType ext[4];
    EGifGCBToExtension(&gcb, ext);
    int w = x1 - x0 + 1, h = y1 - y0 + 1;
    errno = 0;
    if (EGifPutExtension(r->gif, GRAPHICS_EXT_FUNC_CODE, 4, ext) == GIF_ERROR ||
        EGifPutImageDesc(r->gif, x0, y0, w, h, false, NULL) == GIF_ERROR)
        return gif_error(r, d);
    for (int y = y0; y <= y1; y++) {
        const uint8_t *c = r->cur + (size_t)y * (size_t)r->w + x0;
        const uint8_t *o = r->prev + (size_t)y * (size_t)r->w + x0;
        for (int i = 0; i < w; i++)
            r->line[i] = r->have_prev && c[i] == o[i] ? GIF_TRANSPARENT : c[i];
        if (EGifPutLine(r->gif, r->line, w) == GIF_ERROR)
            return gif_error(r, d);
    }
    uint8_t *t = r->prev;
    r->prev = r->cur;
    r->cur = t;
    r->have_prev = true;
    r->frames++;
    return SN_OK;
}

static sn_status open_gif(sn_record *r, const sn_rgb *keep, size_t nkeep, sn_diag *d)
{
    size_t px = (size_t)r->w * (size_t)r->h;
    r->lut = sn_malloc((size_t)1 << 24);
    r->known = sn_calloc((size_t)1 << 21, 1);
    r->cur = sn_malloc(px);
    r->prev = sn_malloc(px);
    r->line = sn_malloc((size_t)r->w);
    if (!r->lut || !r->known || !r->cur || !r->prev || !r->line)
        return sn_diag_set(d, SN_ENOMEM, 0, 0, "%s: out of memory for the GIF", r->path);
    palette_build(r, keep, nkeep);
    GifColorType colors[256];
    memset(colors, 0, sizeof colors);
    for (int i = 0; i < r->pal_n; i++) {
        colors[i].Red = (GifByteType)lround(r->pal[i].r * 255);
        colors[i].Green = (GifByteType)lround(r->pal[i].g * 255);
        colors[i].Blue = (GifByteType)lround(r->pal[i].b * 255);
    }
    /* our own open: giflib's EGifOpenFileName creates the file 0600, and a
     * GIF put on a course page must be readable like every other output
     * (0666 less the umask); its error text would not name the cause */
    sn_headless_catch_temp_signals();
    int fd = sn_temp_file_create(r->path, r->tmp, sizeof r->tmp, &r->slot);
    if (fd < 0) {
        r->tmp[0] = '\0';
        return sn_diag_set(d, SN_EIO, 0, 0, "%s: %s", r->path, strerror(errno));
    }
    int err = 0;
    r->gif = EGifOpenFileHandle(fd, &err);
    if (!r->gif) {
        close(fd);
        return sn_diag_set(d, SN_EIO, 0, 0, "%s: %s", r->path, GifErrorString(err));
    }
    ColorMapObject *cmap = GifMakeMapObject(256, colors);
    if (!cmap)
        return sn_diag_set(d, SN_ENOMEM, 0, 0, "%s: out of memory for the GIF", r->path);
    EGifSetGifVersion(r->gif, true);
    errno = 0;
    int rc = EGifPutScreenDesc(r->gif, r->w, r->h, 8, 0, cmap);
    GifFreeMapObject(cmap);
    /* loop forever (the NETSCAPE2.0 application extension) */
    static const GifByteType loop[3] = {1, 0, 0};
    if (rc == GIF_ERROR || EGifPutExtensionLeader(r->gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(r->gif, 11, "NETSCAPE2.0") == GIF_ERROR ||
        EGifPutExtensionBlock(r->gif, 3, loop) == GIF_ERROR ||
        EGifPutExtensionTrailer(r->gif) == GIF_ERROR)
        return gif_error(r, d);
    return SN_OK;
}
#else
static sn_status write_gif(sn_record *r, double end_ms, sn_diag *d)
{
    (void)r;
    (void)end_ms;
    return sn_diag_set(d, SN_EUNSUPPORTED, 0, 0, "GIF: not built with giflib");
}
#endif

/* Is ffmpeg an executable on PATH? */
static bool have_ffmpeg(void)
{
    const char *path = getenv("PATH");
    if (!path)
        return false;
    char dir[4096];
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(dir, sizeof dir, "%.*s/ffmpeg", (int)(n < 4000 ? n : 4000), p);
        if (n > 0 && access(dir, X_OK) == 0)
            return true;
        p += n;
        if (*p == ':')
            p++;
    }
    return false;
}

static sn_status open_video(sn_record *r, sn_diag *d)
{
    if (!have_ffmpeg())
        return sn_diag_set(d, SN_EUNSUPPORTED, 0, 0,
                           "%s: video needs ffmpeg on PATH (Debian package ffmpeg); "
                           "--record FILE.gif or --record DIR work without it",
                           r->path);
    bool webm = strcmp(strrchr(r->path, '.'), ".webm") == 0;
    /* the temporary has no extension: the format is named (-f) */
    sn_headless_catch_temp_signals();
    int fd = sn_temp_file_create(r->path, r->tmp, sizeof r->tmp, &r->slot);
    if (fd < 0) {
        r->tmp[0] = '\0';
        return sn_diag_set(d, SN_EIO, 0, 0, "%s: %s", r->path, strerror(errno));
    }
    close(fd); /* ffmpeg -y writes it again */
    char cmd[9000];
    snprintf(cmd, sizeof cmd,
             "ffmpeg -loglevel error -y -f rawvideo -pix_fmt bgr0 -s %dx%d -r %g -i - "
             "-vf 'pad=ceil(iw/2)*2:ceil(ih/2)*2' %s -f %s '%s'",
             r->w, r->h, VIDEO_FPS,
             webm ? "-c:v libvpx-vp9 -b:v 0 -crf 36 -pix_fmt yuv420p"
                  : "-c:v libx264 -preset veryfast -crf 23 -pix_fmt yuv420p -movflags +faststart",
             webm ? "webm" : "mp4", r->tmp);
    if (strchr(r->tmp, '\''))
        return sn_diag_set(d, SN_EINVAL, 0, 0, "%s: a video name may not contain '", r->path);
    /* an ffmpeg that exits early must fail the write ("stopped reading
     * frames"), not kill the window with SIGPIPE */
    r->old_sigpipe = signal(SIGPIPE, SIG_IGN);
    r->sigpipe_set = true;
    r->pipe = popen(cmd, "w");
    if (!r->pipe)
        return sn_diag_set(d, SN_EIO, 0, 0, "%s: cannot start ffmpeg: %s", r->path,
                           strerror(errno));
    return SN_OK;
}

sn_status sn_record_open(const char *path, int w, int h, const sn_rgb *keep, size_t nkeep,
                         sn_record **out, sn_diag *diag)
{
    *out = NULL;
    if (w <= 0 || h <= 0)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "%s: no frame size", path);
    sn_record *r = sn_calloc(1, sizeof *r);
    if (!r)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    snprintf(r->path, sizeof r->path, "%s", path);
    r->slot = -1;
    r->kind = sn_record_kind_of(path);
    r->w = w;
    r->h = h;
    r->pend = sn_malloc((size_t)w * (size_t)h * 4);
    sn_status st = r->pend ? SN_OK : sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    if (st == SN_OK)
        catch_stop_signals();
    if (st == SN_OK && r->kind == SN_RECORD_DIR) {
        st = open_dir(r, diag);
    } else if (st == SN_OK && r->kind == SN_RECORD_GIF) {
#ifdef SN_HAVE_GIF
        st = open_gif(r, keep, nkeep, diag);
#else
        (void)keep;
        (void)nkeep;
        st = sn_diag_set(diag, SN_EUNSUPPORTED, 0, 0,
                         "%s: built without giflib (Debian package libgif-dev); "
                         "--record DIR writes PNG frames",
                         path);
#endif
    } else if (st == SN_OK) {
        st = open_video(r, diag);
    }
    if (st != SN_OK) {
        sn_record_abort(r);
        return st;
    }
    *out = r;
    return SN_OK;
}

sn_status sn_record_frame(sn_record *r, double t_ms, const uint8_t *pixels, int stride,
                          sn_diag *diag)
{
    double step = r->kind == SN_RECORD_GIF     ? GIF_MIN_MS
                  : r->kind == SN_RECORD_VIDEO ? 1000.0 / VIDEO_FPS
                                               : 0;
    size_t row = (size_t)r->w * 4;
    if (r->have_pend) {
        bool same = true;
        for (int y = 0; y < r->h && same; y++)
            same = memcmp(pixels + (size_t)y * (size_t)stride, r->pend + (size_t)y * (size_t)r->w,
                          row) == 0;
        if (same)
            return SN_OK; /* the pending picture simply lasts longer */
        if (t_ms - r->pend_t >= step) {
            sn_status st = flush_pending(r, t_ms, diag);
            if (st != SN_OK)
                return st;
            r->pend_t = t_ms;
        }
        /* else: too soon after the pending one; this picture replaces it */
    } else {
        r->pend_t = t_ms;
    }
    for (int y = 0; y < r->h; y++)
        memcpy(r->pend + (size_t)y * (size_t)r->w, pixels + (size_t)y * (size_t)stride, row);
    r->have_pend = true;
    return SN_OK;
}

static void release(sn_record *r)
{
    release_stop_signals();
    if (r->concat)
        fclose(r->concat);
    if (r->pipe)
        pclose(r->pipe);
    if (r->sigpipe_set)
        signal(SIGPIPE, r->old_sigpipe);
#ifdef SN_HAVE_GIF
    if (r->gif) {
        int err;
        EGifCloseFile(r->gif, &err);
    }
#endif
    sn_free(r->pend);
    sn_free(r->lut);
    sn_free(r->known);
    sn_free(r->cur);
    sn_free(r->prev);
    sn_free(r->line);
    sn_free(r);
}

sn_status sn_record_close(sn_record *r, double t_ms, size_t *frames, sn_diag *diag)
{
    if (caught_signal) { /* stopped by a signal: nothing replaces the old file */
        if (frames)
            *frames = r->frames;
        sn_record_abort(r);
        return sn_diag_set(diag, SN_EINTERRUPTED, 0, 0, "interrupted by signal %d",
                           (int)caught_signal);
    }
    double end = r->have_pend ? fmax(t_ms, r->pend_t + 1) : t_ms;
    sn_status st = flush_pending(r, end, diag);
    if (frames)
        *frames = r->frames;
    int rc = 0;
    errno = 0; /* the cause of a failed close (a full disk) */
    if (r->kind == SN_RECORD_DIR && r->concat) {
        /* ffmpeg's concat demuxer needs the last file again to honour the
         * last duration */
        fprintf(r->concat, "file 'frame-%06zu.png'\n", r->frames);
        rc = fclose(r->concat);
        r->concat = NULL;
    }
#ifdef SN_HAVE_GIF
    if (r->kind == SN_RECORD_GIF && r->gif) {
        int err = 0;
        rc = EGifCloseFile(r->gif, &err) == GIF_ERROR;
        r->gif = NULL;
    }
#endif
    int e = errno;
    if (r->kind == SN_RECORD_VIDEO && r->pipe) {
        rc = pclose(r->pipe);
        r->pipe = NULL;
        e = 0; /* ffmpeg's own message says why */
    }
    if (st == SN_OK && rc != 0)
        st = sn_diag_set(diag, SN_EIO, 0, 0, "%s: could not finish the recording%s%s", r->path,
                         r->kind == SN_RECORD_VIDEO ? " (ffmpeg failed)"
                         : e                        ? ": "
                                                    : "",
                         r->kind != SN_RECORD_VIDEO && e ? strerror(e) : "");
    if (st == SN_OK && r->kind == SN_RECORD_DIR)
        st = replace_dir(r, diag);
    else if (st == SN_OK && rename(r->tmp, r->path) != 0)
        st = sn_diag_set(diag, SN_EIO, 0, 0, "%s: %s", r->path, strerror(errno));
    if (st != SN_OK && r->kind == SN_RECORD_DIR && r->tmp[0])
        remove_folder(r->tmp, false);
    else if (st != SN_OK)
        sn_temp_file_discard(r->slot);
    else
        sn_temp_file_release(r->slot);
    release(r);
    return st;
}

void sn_record_abort(sn_record *r)
{
    if (!r)
        return;
    int slot = r->slot;
    bool dir = r->kind == SN_RECORD_DIR && r->tmp[0];
    char tmp[sizeof r->tmp];
    memcpy(tmp, r->tmp, sizeof tmp);
    release(r);
    sn_temp_file_discard(slot); /* a GIF or video's temporary file */
    if (dir) /* the temporary folder: only this run's files are in it */
        remove_folder(tmp, false);
}
