/* run.c - `sortnet view` as a run of the session (run.h): the loop that
 * the headless backend runs alone and the window runs with its host.
 *
 * Loop: the host's events -> the session; the script's next event (one a
 * frame, so a recording shows each) -> the session; time -> the session's
 * tick; what the session asks (save a PNG or SVG) done here, the rest
 * (full screen) by the host; then, if anything changed, the frame painted
 * by cairo (sn_frame_draw_group) into the host's pixels or the run's own.
 * Scripted runs use virtual time: every frame advances exactly 1/60 s
 * whatever the machine does, so the same script always ends in the same
 * state, the same picture and (--record) the same file. */
#include "headless/run.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h> // for: getpid (temporary file names), usleep

#include "core/alloc.h"
#include "headless/frame.h"
#ifdef SN_HAVE_APP_GPU
#include "headless/gpu_hook.h"
#endif
#include "render/palette.h"
#include "session/link.h" // for: --link

#define FRAME_MS (1000.0 / 60.0)
/* A script's end waits at most this long (virtual ms) for playback to end. */
#define SETTLE_MAX_MS 600000.0

double sn_run_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int sn_run_fail(int code, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "sortnet: view: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return code;
}

bool sn_run_needs_window(const sn_run_options *o)
{
    return (!o->script && !o->screenshot) || o->stay || o->sound;
}

/* ---- start */

/* The networks of the command line, or the lesson's first step. */
int sn_runner_start(sn_runner *r, const sn_run_options *o)
{
    memset(r, 0, sizeof *r);
    r->opt = o;
    r->scale = 1.0;
    r->dw = o->width > 0 ? o->width : SN_RUN_WIDTH;
    r->dh = o->height > 0 ? o->height : SN_RUN_HEIGHT;
    snprintf(r->how, sizeof r->how, "headless");
    sn_session_init(&r->session, SN_FRONT_WINDOW);
#ifdef SN_HAVE_APP_GPU
    r->session.install = sn_app_gpu_install; /* G verifies on the default OpenCL device */
#endif
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st;
    if (o->link) {
        sn_link link;
        st = sn_link_decode(o->link, strlen(o->link), &link, &d);
        if (st == SN_OK)
            st = sn_session_link_open(&r->session, &link, NULL, &d);
        sn_link_clear(&link);
    } else if (o->lesson) {
        sn_lesson *l = NULL;
        st = sn_lesson_load(o->lesson, &l, &d);
        if (st == SN_OK)
            st = sn_lesson_check(l, &d);
        if (st == SN_OK)
            st = sn_session_lesson_open(&r->session, l, &d);
        else
            sn_lesson_free(l);
    } else {
        const char *specs[SN_GROUP_MAX] = {o->net ? o->net : "bitonic:16", NULL, NULL};
        size_t count = 1;
        for (size_t i = 0; i < 2 && o->more[i]; i++)
            specs[count++] = o->more[i];
        sn_group g;
        st = sn_group_init(&g, specs, count, &o->input, &d);
        if (st == SN_OK)
            st = sn_session_show(&r->session, &g, false, &d);
    }
    if (st != SN_OK) {
        sn_diag_escape(&d); /* a file's name may hold a terminal's escapes */
        const char *why = sn_diag_text(&d, st);
        fprintf(stderr, "sortnet: %s%s\n", o->lesson && !strchr(why, ':') ? "--lesson: " : "", why);
        return st == SN_ENOMEM ? 5 : 2; /* as every command: out of memory is exit 5 */
    }
    for (size_t i = 0; i < r->session.group.count; i++) {
        sn_view *v = &r->session.group.view[i];
        v->theme = o->theme;
        v->font_scale = o->font_scale > 0 ? o->font_scale : 1.0;
        v->sound = o->sound;
    }
    sn_session_resize(&r->session, r->dw, r->dh, r->scale);
    r->scripted = o->script || o->screenshot;
    if (o->script) {
        sn_diag_clear(&d);
        st = sn_script_parse(o->script, &r->script, &r->nscript, &d);
        if (st != SN_OK)
            return sn_run_fail(st == SN_ENOMEM ? 5 : 2, "--script: %s", d.text);
    }
    return 0;
}

void sn_runner_use_surface(sn_runner *r, cairo_surface_t *lent, int dw, int dh, double scale)
{
    if (r->surf && !r->surf_lent && r->surf != lent)
        cairo_surface_destroy(r->surf);
    r->surf = lent;
    r->surf_lent = lent != NULL;
    r->dw = dw;
    r->dh = dh;
    r->scale = scale > 0 ? scale : 1.0;
    sn_session_resize(&r->session, dw, dh, r->scale);
}

/* The run's own pixels (headless), made on first use. */
static bool own_surface(sn_runner *r)
{
    if (r->surf)
        return true;
    r->surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, r->dw, r->dh);
    if (cairo_surface_status(r->surf) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(r->surf);
        r->surf = NULL;
        return false;
    }
    r->surf_lent = false;
    return true;
}

/* --record: the colours a GIF must keep exactly (every rank colour of
 * this n, the theme's), then the recorder for the frame's size. */
static int start_record(sn_runner *r)
{
    const sn_run_options *o = r->opt;
    if (!o->record)
        return 0;
    sn_rgb keep[160];
    size_t nk = 0;
    const sn_view *v = sn_session_main(&r->session);
    uint32_t n = v->n;
    for (uint32_t i = 0; i < n && nk < 128; i++)
        keep[nk++] = sn_palette_rank(n > 1 ? (double)i / (n - 1) : 0);
    const sn_theme *th = sn_theme_get(v->theme);
    sn_rgb fixed[] = {th->background, th->band, th->stage,         th->wire,
                      th->comparator, th->text, th->swap,          th->noswap,
                      th->highlight,  th->step, {0.75, 0.1, 0.05}, {0.1, 0.5, 0.15},
                      {0, 0, 0},      {1, 1, 1}};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        keep[nk++] = fixed[i];
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_record_open(o->record, r->dw, r->dh, keep, nk, &r->rec, &d);
    if (st != SN_OK)
        return sn_run_fail(st == SN_EUNSUPPORTED ? 3 : st == SN_ENOMEM ? 5 : 2, "--record: %s",
                           d.text);
    return 0;
}

/* ---- frames */

/* A frame's wall time and CPU time (the CPU time is what the frame costs
 * on a machine busy with other work too). */
static void record_time(sn_runner *r, double ms, double cpu_ms)
{
    if (r->ntimes == r->cap_times) {
        size_t cap = r->cap_times ? r->cap_times * 2 : 1024, bytes;
        double *g = NULL;
        if (sn_mul_size(cap, 2 * sizeof *g, &bytes))
            g = sn_realloc(r->times, bytes);
        if (!g)
            return;
        /* the CPU half moves up to its new place */
        memmove(g + cap, g + r->cap_times, r->ntimes * sizeof *g);
        r->times = g;
        r->cap_times = cap;
    }
    r->times[r->ntimes] = ms;
    r->times[r->cap_times + r->ntimes] = cpu_ms;
    r->ntimes++;
}

/* Hand the frame just painted to the recorder, with the session's time. */
static void record_frame(sn_runner *r)
{
    if (!r->rec)
        return;
    sn_diag d;
    sn_diag_clear(&d);
    if (sn_record_frame(r->rec, r->vtime_ms, cairo_image_surface_get_data(r->surf),
                        cairo_image_surface_get_stride(r->surf), &d) != SN_OK) {
        if (r->rc == 0)
            r->rc = sn_run_fail(2, "--record: %s", d.text);
        sn_record_abort(r->rec);
        r->rec = NULL;
    }
}

/* Paint the session into the frame's pixels, show them (a host) and
 * record them. */
static void paint(sn_runner *r)
{
    const sn_run_host *h = r->host;
    double t0 = sn_run_now(), c0 = cpu_now();
    if (h && h->prepare ? !h->prepare(h->ctx, r) : !own_surface(r))
        return;
    cairo_t *cr = cairo_create(r->surf);
    sn_frame_extra x;
    sn_box dirty[SN_FRAME_DIRTY_MAX];
    size_t nd = 0;
    bool partial = h && h->partial && h->partial(h->ctx, r);
    sn_session *s = &r->session;
    sn_status st =
        sn_frame_draw_group(s->frames, &s->group, sn_session_extra(s, &x), cr, r->dw, r->dh,
                            r->scale, partial ? dirty : NULL, &nd);
    cairo_destroy(cr);
    if (st != SN_OK && r->frames_drawn == 0)
        fprintf(stderr, "sortnet: view: drawing: %s\n", sn_status_str(st));
    cairo_surface_flush(r->surf);
    if (h && h->present)
        h->present(h->ctx, r, dirty, nd);
    if (r->frames_drawn == 0)
        r->first_frame_s = sn_run_now() - r->opt->start_seconds;
    record_time(r, sn_run_now() * 1000 - t0 * 1000, (cpu_now() - c0) * 1000);
    r->frames_drawn++;
    record_frame(r);
}

/* The settled picture: labels and bars agree (no frame of a slide). */
static void paint_settled(sn_runner *r)
{
    for (size_t i = 0; i < r->session.group.count; i++)
        r->session.group.view[i].anim_ms = 0;
    paint(r);
}

/* An existing target that is not a regular file or a folder (a device
 * such as /dev/null, a FIFO) is written in place: a temporary renamed
 * over it would replace it (as root, even /dev/null). */
static bool in_place(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode);
}

bool sn_runner_write_png(sn_runner *r, const char *path, char *why, size_t cap)
{
    if (!r->surf) {
        snprintf(why, cap, "out of memory");
        return false;
    }
    char tmp[4200];
    bool direct = in_place(path);
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    errno = 0;
    cairo_status_t cs = cairo_surface_write_to_png(r->surf, direct ? path : tmp);
    if (cs != CAIRO_STATUS_SUCCESS) {
        /* cairo says only "error while writing to output stream": the
         * cause is in errno (a folder that does not exist, a full disk) */
        int e = errno;
        if (!direct)
            remove(tmp);
        snprintf(why, cap, "%s",
                 cs == CAIRO_STATUS_WRITE_ERROR && e ? strerror(e) : cairo_status_to_string(cs));
        return false;
    }
    if (!direct && rename(tmp, path) != 0) {
        snprintf(why, cap, "%s", strerror(errno));
        remove(tmp);
        return false;
    }
    return true;
}

/* "sortnet-bitonic-16-layer-3" plus the first free ".ext" / "-2.ext". */
static void file_name(const sn_view *v, const char *ext, char *out, size_t cap)
{
    char base[160];
    size_t j = 0;
    for (const char *p = v->name; *p && j < 100; p++) {
        char c = *p;
        if (c == '/')
            j = 0; /* a file's base name only */
        else
            base[j++] = (char)((c == ':' || c == ' ' || c == '.') ? '-' : c);
    }
    base[j] = '\0';
    for (int i = 1; i < 1000; i++) {
        if (i == 1)
            snprintf(out, cap, "sortnet-%s-layer-%zu.%s", base, v->step, ext);
        else
            snprintf(out, cap, "sortnet-%s-layer-%zu-%d.%s", base, v->step, i, ext);
        struct stat sb;
        if (stat(out, &sb) != 0)
            return;
    }
}

/* P and S: the picture and the diagram saved beside the run. */
static void save_requests(sn_runner *r, unsigned req)
{
    sn_view *v = sn_session_main(&r->session);
    if (req & SN_REQ_SAVE_PNG) {
        char path[256], why[256];
        file_name(v, "png", path, sizeof path);
        paint_settled(r);
        if (sn_runner_write_png(r, path, why, sizeof why))
            sn_view_message(v, false, "saved screenshot %s", path);
        else
            sn_view_message(v, true, "could not save %s: %s", path, why);
    }
    if (req & SN_REQ_SAVE_SVG) {
        char path[256], tmp[300];
        file_name(v, "svg", path, sizeof path);
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        sn_diag d;
        sn_diag_clear(&d);
        sn_status st = sn_frame_save_svg(r->session.frames[0], v, tmp, &d);
        if (st == SN_OK && rename(tmp, path) != 0)
            st = sn_diag_set(&d, SN_EIO, 0, 0, "%s: %s", tmp, strerror(errno));
        if (st == SN_OK) {
            sn_view_message(v, false, "saved diagram %s", path);
        } else {
            remove(tmp);
            /* the cause, without the temporary's name before it */
            size_t tl = strlen(tmp);
            const char *why = sn_diag_text(&d, st);
            if (strncmp(why, tmp, tl) == 0 && strncmp(why + tl, ": ", 2) == 0)
                why += tl + 2;
            sn_view_message(v, true, "could not save %s: %s", path, why);
        }
    }
}

/* What the main view asks: saving here, the window's own to the host;
 * quitting ends the loop. */
static void requests(sn_runner *r)
{
    sn_view *v = sn_session_main(&r->session);
    unsigned req = v->requests;
    v->requests = 0;
    save_requests(r, req);
    if (r->host && r->host->requests && (req & SN_REQ_FULLSCREEN))
        r->host->requests(r->host->ctx, r, req & SN_REQ_FULLSCREEN);
    if (req & SN_REQ_QUIT)
        r->quit = true;
}

/* Whether a script event needs the last frame (its hit tests). */
static bool needs_frame(const sn_script_event *ev)
{
    switch (ev->kind) {
    case SN_SCRIPT_CLICK:
    case SN_SCRIPT_DCLICK:
    case SN_SCRIPT_WHEEL:
    case SN_SCRIPT_DRAG: return true;
    default: return false;
    }
}

/* Whether a run with no host paints frames: only for what uses them (a
 * screenshot, a recording, the statistics, the pointer's hit tests, P). */
static bool headless_paints(const sn_runner *r)
{
    const sn_run_options *o = r->opt;
    if (o->screenshot || o->record || o->stats)
        return true;
    for (size_t i = 0; i < r->nscript; i++)
        if (needs_frame(&r->script[i]) ||
            (r->script[i].kind == SN_SCRIPT_ACTION && r->script[i].act == SN_ACT_SAVE_PNG))
            return true;
    return false;
}

/* The script has ended: the final screenshot, then exit or (--stay)
 * carry on as a live window. true when the loop should end. */
static bool script_done(sn_runner *r)
{
    const sn_run_options *o = r->opt;
    if (o->screenshot) {
        paint_settled(r);
        char why[256];
        if (!sn_runner_write_png(r, o->screenshot, why, sizeof why) && r->rc == 0)
            r->rc = sn_run_fail(2, "%s: cannot write the screenshot: %s", o->screenshot, why);
    }
    if (!o->stay || !r->host)
        return true;
    r->scripted = false;
    sn_view_message(sn_session_main(&r->session), false,
                    "the script has ended: the keys are yours (H: help)");
    return false;
}

int sn_runner_loop(sn_runner *r, const sn_run_host *host)
{
    r->host = host;
    const sn_run_options *o = r->opt;
    sn_session *s = &r->session;
    bool paints = host || headless_paints(r);
    int rc = start_record(r);
    if (rc != 0)
        return r->rc = rc;
    size_t next = 0;
    double wait_ms = 0, settle_ms = 0;
    double last = sn_run_now();
    bool dirty = true, stale = false; /* stale: changed since the last frame painted */
    while (!r->quit) {
        if (r->rec && sn_record_signal()) { /* dropped by stop_record: the old file kept */
            r->rc = sn_run_fail(128 + sn_record_signal(), "interrupted: %s was not recorded",
                                o->record);
            break;
        }
        if (host && host->events)
            dirty |= host->events(host->ctx, r, !r->scripted && !dirty && !sn_session_busy(s));
        double now = sn_run_now();
        double dt = r->scripted ? FRAME_MS : (now - last) * 1000;
        last = now;
        if (dt > 250)
            dt = 250; /* after a stall, do not jump through many layers */
        r->vtime_ms += dt;
        if (r->scripted) {
            if (wait_ms > 0) {
                wait_ms -= dt;
            } else if (next < r->nscript) {
                const sn_script_event *ev = &r->script[next++];
                /* the hit tests read the frame as it is now (a window's
                 * first event too, before its first frame is shown) */
                if (paints && (host ? r->frames_drawn == 0 : dirty || stale) && needs_frame(ev)) {
                    paint(r);
                    stale = false;
                }
                char why[600];
                if (!sn_session_script_step(s, o->script, ev, &wait_ms, why, sizeof why)) {
                    r->script_failed = true;
                    r->rc = sn_run_fail(2, "%s", why);
                    break;
                }
                /* the verdict of an edit is part of the step's frame, so the
                 * same script always gives the same pictures */
                sn_session_settle(s);
                dirty = true;
            }
        }
        dirty |= sn_session_tick(s, dt);
        if (host && host->stepped)
            host->stepped(host->ctx, r);
        if (sn_session_main(s)->requests) {
            requests(r);
            dirty = true;
        }
        if (dirty && paints && (host || r->rec || o->stats))
            paint(r);
        else if (dirty)
            stale = true;
        dirty = false;
        if (r->scripted && next >= r->nscript && wait_ms <= 0) {
            settle_ms += dt;
            if ((!sn_session_busy(s) || settle_ms > SETTLE_MAX_MS) && script_done(r))
                break;
        }
        if (host && host->pace)
            host->pace(host->ctx, r, (sn_run_now() - now) * 1000);
    }
    return r->rc;
}

/* ---- the end */

static int cmp_double(const void *x, const void *y)
{
    double p = *(const double *)x, q = *(const double *)y;
    return (p > q) - (p < q);
}

/* (r->ntimes > 0: the caller prints nothing without a frame) */
static void print_stats(sn_runner *r)
{
    size_t n = r->ntimes;
    double *wall = r->times, *cpu = r->times + r->cap_times;
    qsort(wall, n, sizeof *wall, cmp_double);
    qsort(cpu, n, sizeof *cpu, cmp_double);
#define PCT(t, q) t[(size_t)((q) * (double)(n - 1) + 0.5)]
    printf("frames: %zu at %dx%d px (%s)\n", n, r->dw, r->dh, r->how);
    printf("frame ms: p50 %.2f  p90 %.2f  p99 %.2f  max %.2f\n", PCT(wall, 0.5), PCT(wall, 0.9),
           PCT(wall, 0.99), wall[n - 1]);
    printf("frame cpu ms: p50 %.2f  p90 %.2f  p99 %.2f  max %.2f\n", PCT(cpu, 0.5), PCT(cpu, 0.9),
           PCT(cpu, 0.99), cpu[n - 1]);
    printf("start to first frame: %.1f ms\n", r->first_frame_s * 1000);
#undef PCT
}

/* 0, or why the state could not be written (an errno; ENOMEM: out of
 * memory). Like every output: a temporary beside it, renamed when
 * complete. */
static int dump_state(sn_runner *r, const char *path, const char *backend_lines)
{
    char tmp[4200];
    bool direct = in_place(path);
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(direct ? path : tmp, "w");
    if (!f)
        return errno ? errno : EIO;
    int e = sn_session_dump(&r->session, f, backend_lines) ? 0 : ENOMEM;
    errno = 0;
    if (fflush(f) != 0 || ferror(f))
        e = e ? e : errno ? errno : EIO;
    if (f != stdout) {
        if (fclose(f) != 0 && !e)
            e = errno ? errno : EIO;
        if (!e && !direct && rename(tmp, path) != 0)
            e = errno;
        if (e && !direct)
            remove(tmp);
    }
    return e;
}

static void stop_record(sn_runner *r, int *rc)
{
    if (!r->rec)
        return;
    if (*rc != 0) {
        sn_record_abort(r->rec);
        r->rec = NULL;
        return;
    }
    sn_diag d;
    sn_diag_clear(&d);
    size_t frames = 0;
    sn_status st = sn_record_close(r->rec, r->vtime_ms, &frames, &d);
    if (st == SN_EINTERRUPTED)
        *rc = sn_run_fail(128 + sn_record_signal(), "interrupted: %s was not recorded",
                          r->opt->record);
    else if (st != SN_OK)
        *rc = sn_run_fail(2, "--record: %s", d.text);
    else if (r->opt->stats)
        printf("recorded: %zu frames, %.2f s\n", frames, r->vtime_ms / 1000);
    r->rec = NULL;
}

int sn_runner_finish(sn_runner *r, int rc, const char *backend_lines)
{
    const sn_run_options *o = r->opt;
    stop_record(r, &rc);
    /* the state of a failed script too: it shows where it stopped */
    if (r->session.open && (rc == 0 || r->script_failed) && o->dump_state) {
        int e = dump_state(r, o->dump_state, backend_lines);
        if (e && rc == 0)
            rc = sn_run_fail(e == ENOMEM ? 5 : 2, "--dump-state %s: %s", o->dump_state,
                             e == ENOMEM ? "out of memory" : strerror(e));
    }
    /* a script that edits must say what becomes of the edits */
    if (rc == 0 && r->session.open && (o->script || o->screenshot) &&
        sn_view_unsaved(sn_session_main(&r->session)) && !o->discard)
        rc = sn_run_fail(2,
                         "%s: the script leaves unsaved edits; end it with save:FILE (or Ctrl+S: "
                         "ctrl+s), or pass --discard to drop them",
                         sn_session_main(&r->session)->name);
    if (o->stats && r->ntimes)
        print_stats(r);
    if (r->surf && !r->surf_lent)
        cairo_surface_destroy(r->surf);
    r->surf = NULL;
    sn_free(r->times);
    sn_free(r->script);
#ifdef SN_HAVE_APP_GPU
    sn_app_gpu_release();
#endif
    sn_session_cleanup(&r->session);
    return rc;
}

/* ---- the headless backend */

int sn_headless_run(const sn_run_options *o)
{
    sn_runner r;
    int rc = sn_runner_start(&r, o);
    if (rc == 0 && sn_run_needs_window(o))
        rc = sn_run_fail(3, "%s needs a window, and this sortnet has none (built without SDL2, "
                            "or no display): give a --script or --screenshot to run it "
                            "headless, or use `sortnet draw`",
                         o->stay    ? "--stay"
                         : o->sound ? "--sound"
                                    : "a live session");
    if (rc == 0)
        rc = sn_runner_loop(&r, NULL);
    return sn_runner_finish(&r, rc, "sound_device: -\ntones: 0 queued, 0 dropped\nwindow: none\n");
}
