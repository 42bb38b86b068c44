/* app.c - the SDL2 side of the window: events in, frames out.
 *
 * Loop: events -> group actions (update; in a lesson Right/Left change its
 * step), time -> sn_group_tick, then, if anything changed,
 * sn_frame_draw_group straight into the window's surface, pushing only the
 * rectangles that changed (draw; a streaming texture where the surface is
 * not 32-bit xRGB). The loop sleeps in SDL_WaitEventTimeout when nothing
 * moves. Scripted runs (--script, --screenshot) use virtual time: every
 * frame advances exactly 1/60 s whatever the machine does, so the same
 * script always ends in the same state, the same picture and (--record)
 * the same file. */
#include "app.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h> // for: mkdir
#include <time.h>
#include <unistd.h> // for: getpid (temporary file names)

#include <SDL.h>
#include <cairo.h>

#include "core/alloc.h"
#include "core/library.h"
#include "frame.h"
#include "group.h"
#include "lesson.h"
#include "record.h"
#include "render/draw.h" /* for: sn_draw_ranks (the pitch of a tone) */
#include "sound.h"
#ifdef SN_HAVE_APP_GPU
#include "gpu_hook.h"
#endif
#include "script.h"

#define FRAME_MS (1000.0 / 60.0)
/* A script's end waits at most this long (virtual ms) for playback to end. */
#define SETTLE_MAX_MS 600000.0
/* --dump-state lists the network up to this many comparators. */
#define DUMP_MAX_CMP 100000u

double sn_app_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct app {
    const sn_app_options *opt;
    sn_group group;                 /* the networks shown (one, or side by side) */
    sn_frame *frames[SN_GROUP_MAX]; /* frames[i] draws group.view[i] */
    sn_frame *frame;                /* frames[0] */
    sn_lesson *lesson;              /* --lesson, or NULL */
    size_t lesson_step;
    char progress[48];          /* "step 3 of 12" */
    sn_record *rec;             /* --record, or NULL */
    double vtime_ms;            /* time of the session (virtual when scripted) */
    sn_sound *sound;            /* opened when sound is first turned on */
    bool sound_tried;           /* ... once: no device means silence */
    size_t heard[SN_GROUP_MAX]; /* step of each view when tones were last queued */
    bool scripted;
    SDL_Window *win;
    /* Two ways to the screen. The window's own surface (the default):
     * cairo draws straight into its pixels and SDL pushes them, with no
     * copy and no texture upload; with a GL renderer emulated on the CPU
     * (Xvfb, llvmpipe) the upload alone took longer than drawing. Else,
     * when its format is not 32-bit xRGB, a streaming texture. */
    SDL_Surface *wsurf;
    bool use_wsurf;
    bool drawn_once; /* the surface holds a whole frame (partial redraws allowed) */
    SDL_Renderer *ren;
    SDL_Texture *tex;
    cairo_surface_t *surf;
    int dw, dh;   /* drawable size in pixels */
    double scale; /* drawable pixels per window point */
    bool offscreen, vsync, fullscreen;
    /* mouse */
    bool down, dragging;
    double down_x, down_y, last_x, last_y;
    bool edit_down;     /* the press began an edit gesture (edit mode) */
    sn_frame_hit press; /* where it began */
    char title[200];    /* the window title shown */
    /* stats */
    double *times; /* [2 * cap_times]: wall ms, then this thread's CPU ms, per frame */
    size_t ntimes, cap_times;
    double first_frame_s;
    unsigned long frames_drawn;
    int rc;
    bool script_failed; /* a script step failed: rc is 2, the rest not run */
    bool headless;      /* no window: a script that shows nothing, no display */
} app;

static sn_view *main_view(app *a)
{
    return sn_group_main(&a->group);
}

static int fail(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int fail(int code, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "sortnet: view: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return code;
}

/* ---- surfaces */

/* The window's surface as a cairo surface over the same pixels; false
 * when the window has none in a format cairo can draw into. */
static bool window_surface(app *a)
{
    SDL_Surface *ws = SDL_GetWindowSurface(a->win);
    if (!ws || ws->format->BytesPerPixel != 4 || ws->format->Rmask != 0xff0000u ||
        ws->format->Gmask != 0xff00u || ws->format->Bmask != 0xffu || SDL_MUSTLOCK(ws))
        return false;
    int ww, wh;
    SDL_GetWindowSize(a->win, &ww, &wh);
    a->scale = ww > 0 ? (double)ws->w / ww : 1.0;
    if (a->surf && ws == a->wsurf && ws->w == a->dw && ws->h == a->dh &&
        cairo_image_surface_get_data(a->surf) == ws->pixels)
        return true;
    if (a->surf)
        cairo_surface_destroy(a->surf);
    a->wsurf = ws;
    a->drawn_once = false;
    a->dw = ws->w;
    a->dh = ws->h;
    a->surf = cairo_image_surface_create_for_data(ws->pixels, CAIRO_FORMAT_RGB24, ws->w, ws->h,
                                                  ws->pitch);
    return cairo_surface_status(a->surf) == CAIRO_STATUS_SUCCESS;
}

static bool resize(app *a)
{
    if (a->use_wsurf)
        return window_surface(a);
    int w, h;
    if (SDL_GetRendererOutputSize(a->ren, &w, &h) != 0 || w <= 0 || h <= 0)
        SDL_GetWindowSize(a->win, &w, &h);
    int ww, wh;
    SDL_GetWindowSize(a->win, &ww, &wh);
    a->scale = ww > 0 ? (double)w / ww : 1.0;
    if (a->surf && w == a->dw && h == a->dh)
        return true;
    if (a->tex)
        SDL_DestroyTexture(a->tex);
    if (a->surf)
        cairo_surface_destroy(a->surf);
    a->dw = w;
    a->dh = h;
    a->tex = SDL_CreateTexture(a->ren, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STREAMING, w, h);
    a->surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    return a->tex && cairo_surface_status(a->surf) == CAIRO_STATUS_SUCCESS;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A frame's wall time and CPU time (the CPU time is what the frame costs
 * on a machine busy with other work too). */
static void record_time(app *a, double ms, double cpu_ms)
{
    if (a->ntimes == a->cap_times) {
        size_t cap = a->cap_times ? a->cap_times * 2 : 1024, bytes;
        double *g = NULL;
        if (sn_mul_size(cap, 2 * sizeof *g, &bytes))
            g = sn_realloc(a->times, bytes);
        if (!g)
            return;
        /* the CPU half moves up to its new place */
        memmove(g + cap, g + a->cap_times, a->ntimes * sizeof *g);
        a->times = g;
        a->cap_times = cap;
    }
    a->times[a->ntimes] = ms;
    a->times[a->cap_times + a->ntimes] = cpu_ms;
    a->ntimes++;
}

/* The lesson's parts of a frame, or NULL outside a lesson. */
static const sn_frame_extra *lesson_extra(app *a, sn_frame_extra *x)
{
    if (!a->lesson)
        return NULL;
    const sn_lesson_step *st = &a->lesson->steps[a->lesson_step];
    x->title = st->title;
    x->caption = st->caption;
    snprintf(a->progress, sizeof a->progress, "step %zu of %zu", a->lesson_step + 1,
             a->lesson->count);
    x->progress = a->progress;
    return x;
}

/* Hand the frame just drawn to the recorder, with the session's time. */
static void record_frame(app *a)
{
    if (!a->rec)
        return;
    sn_diag d;
    sn_diag_clear(&d);
    if (sn_record_frame(a->rec, a->vtime_ms, cairo_image_surface_get_data(a->surf),
                        cairo_image_surface_get_stride(a->surf), &d) != SN_OK) {
        if (a->rc == 0)
            a->rc = fail(2, "--record: %s", d.text);
        sn_record_abort(a->rec);
        a->rec = NULL;
    }
}

/* Draw the views into the surface and show it. */
static void draw(app *a)
{
    double t0 = sn_app_now(), c0 = cpu_now();
    if (!resize(a))
        return;
    cairo_t *cr = cairo_create(a->surf);
    sn_frame_extra x;
    sn_box dirty[SN_FRAME_DIRTY_MAX];
    size_t nd = 0;
    /* the texture path uploads everything anyway; a fresh surface needs all */
    bool partial = a->use_wsurf && a->drawn_once;
    sn_status st = sn_frame_draw_group(a->frames, &a->group, lesson_extra(a, &x), cr, a->dw, a->dh,
                                       a->scale, partial ? dirty : NULL, &nd);
    a->drawn_once = true;
    cairo_destroy(cr);
    if (st != SN_OK && a->frames_drawn == 0)
        fprintf(stderr, "sortnet: view: drawing: %s\n", sn_status_str(st));
    cairo_surface_flush(a->surf);
    double t1;
    if (a->use_wsurf) {
        SDL_Rect r[SN_FRAME_DIRTY_MAX];
        for (size_t i = 0; i < nd; i++) {
            int x0 = (int)fmax(0, floor(dirty[i].x)), y0 = (int)fmax(0, floor(dirty[i].y));
            int x1 = (int)fmin(a->dw, ceil(dirty[i].x + dirty[i].w));
            int y1 = (int)fmin(a->dh, ceil(dirty[i].y + dirty[i].h));
            r[i] = (SDL_Rect){x0, y0, x1 > x0 ? x1 - x0 : 0, y1 > y0 ? y1 - y0 : 0};
        }
        if (nd)
            SDL_UpdateWindowSurfaceRects(a->win, r, (int)nd);
        else
            SDL_UpdateWindowSurface(a->win);
        t1 = sn_app_now();
    } else {
        SDL_UpdateTexture(a->tex, NULL, cairo_image_surface_get_data(a->surf),
                          cairo_image_surface_get_stride(a->surf));
        SDL_RenderClear(a->ren);
        SDL_RenderCopy(a->ren, a->tex, NULL, NULL);
        t1 = sn_app_now();
        SDL_RenderPresent(a->ren);
    }
    if (a->frames_drawn == 0)
        a->first_frame_s = sn_app_now() - a->opt->start_seconds;
    /* frame time = the work of a frame, not the wait for vsync */
    record_time(a, (a->vsync ? t1 : sn_app_now()) * 1000 - t0 * 1000, (cpu_now() - c0) * 1000);
    a->frames_drawn++;
    record_frame(a);
}

/* Write the current surface as PNG to path through a temporary name. */
/* An existing target that is not a regular file or a folder (a device
 * such as /dev/null, a FIFO) is written in place: a temporary renamed
 * over it would replace it (as root, even /dev/null). */
static bool in_place(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode);
}

static bool write_png(app *a, const char *path, char *why, size_t cap)
{
    char tmp[4200];
    bool direct = in_place(path);
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)SDL_GetTicks());
    errno = 0;
    cairo_status_t cs = cairo_surface_write_to_png(a->surf, direct ? path : tmp);
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

static void do_requests(app *a)
{
    sn_view *v = main_view(a);
    unsigned r = v->requests;
    v->requests = 0;
    if (r & SN_REQ_SAVE_PNG) {
        char path[256], why[256];
        file_name(v, "png", path, sizeof path);
        /* the settled picture: labels and bars agree (no frame of a slide) */
        for (size_t i = 0; i < a->group.count; i++)
            a->group.view[i].anim_ms = 0;
        draw(a);
        if (write_png(a, path, why, sizeof why))
            sn_view_message(v, false, "saved screenshot %s", path);
        else
            sn_view_message(v, true, "could not save %s: %s", path, why);
    }
    if (r & SN_REQ_SAVE_SVG) {
        char path[256], tmp[300];
        file_name(v, "svg", path, sizeof path);
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        sn_diag d;
        sn_diag_clear(&d);
        sn_status st = sn_frame_save_svg(a->frame, v, tmp, &d);
        if (st == SN_OK && rename(tmp, path) != 0)
            st = sn_diag_set(&d, SN_EIO, 0, 0, "%s: %s", tmp, strerror(errno));
        if (st == SN_OK) {
            sn_view_message(v, false, "saved diagram %s", path);
        } else {
            remove(tmp);
            /* the cause, without the temporary's name before it */
            size_t tl = strlen(tmp);
            const char *why = d.text[0] ? d.text : sn_status_str(st);
            if (strncmp(why, tmp, tl) == 0 && strncmp(why + tl, ": ", 2) == 0)
                why += tl + 2;
            sn_view_message(v, true, "could not save %s: %s", path, why);
        }
    }
    if (r & SN_REQ_FULLSCREEN) {
        a->fullscreen = !a->fullscreen;
        SDL_SetWindowFullscreen(a->win, a->fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
        resize(a);
    }
    if (r & SN_REQ_QUIT)
        v->requests |= SN_REQ_QUIT; /* seen by the loop */
}

/* ---- input */

static sn_action key_action(const SDL_Keysym *k)
{
    if (k->mod & KMOD_CTRL) {
        switch (k->sym) {
        case SDLK_PLUS:
        case SDLK_EQUALS:
        case SDLK_KP_PLUS: return SN_ACT_FONT_UP;
        case SDLK_MINUS:
        case SDLK_KP_MINUS: return SN_ACT_FONT_DOWN;
        case SDLK_z: return (k->mod & KMOD_SHIFT) ? SN_ACT_REDO : SN_ACT_UNDO;
        case SDLK_y: return SN_ACT_REDO;
        case SDLK_s: return SN_ACT_SAVE_NET;
        default: return SN_ACT_NONE;
        }
    }
    switch (k->sym) {
    case SDLK_e: return SN_ACT_EDIT;
    case SDLK_DELETE:
    case SDLK_BACKSPACE: return SN_ACT_DELETE;
    case SDLK_TAB: return SN_ACT_SELECT;
    case SDLK_RIGHT: return SN_ACT_RIGHT;
    case SDLK_LEFT: return SN_ACT_LEFT;
    case SDLK_PAGEDOWN: return SN_ACT_PAGE_DOWN; /* a clicker remote */
    case SDLK_PAGEUP: return SN_ACT_PAGE_UP;
    case SDLK_DOWN: return SN_ACT_DOWN;
    case SDLK_UP: return SN_ACT_UP;
    case SDLK_m: return SN_ACT_MUTE;
    case SDLK_c: return SN_ACT_RACE;
    case SDLK_l: return SN_ACT_RACE_LOAD;
    case SDLK_SPACE: return SN_ACT_PLAY;
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS: return SN_ACT_FASTER;
    case SDLK_MINUS:
    case SDLK_KP_MINUS: return SN_ACT_SLOWER;
    case SDLK_HOME: return SN_ACT_HOME;
    case SDLK_END: return SN_ACT_END;
    case SDLK_r: return SN_ACT_RANDOM;
    case SDLK_v: return SN_ACT_REVERSE;
    case SDLK_0:
    case SDLK_KP_0: return SN_ACT_BITS;
    case SDLK_b: return SN_ACT_COUNTER;
    case SDLK_1: return SN_ACT_GEN1;
    case SDLK_2: return SN_ACT_GEN2;
    case SDLK_3: return SN_ACT_GEN3;
    case SDLK_4: return SN_ACT_GEN4;
    case SDLK_5: return SN_ACT_GEN5;
    case SDLK_6: return SN_ACT_GEN6;
    case SDLK_LEFTBRACKET: return SN_ACT_N_DOWN;
    case SDLK_RIGHTBRACKET: return SN_ACT_N_UP;
    case SDLK_o: return SN_ACT_RELOAD;
    case SDLK_s: return SN_ACT_SAVE_SVG;
    case SDLK_p: return SN_ACT_SAVE_PNG;
    case SDLK_g: return SN_ACT_GPU;
    case SDLK_h:
    case SDLK_F1:
    case SDLK_SLASH:
    case SDLK_QUESTION: return SN_ACT_HELP;
    case SDLK_F11: return SN_ACT_FULLSCREEN;
    case SDLK_t: return SN_ACT_THEME;
    case SDLK_w: return SN_ACT_STRUCTURE;
    case SDLK_z: return SN_ACT_ZERO_ONE;
    case SDLK_q: return SN_ACT_QUIT;
    case SDLK_ESCAPE: return SN_ACT_UNFOLLOW;
    default: return SN_ACT_NONE;
    }
}

/* ---- edit mode's mouse: press on a wire and release on another adds a
 * comparator (press wire gets the minimum, so an upward drag makes a
 * reversed one); press on a comparator selects it, dragging it moves it. */

static bool edit_hit(app *a, double x, double y, sn_frame_hit *h)
{
    return sn_frame_edit_hit(a->frame, main_view(a), a->dw, a->dh, a->scale, x * a->scale,
                             y * a->scale, h);
}

/* true when edit mode takes a press at window point (x, y). */
static bool edit_press(app *a, double x, double y)
{
    if (!main_view(a)->edit || !edit_hit(a, x, y, &a->press))
        return false;
    if (!a->press.wire_hit && a->press.layer < 0)
        return false; /* off the wires (margins, labels): a drag pans as ever */
    a->edit_down = true;
    return true;
}

static void edit_motion(app *a, double x, double y)
{
    sn_view *v = main_view(a);
    sn_frame_hit h;
    v->preview.on = false;
    if (!edit_hit(a, x, y, &h))
        return;
    if (a->press.layer >= 0 && v->hist_count) {
        size_t count = 0;
        const sn_comparator *c =
            sn_network_layer(v->hist[v->hist_pos], (size_t)a->press.layer, &count);
        if ((size_t)a->press.index < count) {
            v->preview =
                (sn_view_preview){true, true, c[a->press.index].a, c[a->press.index].b, h.x};
        }
    } else if (a->press.wire_hit && h.wire != a->press.wire) {
        v->preview = (sn_view_preview){true, false, a->press.wire, h.wire, a->press.x};
    }
}

static void edit_release(app *a, double x, double y, bool dragged)
{
    sn_view *v = main_view(a);
    a->edit_down = false;
    v->preview.on = false;
    sn_frame_hit h;
    bool in = edit_hit(a, x, y, &h);
    const sn_frame_hit *p = &a->press;
    if (p->layer >= 0) {
        if (!dragged || !in || !sn_view_edit_move(v, (size_t)p->layer, (size_t)p->index, h.col))
            sn_view_edit_select(v, p->layer, p->index);
    } else if (p->wire_hit && in && h.wire_hit && h.wire != p->wire) {
        sn_view_edit_add(v, p->wire, h.wire, (long)p->col);
    } else if (!dragged) {
        sn_view_edit_select(v, -1, -1);
    }
}

/* The view drawn at window point (x, y) (side by side: its row). */
static size_t view_at(app *a, double x, double y)
{
    double px = x * a->scale, py = y * a->scale;
    for (size_t i = 0; i < a->group.count; i++) {
        sn_box b;
        if (sn_frame_area(a->frames[i], &b) && px >= b.x && py >= b.y && px < b.x + b.w &&
            py < b.y + b.h)
            return i;
    }
    return 0;
}

/* Mouse positions arrive in window points; the frame works in pixels. */
static void click(app *a, double x, double y)
{
    uint32_t wire;
    size_t step, i = view_at(a, x, y);
    sn_view *v = &a->group.view[i];
    if (sn_frame_pick(a->frames[i], v, a->dw, a->dh, a->scale, x * a->scale, y * a->scale, &wire,
                      &step))
        sn_view_follow_wire(v, wire, step);
}

static void wheel(app *a, double x, double y, double notches)
{
    sn_panes p;
    size_t i = view_at(a, x, y);
    sn_frame_panes(a->frames[i], &a->group.view[i], a->dw, a->dh, a->scale, &p);
    double px = x * a->scale, py = y * a->scale;
    if (px < p.net.x || py < p.net.y || px > p.net.x + p.net.w || py > p.net.y + p.net.h)
        return;
    sn_view_zoom(&a->group.view[i], pow(1.2, notches), (px - p.fitted.x) / p.fitted.w,
                 (py - p.fitted.y) / p.fitted.h);
}

static void drag(app *a, double dx, double dy)
{
    sn_panes p;
    size_t i = view_at(a, a->down_x, a->down_y);
    sn_frame_panes(a->frames[i], &a->group.view[i], a->dw, a->dh, a->scale, &p);
    sn_view_pan(&a->group.view[i], dx * a->scale / p.fitted.w, dy * a->scale / p.fitted.h);
}

/* ---- lessons and actions */

static void install_hooks(app *a)
{
#ifdef SN_HAVE_APP_GPU
    for (size_t i = 0; i < a->group.count; i++)
        sn_app_gpu_install(&a->group.view[i]);
#else
    (void)a;
#endif
}

/* Open lesson step i (frames start afresh: the new views reuse ids). */
static bool lesson_go(app *a, size_t i)
{
    sn_diag d;
    sn_diag_clear(&d);
    if (sn_lesson_apply(a->lesson, i, &a->group, &d) != SN_OK) {
        sn_view_message(main_view(a), true, "%s", d.text);
        return false;
    }
    a->lesson_step = i;
    for (size_t k = 0; k < SN_GROUP_MAX; k++) {
        sn_frame_destroy(a->frames[k]);
        a->frames[k] = sn_frame_create();
    }
    a->frame = a->frames[0];
    install_hooks(a);
    for (size_t k = 0; k < a->group.count; k++)
        a->heard[k] = a->group.view[k].step;
    return true;
}

/* One action from a key or the script: in a lesson Right / Left (and a
 * clicker's PgDn / PgUp) move between its steps; Down / Up step layers. */
static bool act(app *a, sn_action act_)
{
    if (a->lesson) {
        if (act_ == SN_ACT_RIGHT || act_ == SN_ACT_PAGE_DOWN) {
            if (a->lesson_step + 1 < a->lesson->count)
                return lesson_go(a, a->lesson_step + 1) || true;
            sn_view_message(main_view(a), false, "the end of the lesson (Left goes back)");
            return true;
        }
        if (act_ == SN_ACT_LEFT || act_ == SN_ACT_PAGE_UP) {
            if (a->lesson_step > 0)
                return lesson_go(a, a->lesson_step - 1) || true;
            return false;
        }
    }
    return sn_group_action(&a->group, act_);
}

/* Tones for the layers each view has just stepped through. */
static void sound_steps(app *a)
{
    bool on = main_view(a)->sound;
    if (on && !a->sound_tried) {
        a->sound = sn_sound_open(); /* NULL without a device: silence */
        a->sound_tried = true;
    }
    for (size_t i = 0; i < a->group.count; i++) {
        sn_view *v = &a->group.view[i];
        size_t from = a->heard[i];
        a->heard[i] = v->step;
        if (!on || !a->sound || v->step != from + 1 || v->n == 0)
            continue;
        const uint32_t *vals = sn_trace_state(v->trace, from);
        const uint8_t *sw = sn_view_swaps(v, from);
        size_t count = sn_schedule_layer_size(v->sched, from);
        uint32_t *ranks = sn_calloc(v->n, sizeof *ranks);
        sn_comparator *c = sn_calloc(count ? count : 1, sizeof *c);
        if (vals && ranks && c && sn_draw_ranks(vals, v->n, v->type, ranks) == SN_OK) {
            sn_schedule_layer_pairs(v->sched, from, c, count);
            double den = v->n > 1 ? 2.0 * (v->n - 1) : 1.0;
            for (size_t k = 0; k < count; k++)
                sn_sound_tone(a->sound, (ranks[c[k].a] + ranks[c[k].b]) / den, sw && sw[k],
                              (double)k * 200.0 / (double)count);
        }
        sn_free(ranks);
        sn_free(c);
    }
}

/* Handle one SDL event; true when the view changed. */
static bool event(app *a, const SDL_Event *e)
{
    switch (e->type) {
    case SDL_QUIT: sn_view_action(main_view(a), SN_ACT_QUIT); return true; /* asks when unsaved */
    case SDL_KEYDOWN: return act(a, key_action(&e->key.keysym)) || true;
    case SDL_WINDOWEVENT: a->drawn_once = false; return true; /* exposed: push it all */
    case SDL_MOUSEBUTTONDOWN:
        if (e->button.button != SDL_BUTTON_LEFT)
            return false;
        if (e->button.clicks == 2) {
            sn_view_action(main_view(a), SN_ACT_FIT);
            a->down = false;
            return true;
        }
        a->down = true;
        a->dragging = false;
        a->down_x = a->last_x = e->button.x;
        a->down_y = a->last_y = e->button.y;
        edit_press(a, e->button.x, e->button.y);
        return false;
    case SDL_MOUSEMOTION:
        if (!a->down)
            return false;
        if (!a->dragging && fabs(e->motion.x - a->down_x) + fabs(e->motion.y - a->down_y) > 4)
            a->dragging = true;
        if (a->edit_down) {
            if (a->dragging)
                edit_motion(a, e->motion.x, e->motion.y);
            return a->dragging;
        }
        if (a->dragging) {
            drag(a, e->motion.x - a->last_x, e->motion.y - a->last_y);
            a->last_x = e->motion.x;
            a->last_y = e->motion.y;
            return true;
        }
        return false;
    case SDL_MOUSEBUTTONUP:
        if (e->button.button != SDL_BUTTON_LEFT || !a->down)
            return false;
        a->down = false;
        if (a->edit_down)
            edit_release(a, e->button.x, e->button.y, a->dragging);
        else if (!a->dragging)
            click(a, e->button.x, e->button.y);
        return true;
    case SDL_MOUSEWHEEL: {
        int mx, my;
        SDL_GetMouseState(&mx, &my);
        wheel(a, mx, my, e->wheel.y);
        return true;
    }
    default: return false;
    }
}

/* One script event; returns the virtual time it asks to wait. */
static double script_event(app *a, const sn_script_event *ev)
{
    sn_view *v = main_view(a);
    switch (ev->kind) {
    case SN_SCRIPT_ACTION: act(a, ev->act); return 0;
    case SN_SCRIPT_WAIT: return ev->ms;
    case SN_SCRIPT_CLICK:
        if (edit_press(a, ev->x, ev->y))
            edit_release(a, ev->x, ev->y, false);
        else
            click(a, ev->x, ev->y);
        return 0;
    case SN_SCRIPT_DCLICK: sn_view_action(v, SN_ACT_FIT); return 0;
    case SN_SCRIPT_WHEEL: wheel(a, ev->x, ev->y, ev->z); return 0;
    case SN_SCRIPT_DRAG:
        if (edit_press(a, ev->x, ev->y))
            edit_release(a, ev->x + ev->dx, ev->y + ev->dy, fabs(ev->dx) + fabs(ev->dy) > 4);
        else
            drag(a, ev->dx, ev->dy);
        return 0;
    case SN_SCRIPT_ADD: sn_view_edit_add(v, (uint32_t)ev->i, (uint32_t)ev->j, ev->k); return 0;
    case SN_SCRIPT_DEL: sn_view_edit_delete(v, (size_t)ev->i, (size_t)ev->j); return 0;
    case SN_SCRIPT_MOVE:
        sn_view_edit_move(v, (size_t)ev->i, (size_t)ev->j, (size_t)ev->k);
        return 0;
    case SN_SCRIPT_SELECT: sn_view_edit_select(v, ev->i, ev->j); return 0;
    case SN_SCRIPT_SAVE: sn_view_save(v, ev->path); return 0;
    case SN_SCRIPT_RACE:
        switch ((sn_script_race)ev->i) {
        case SN_SCRIPT_RACE_START: sn_view_race_start(v, false); break;
        case SN_SCRIPT_RACE_FROM: sn_view_race_start(v, true); break;
        case SN_SCRIPT_RACE_STOP: sn_view_race_stop(v); break;
        case SN_SCRIPT_RACE_WAIT: sn_view_race_wait(v); break;
        case SN_SCRIPT_RACE_LOAD: sn_view_race_load(v); break;
        }
        return 0;
    }
    return 0;
}

/* One script step, as script_event; an edit verb, edit key or save that
 * leaves an error message in any view (outside edit mode, a layer that
 * does not exist, a file that cannot be written) fails the scripted run:
 * exit 2 with the message, the rest of the script not run. */
static double script_step(app *a, const char *text, const sn_script_event *ev)
{
    /* the step may change the group (a lesson's step of 3 networks after
     * one of 1): only the views there before have a count to compare */
    unsigned long seq[SN_GROUP_MAX] = {0};
    size_t before = a->group.count;
    for (size_t i = 0; i < before; i++)
        seq[i] = a->group.view[i].message_seq;
    double ms = script_event(a, ev);
    for (size_t i = 0;
         sn_script_can_fail(ev) && i < a->group.count && i < before && !a->script_failed; i++) {
        const sn_view *v = &a->group.view[i];
        if (v->message_seq != seq[i] && v->message_error) {
            a->script_failed = true;
            int len = (int)(ev->len > 60 ? 60 : ev->len);
            const char *tok = text + ev->col - 1;
            /* an edit verb's message begins with the verb already */
            if (strncmp(v->message, tok, (size_t)len) == 0)
                a->rc = fail(2, "--script column %lu: %s", ev->col, v->message);
            else
                a->rc = fail(2, "--script column %lu, '%.*s': %s", ev->col, len, tok, v->message);
        }
    }
    return ms;
}

/* ---- state dump and statistics */

static int cmp_double(const void *x, const void *y)
{
    double p = *(const double *)x, q = *(const double *)y;
    return (p > q) - (p < q);
}

/* (a->ntimes > 0: the caller prints nothing without a frame) */
static void print_stats(app *a)
{
    size_t n = a->ntimes;
    double *wall = a->times, *cpu = a->times + a->cap_times;
    qsort(wall, n, sizeof *wall, cmp_double);
    qsort(cpu, n, sizeof *cpu, cmp_double);
#define PCT(t, q) t[(size_t)((q) * (double)(n - 1) + 0.5)]
    printf("frames: %zu at %dx%d px (%s, %s)\n", n, a->dw, a->dh,
           a->use_wsurf ? "window surface" : "renderer texture", a->vsync ? "vsync" : "unpaced");
    printf("frame ms: p50 %.2f  p90 %.2f  p99 %.2f  max %.2f\n", PCT(wall, 0.5), PCT(wall, 0.9),
           PCT(wall, 0.99), wall[n - 1]);
    printf("frame cpu ms: p50 %.2f  p90 %.2f  p99 %.2f  max %.2f\n", PCT(cpu, 0.5), PCT(cpu, 0.9),
           PCT(cpu, 0.99), cpu[n - 1]);
    printf("start to first frame: %.1f ms\n", a->first_frame_s * 1000);
#undef PCT
}

/* Edit mode's part of --dump-state: the verdict and the network itself,
 * one bracket layer after another on one line. */
static bool dump_edit(FILE *f, const sn_view *v)
{
    char buf[256];
    fprintf(f, "edit: %s\nunsaved: %s\n", v->edit ? "on" : "off",
            sn_view_unsaved(v) ? "yes" : "no");
    fprintf(f, "size: %zu\nbest_known: %zu\n", v->cmp_before[v->layers],
            sn_library_best_size(v->n));
    sn_view_verdict_text(v, buf, sizeof buf);
    fprintf(f, "verdict: %s\n", buf[0] ? buf : "-");
    fprintf(f, "counterexample: %s\n",
            v->edit && v->verdict == SN_VERDICT_FAILS && v->verdict_net == v->net_id ? v->cex
                                                                                     : "-");
    fprintf(f, "redundant: ");
    size_t shown = 0;
    for (size_t i = 0; v->edit && v->verdict_net == v->net_id && i < v->redundant_count; i++)
        fprintf(f, "%s%zu", shown++ ? "," : "", v->redundant[i]);
    fprintf(f, "%s\nselected: ", shown ? "" : "-");
    if (v->sel_layer >= 0)
        fprintf(f, "%ld,%ld\n", v->sel_layer, v->sel_index);
    else
        fprintf(f, "-\n");
    const sn_race_snap *r = &v->race_snap;
    char ahead[96];
    const char *who = sn_view_race_ahead(v, ahead, sizeof ahead);
    fprintf(f, "race: %s\n", sn_race_state_name(r->state));
    if (r->have_best)
        fprintf(f, "race_best: %zu comparators, %zu layers\n", r->size, r->depth);
    else
        fprintf(f, "race_best: -\n");
    fprintf(f, "race_ahead: %s\n", who[0] ? who : "-");
    fprintf(f, "net:");
    if (v->cmp_before[v->layers] > DUMP_MAX_CMP) {
        fprintf(f, " (%zu comparators: too many to list)\n", v->cmp_before[v->layers]);
        return true;
    }
    sn_comparator *c = NULL;
    size_t cap = 0;
    for (size_t k = 0; k < v->layers; k++) {
        size_t count = sn_schedule_layer_size(v->sched, k);
        if (count > cap) {
            sn_free(c);
            c = sn_calloc(count, sizeof *c);
            if (!c)
                return false; /* out of memory: no state that lacks the network */
            cap = count;
        }
        sn_schedule_layer_pairs(v->sched, k, c, count);
        fprintf(f, " [");
        for (size_t i = 0; i < count; i++)
            fprintf(f, "%s(%u,%u)", i ? "," : "", c[i].a, c[i].b);
        fprintf(f, "]");
    }
    sn_free(c);
    fprintf(f, "\n");
    return true;
}

/* 0, or why the state could not be written (an errno; ENOMEM: out of
 * memory). */
static int dump_state(app *a, const char *path)
{
    /* like every output: a temporary beside it, renamed when complete */
    char tmp[4200];
    bool direct = in_place(path);
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(direct ? path : tmp, "w");
    if (!f)
        return errno ? errno : EIO;
    const sn_view *v = main_view(a);
    char buf[128];
    fprintf(f, "network: %s\nn: %u\nlayers: %zu\nstep: %zu\n", v->name, v->n, v->layers, v->step);
    fprintf(f, "comparisons: %zu\nswaps: %zu\ninput: %s\n", v->cmp_before[v->step],
            v->swap_before[v->step], sn_view_input_text(v, buf, sizeof buf));
    const uint32_t *vals = sn_view_values(v);
    fprintf(f, "values: ");
    for (uint32_t i = 0; i < v->n; i++) {
        sn_key_format(v->type, vals[i], buf, sizeof buf);
        fprintf(f, "%s%s", i ? "," : "", buf);
    }
    fprintf(f, "\nfollow: %ld\nzoom: %g\npan: %.3g,%.3g\nplaying: %d\nhelp: %d\ntheme: %s\n",
            v->follow, v->zoom, v->pan_x, v->pan_y, v->playing || a->group.playing, v->help,
            sn_theme_get(v->theme)->name);
    fprintf(f, "message: %s%s\n", v->message_error ? "error: " : "", v->message);
    fprintf(f, "result: %s\n",
            v->step < v->layers              ? "-"
            : sn_view_output_sorted(v, NULL) ? "sorted"
                                             : "NOT sorted");
    fprintf(f, "font_scale: %g\nsound: %s\n", v->font_scale, v->sound ? "on" : "off");
    size_t queued, dropped;
    sn_sound_counts(a->sound, &queued, &dropped);
    fprintf(f, "sound_device: %s\ntones: %zu queued, %zu dropped\n",
            a->sound         ? "open"
            : a->sound_tried ? "none"
                             : "-",
            queued, dropped);
    if (a->headless)
        fprintf(f, "window: none\n");
    else
        fprintf(f, "window: %dx%d px%s\n", a->dw, a->dh, a->fullscreen ? ", full screen" : "");
    fprintf(f, "networks: %zu\n", a->group.count);
    /* the others side by side: network, step, result and values on one line */
    for (size_t i = 1; i < a->group.count; i++) {
        const sn_view *w = &a->group.view[i];
        fprintf(f, "view%zu: %s step %zu of %zu, %zu swaps, %s, values ", i + 1, w->name, w->step,
                w->layers, w->swap_before[w->step],
                w->step < w->layers              ? "-"
                : sn_view_output_sorted(w, NULL) ? "sorted"
                                                 : "NOT sorted");
        const uint32_t *wv = sn_view_values(w);
        for (uint32_t k = 0; k < w->n; k++) {
            sn_key_format(w->type, wv[k], buf, sizeof buf);
            fprintf(f, "%s%s", k ? "," : "", buf);
        }
        fprintf(f, "\n");
    }
    if (a->lesson)
        fprintf(f, "lesson_step: %zu of %zu\nlesson_title: %s\n", a->lesson_step + 1,
                a->lesson->count, a->lesson->steps[a->lesson_step].title);
    int e = dump_edit(f, v) ? 0 : ENOMEM;
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

/* ---- the loop */

/* "sortnet - NAME", with a "*" while there are unsaved edits. */
static void update_title(app *a)
{
    char title[sizeof a->title];
    snprintf(title, sizeof title, "sortnet - %s%s", main_view(a)->name,
             sn_view_unsaved(main_view(a)) ? "*" : "");
    if (strcmp(title, a->title) != 0) {
        memcpy(a->title, title, sizeof title);
        SDL_SetWindowTitle(a->win, title);
    }
}

static bool display_available(void)
{
    const char *drv = getenv("SDL_VIDEODRIVER");
    if (drv && *drv)
        return true;
    const char *d = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");
    return (d && *d) || (w && *w);
}

static int open_window(app *a)
{
    const sn_app_options *o = a->opt;
    if (!display_available())
        return fail(3,
                    "no display (DISPLAY and WAYLAND_DISPLAY are unset): for a picture "
                    "without a window use `sortnet draw %s -o FILE.png`, or run the window "
                    "headless with SDL_VIDEODRIVER=offscreen%s",
                    main_view(a)->name,
                    o->script ? " (a --script that shows nothing, without --screenshot, "
                                "--record or mouse events, needs no display)"
                              : "");
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) != 0)
        return fail(3,
                    "cannot open a display (%s): for a picture without a window use "
                    "`sortnet draw %s -o FILE.png`",
                    SDL_GetError(), main_view(a)->name);
    const char *drv = SDL_GetCurrentVideoDriver();
    a->offscreen = drv && (strcmp(drv, "offscreen") == 0 || strcmp(drv, "dummy") == 0);
    if (a->offscreen) {
        /* Headless, nobody sees the frames: plain memory beats a GL
         * renderer emulated on the CPU (llvmpipe) by a wide margin. */
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
        SDL_SetHint(SDL_HINT_RENDER_DRIVER, "software");
    }
    int w = o->width > 0 ? o->width : 1280, h = o->height > 0 ? o->height : 800;
    char title[200];
    snprintf(title, sizeof title, "sortnet - %s", main_view(a)->name);
    a->win = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h,
                              SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!a->win)
        return fail(3, "cannot create a window: %s", SDL_GetError());
    SDL_SetWindowMinimumSize(a->win, 480, 320);
    /* the window's own surface when cairo can draw into it; SORTNET_RENDERER=
     * texture forces the renderer path (a GPU-composited texture, vsync) */
    const char *how = getenv("SORTNET_RENDERER");
    bool texture = how && strcmp(how, "texture") == 0;
    /* SDL would otherwise put the window surface through a GL texture of
     * its own, the very upload this path avoids */
    if (!texture)
        SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
    a->use_wsurf = !texture && window_surface(a);
    if (a->use_wsurf)
        return 0;
    if (a->surf) {
        cairo_surface_destroy(a->surf);
        a->surf = NULL;
    }
    bool scripted = o->script || o->screenshot;
    Uint32 flags = (scripted || o->stats) ? 0 : SDL_RENDERER_PRESENTVSYNC;
    if (a->offscreen)
        flags = SDL_RENDERER_SOFTWARE;
    a->ren = SDL_CreateRenderer(a->win, -1, flags);
    if (!a->ren)
        a->ren = SDL_CreateRenderer(a->win, -1, SDL_RENDERER_SOFTWARE);
    if (!a->ren)
        return fail(3, "cannot create a renderer: %s", SDL_GetError());
    SDL_RendererInfo info;
    a->vsync = (flags & SDL_RENDERER_PRESENTVSYNC) && SDL_GetRendererInfo(a->ren, &info) == 0 &&
               (info.flags & SDL_RENDERER_PRESENTVSYNC) != 0;
    if (!resize(a))
        return fail(3, "cannot create a %dx%d frame", a->dw, a->dh);
    return 0;
}

/* A scripted run shows nothing when it writes no picture (no --screenshot,
 * --record, --stats, --stay or sound) and its script has no pointer
 * events and no keys that save the window's picture or resize it: then,
 * with no display, it runs on the platform-free view code alone, with no
 * window (edit verbs, save:, --dump-state). A script that does not parse
 * counts too: the loop reports it (exit 2), not the missing display. */
static bool shows_nothing(const sn_app_options *o)
{
    if (!o->script || o->screenshot || o->record || o->stats || o->stay || o->sound)
        return false;
    sn_script_event *ev = NULL;
    size_t count = 0;
    sn_diag d;
    if (sn_script_parse(o->script, &ev, &count, &d) != SN_OK)
        return true;
    bool nothing = true;
    for (size_t i = 0; i < count && nothing; i++) {
        switch (ev[i].kind) {
        case SN_SCRIPT_CLICK:
        case SN_SCRIPT_DCLICK:
        case SN_SCRIPT_WHEEL:
        case SN_SCRIPT_DRAG: nothing = false; break;
        case SN_SCRIPT_ACTION:
            nothing = ev[i].act != SN_ACT_SAVE_PNG && ev[i].act != SN_ACT_SAVE_SVG &&
                      ev[i].act != SN_ACT_FULLSCREEN && ev[i].act != SN_ACT_MUTE;
            break;
        default: break;
        }
    }
    sn_free(ev);
    return nothing;
}

/* The script has ended: the final screenshot, then exit or (--stay)
 * carry on as a live window. true when the loop should end. */
static bool script_done(app *a)
{
    const sn_app_options *o = a->opt;
    if (o->screenshot) {
        for (size_t i = 0; i < a->group.count; i++)
            a->group.view[i].anim_ms = 0;
        draw(a);
        char why[256];
        if (!write_png(a, o->screenshot, why, sizeof why) && a->rc == 0)
            a->rc = fail(2, "%s: cannot write the screenshot: %s", o->screenshot, why);
    }
    if (!o->stay)
        return true;
    a->scripted = false;
    sn_view_message(main_view(a), false, "the script has ended: the keys are yours (H: help)");
    return false;
}

static int loop(app *a)
{
    const sn_app_options *o = a->opt;
    sn_script_event *script = NULL;
    size_t nscript = 0, next = 0;
    if (o->script) {
        sn_diag d;
        sn_diag_clear(&d);
        sn_status st = sn_script_parse(o->script, &script, &nscript, &d);
        if (st != SN_OK)
            return fail(st == SN_ENOMEM ? 5 : 2, "--script: %s", d.text);
    }
    a->scripted = o->script || o->screenshot;
    double wait_ms = 0, settle_ms = 0;
    double last = sn_app_now();
    bool dirty = true;
    while (!(main_view(a)->requests & SN_REQ_QUIT)) {
        SDL_Event e;
        bool idle = !a->scripted && !dirty && !sn_group_busy(&a->group);
        if (!a->headless && idle && SDL_WaitEventTimeout(&e, 500))
            dirty |= event(a, &e);
        while (!a->headless && SDL_PollEvent(&e))
            dirty |= event(a, &e);
        double now = sn_app_now();
        double dt = a->scripted ? FRAME_MS : (now - last) * 1000;
        last = now;
        if (dt > 250)
            dt = 250; /* after a stall, do not jump through many layers */
        a->vtime_ms += dt;
        if (a->scripted) {
            if (wait_ms > 0) {
                wait_ms -= dt;
            } else if (next < nscript) {
                /* one script event per frame, so a recording shows each */
                wait_ms = script_step(a, o->script, &script[next++]);
                if (a->script_failed)
                    break;
                /* the verdict of an edit is part of the step's frame, so the
                 * same script always gives the same pictures */
                sn_group_settle(&a->group);
                dirty = true;
            }
        }
        dirty |= sn_group_tick(&a->group, dt);
        sound_steps(a);
        if (main_view(a)->requests & ~(unsigned)SN_REQ_QUIT) {
            do_requests(a);
            dirty = true;
        }
        if (dirty && !a->headless) {
            update_title(a);
            draw(a);
        }
        dirty = false;
        if (a->scripted && next >= nscript && wait_ms <= 0) {
            settle_ms += dt;
            if ((!sn_group_busy(&a->group) || settle_ms > SETTLE_MAX_MS) && script_done(a))
                break;
        }
        if (!a->vsync && !(a->scripted && (a->offscreen || a->headless))) {
            double spent = (sn_app_now() - now) * 1000;
            if (spent < FRAME_MS)
                SDL_Delay((Uint32)(FRAME_MS - spent));
        }
    }
    sn_free(script);
    return a->rc;
}

/* The networks of the command line, or the lesson's first step. */
static int start_views(app *a)
{
    const sn_app_options *o = a->opt;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st;
    if (o->lesson) {
        st = sn_lesson_load(o->lesson, &a->lesson, &d);
        if (st == SN_OK)
            st = sn_lesson_check(a->lesson, &d);
        if (st == SN_OK)
            st = sn_lesson_apply(a->lesson, 0, &a->group, &d);
    } else {
        const char *specs[SN_GROUP_MAX] = {o->net ? o->net : "bitonic:16", NULL, NULL};
        size_t count = 1;
        for (size_t i = 0; i < 2 && o->more[i]; i++)
            specs[count++] = o->more[i];
        st = sn_group_init(&a->group, specs, count, &o->input, &d);
    }
    if (st != SN_OK) {
        fprintf(stderr, "sortnet: %s%s\n", o->lesson && !strchr(d.text, ':') ? "--lesson: " : "",
                d.text[0] ? d.text : sn_status_str(st));
        return st == SN_ENOMEM ? 5 : 2; /* as every command: out of memory is exit 5 */
    }
    for (size_t i = 0; i < a->group.count; i++) {
        sn_view *v = &a->group.view[i];
        v->theme = o->theme;
        v->font_scale = o->font_scale > 0 ? o->font_scale : 1.0;
        v->sound = o->sound;
    }
    install_hooks(a);
    return 0;
}

/* --record: the colours a GIF must keep exactly (every rank colour of
 * this n, the theme's), then the recorder for the window's size. */
static int start_record(app *a)
{
    const sn_app_options *o = a->opt;
    if (!o->record)
        return 0;
    sn_rgb keep[160];
    size_t nk = 0;
    uint32_t n = main_view(a)->n;
    for (uint32_t i = 0; i < n && nk < 128; i++)
        keep[nk++] = sn_palette_rank(n > 1 ? (double)i / (n - 1) : 0);
    const sn_theme *th = sn_theme_get(main_view(a)->theme);
    sn_rgb fixed[] = {th->background, th->band, th->stage,         th->wire,
                      th->comparator, th->text, th->swap,          th->noswap,
                      th->highlight,  th->step, {0.75, 0.1, 0.05}, {0.1, 0.5, 0.15},
                      {0, 0, 0},      {1, 1, 1}};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        keep[nk++] = fixed[i];
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_record_open(o->record, a->dw, a->dh, keep, nk, &a->rec, &d);
    if (st != SN_OK)
        return fail(st == SN_EUNSUPPORTED ? 3 : st == SN_ENOMEM ? 5 : 2, "--record: %s", d.text);
    return 0;
}

static void stop_record(app *a, int *rc)
{
    if (!a->rec)
        return;
    if (*rc != 0) {
        sn_record_abort(a->rec);
        a->rec = NULL;
        return;
    }
    sn_diag d;
    sn_diag_clear(&d);
    size_t frames = 0;
    if (sn_record_close(a->rec, a->vtime_ms, &frames, &d) != SN_OK)
        *rc = fail(2, "--record: %s", d.text);
    else if (a->opt->stats)
        printf("recorded: %zu frames, %.2f s\n", frames, a->vtime_ms / 1000);
    a->rec = NULL;
}

static void finish(app *a)
{
    if (a->tex)
        SDL_DestroyTexture(a->tex);
    if (a->surf)
        cairo_surface_destroy(a->surf);
    if (a->ren)
        SDL_DestroyRenderer(a->ren);
    sn_sound_close(a->sound);
    if (a->win)
        SDL_DestroyWindow(a->win);
    if (SDL_WasInit(0))
        SDL_Quit();
    for (size_t i = 0; i < SN_GROUP_MAX; i++)
        sn_frame_destroy(a->frames[i]);
    sn_free(a->times);
#ifdef SN_HAVE_APP_GPU
    sn_app_gpu_release();
#endif
    sn_group_cleanup(&a->group);
    sn_lesson_free(a->lesson);
}

int sn_app_run(const sn_app_options *o)
{
    app a;
    memset(&a, 0, sizeof a);
    a.opt = o;
    int rc = start_views(&a);
    if (rc != 0) {
        finish(&a);
        return rc;
    }
    for (size_t i = 0; i < SN_GROUP_MAX; i++)
        if (!(a.frames[i] = sn_frame_create()))
            rc = fail(5, "out of memory");
    a.frame = a.frames[0];
    a.headless = rc == 0 && !display_available() && shows_nothing(o);
    if (rc == 0 && !a.headless)
        rc = open_window(&a);
    if (rc == 0)
        rc = start_record(&a);
    if (rc == 0)
        rc = loop(&a);
    stop_record(&a, &rc);
    /* the state of a failed script too: it shows where it stopped */
    int e = (rc == 0 || a.script_failed) && o->dump_state ? dump_state(&a, o->dump_state) : 0;
    if (e && rc == 0)
        rc = fail(e == ENOMEM ? 5 : 2, "--dump-state %s: %s", o->dump_state,
                  e == ENOMEM ? "out of memory" : strerror(e));
    /* a script that edits must say what becomes of the edits */
    if (rc == 0 && (o->script || o->screenshot) && sn_view_unsaved(main_view(&a)) && !o->discard)
        rc = fail(2,
                  "%s: the script leaves unsaved edits; end it with save:FILE (or Ctrl+S: "
                  "ctrl+s), or pass --discard to drop them",
                  main_view(&a)->name);
    if (o->stats && a.ntimes)
        print_stats(&a);
    finish(&a);
    return rc;
}
