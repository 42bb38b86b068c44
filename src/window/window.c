/* window.c - the window (window.h): SDL2 maps the keyboard, the mouse and
 * the clock to the session, and shows the frames the run (headless/run.h)
 * paints with cairo straight into the window's surface, pushing only the
 * rectangles that changed (a streaming texture where the surface is not
 * 32-bit xRGB). The loop sleeps in SDL_WaitEventTimeout when nothing
 * moves. Everything else (the script, screenshots, recordings, the state
 * dump) is the run's, the same as with no window. */
#include "window/window.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>
#include <cairo.h>

#include "core/alloc.h"
#include "headless/frame.h" /* for: SN_FRAME_DIRTY_MAX */
#include "render/draw.h" /* for: sn_draw_ranks (the pitch of a tone) */
#include "window/sound.h"

#define FRAME_MS (1000.0 / 60.0)

typedef struct window {
    sn_runner *run;
    sn_sound *sound;            /* opened when sound is first turned on */
    bool sound_tried;           /* ... once: no device means silence */
    size_t heard[SN_GROUP_MAX]; /* step of each view when tones were last queued */
    unsigned long heard_shown;  /* the session's views those steps belong to */
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
    char title[200]; /* the window title shown */
} window;

static sn_session *session(window *a)
{
    return &a->run->session;
}

static sn_view *main_view(window *a)
{
    return sn_session_main(session(a));
}

/* ---- surfaces */

static bool window_surface(window *a)
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

static bool resize(window *a)
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

/* ---- the run's host */

static bool prepare(void *ctx, sn_runner *r)
{
    window *a = ctx;
    if (!resize(a))
        return false;
    sn_runner_use_surface(r, a->surf, a->dw, a->dh, a->scale);
    return true;
}

static bool partial(void *ctx, sn_runner *r)
{
    (void)r;
    window *a = ctx;
    /* the texture path uploads everything anyway; a fresh surface needs all */
    return a->use_wsurf && a->drawn_once;
}

static void present(void *ctx, sn_runner *r, const sn_box *dirty, size_t nd)
{
    (void)r;
    window *a = ctx;
    a->drawn_once = true;
    if (a->use_wsurf) {
        SDL_Rect rect[SN_FRAME_DIRTY_MAX];
        for (size_t i = 0; i < nd; i++) {
            int x0 = (int)fmax(0, floor(dirty[i].x)), y0 = (int)fmax(0, floor(dirty[i].y));
            int x1 = (int)fmin(a->dw, ceil(dirty[i].x + dirty[i].w));
            int y1 = (int)fmin(a->dh, ceil(dirty[i].y + dirty[i].h));
            rect[i] = (SDL_Rect){x0, y0, x1 > x0 ? x1 - x0 : 0, y1 > y0 ? y1 - y0 : 0};
        }
        if (nd)
            SDL_UpdateWindowSurfaceRects(a->win, rect, (int)nd);
        else
            SDL_UpdateWindowSurface(a->win);
        return;
    }
    SDL_UpdateTexture(a->tex, NULL, cairo_image_surface_get_data(a->surf),
                      cairo_image_surface_get_stride(a->surf));
    SDL_RenderClear(a->ren);
    SDL_RenderCopy(a->ren, a->tex, NULL, NULL);
    SDL_RenderPresent(a->ren);
}

static void requests(void *ctx, sn_runner *r, unsigned req)
{
    (void)r;
    window *a = ctx;
    if (req & SN_REQ_FULLSCREEN) {
        a->fullscreen = !a->fullscreen;
        SDL_SetWindowFullscreen(a->win, a->fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
        resize(a);
    }
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

/* Handle one SDL event; true when the view changed. Mouse positions
 * arrive in window points; the session works in pixels. */
static bool event(window *a, const SDL_Event *e)
{
    sn_session *s = session(a);
    double k = a->scale;
    switch (e->type) {
    case SDL_QUIT: sn_view_action(main_view(a), SN_ACT_QUIT); return true; /* asks when unsaved */
    case SDL_KEYDOWN: {
        /* a lesson's exercise: Enter opens the answer line, whose typing
         * arrives as SDL_TEXTINPUT (session/exercise.h) */
        SDL_Keycode sym = e->key.keysym.sym;
        sn_answer_key ak = sym == SDLK_RETURN || sym == SDLK_KP_ENTER ? SN_ANSWER_ENTER
                           : sym == SDLK_BACKSPACE                    ? SN_ANSWER_BACK
                           : sym == SDLK_ESCAPE                       ? SN_ANSWER_CANCEL
                                                                      : SN_ANSWER_TEXT;
        if (ak != SN_ANSWER_TEXT && sn_session_answer_line(s, ak, NULL))
            return true;
        if (s->exercise.typing)
            return false; /* a letter of the answer, not a key */
        return sn_session_action(s, key_action(&e->key.keysym)) || true;
    }
    case SDL_TEXTINPUT: return sn_session_answer_line(s, SN_ANSWER_TEXT, e->text.text);
    case SDL_WINDOWEVENT: a->drawn_once = false; return true; /* exposed: push it all */
    case SDL_MOUSEBUTTONDOWN:
        if (e->button.button != SDL_BUTTON_LEFT)
            return false;
        return sn_session_pointer(s, e->button.clicks == 2 ? SN_POINTER_DOUBLE : SN_POINTER_PRESS,
                                  e->button.x * k, e->button.y * k);
    case SDL_MOUSEMOTION:
        return sn_session_pointer(s, SN_POINTER_MOVE, e->motion.x * k, e->motion.y * k);
    case SDL_MOUSEBUTTONUP:
        if (e->button.button != SDL_BUTTON_LEFT)
            return false;
        return sn_session_pointer(s, SN_POINTER_RELEASE, e->button.x * k, e->button.y * k);
    case SDL_MOUSEWHEEL: {
        int mx, my;
        SDL_GetMouseState(&mx, &my);
        sn_session_wheel(s, mx * k, my * k, e->wheel.y);
        return true;
    }
    default: return false;
    }
}

/* "sortnet - NAME", with a "*" while there are unsaved edits. */
static void update_title(window *a)
{
    char title[sizeof a->title];
    snprintf(title, sizeof title, "sortnet - %s%s", main_view(a)->name,
             sn_view_unsaved(main_view(a)) ? "*" : "");
    if (strcmp(title, a->title) != 0) {
        memcpy(a->title, title, sizeof title);
        SDL_SetWindowTitle(a->win, title);
    }
}

static bool events(void *ctx, sn_runner *r, bool idle)
{
    (void)r;
    window *a = ctx;
    bool dirty = false;
    SDL_Event e;
    if (idle && SDL_WaitEventTimeout(&e, 500))
        dirty |= event(a, &e);
    while (SDL_PollEvent(&e))
        dirty |= event(a, &e);
    update_title(a);
    return dirty;
}

/* Tones for the layers each view has just stepped through. */
static void stepped(void *ctx, sn_runner *r)
{
    (void)r;
    window *a = ctx;
    sn_session *s = session(a);
    if (a->heard_shown != s->shown) { /* new views: nothing heard of them yet */
        a->heard_shown = s->shown;
        for (size_t i = 0; i < s->group.count; i++)
            a->heard[i] = s->group.view[i].step;
    }
    bool on = main_view(a)->sound;
    if (on && !a->sound_tried) {
        a->sound = sn_sound_open(); /* NULL without a device: silence */
        a->sound_tried = true;
    }
    for (size_t i = 0; i < s->group.count; i++) {
        sn_view *v = &s->group.view[i];
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

static void pace(void *ctx, sn_runner *r, double spent_ms)
{
    window *a = ctx;
    if (!a->vsync && !(r->scripted && a->offscreen) && spent_ms < FRAME_MS)
        SDL_Delay((Uint32)(FRAME_MS - spent_ms));
}

/* ---- the window */

static bool display_available(void)
{
    const char *drv = getenv("SDL_VIDEODRIVER");
    if (drv && *drv)
        return true;
    const char *d = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");
    return (d && *d) || (w && *w);
}

static int open_window(window *a)
{
    const sn_run_options *o = a->run->opt;
    if (!display_available())
        return sn_run_fail(3,
                    "no display (DISPLAY and WAYLAND_DISPLAY are unset): for a picture "
                    "without a window use `sortnet draw %s -o FILE.png`, or give a --script "
                    "or --screenshot (without --stay or --sound), which runs headless",
                    main_view(a)->name);
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) != 0)
        return sn_run_fail(3,
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
    int w = o->width > 0 ? o->width : SN_RUN_WIDTH, h = o->height > 0 ? o->height : SN_RUN_HEIGHT;
    char title[200];
    snprintf(title, sizeof title, "sortnet - %s", main_view(a)->name);
    a->win = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h,
                              SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!a->win)
        return sn_run_fail(3, "cannot create a window: %s", SDL_GetError());
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
        return sn_run_fail(3, "cannot create a renderer: %s", SDL_GetError());
    SDL_RendererInfo info;
    a->vsync = (flags & SDL_RENDERER_PRESENTVSYNC) && SDL_GetRendererInfo(a->ren, &info) == 0 &&
               (info.flags & SDL_RENDERER_PRESENTVSYNC) != 0;
    if (!resize(a))
        return sn_run_fail(3, "cannot create a %dx%d frame", a->dw, a->dh);
    return 0;
}

int sn_window_run(const sn_run_options *o)
{
    /* no display, and nothing a person must see: the same run headless */
    if (!display_available() && !sn_run_needs_window(o))
        return sn_headless_run(o);
    sn_runner r;
    window a;
    memset(&a, 0, sizeof a);
    a.run = &r;
    int rc = sn_runner_start(&r, o);
    a.heard_shown = r.session.shown; /* the first views: every step still to hear */
    if (rc == 0)
        rc = open_window(&a);
    if (rc == 0) {
        snprintf(r.how, sizeof r.how, "%s, %s", a.use_wsurf ? "window surface" : "renderer texture",
                 a.vsync ? "vsync" : "unpaced");
        sn_runner_use_surface(&r, a.surf, a.dw, a.dh, a.scale);
        sn_run_host host = {&a, events, prepare, present, partial, requests, stepped, pace};
        rc = sn_runner_loop(&r, &host);
    }
    char lines[256];
    size_t queued, dropped;
    sn_sound_counts(a.sound, &queued, &dropped);
    int len = snprintf(lines, sizeof lines, "sound_device: %s\ntones: %zu queued, %zu dropped\n",
                       a.sound ? "open" : a.sound_tried ? "none" : "-", queued, dropped);
    snprintf(lines + len, sizeof lines - (size_t)len, "window: %dx%d px%s\n", a.dw, a.dh,
             a.fullscreen ? ", full screen" : "");
    rc = sn_runner_finish(&r, rc, lines);
    if (a.tex)
        SDL_DestroyTexture(a.tex);
    if (a.surf)
        cairo_surface_destroy(a.surf);
    if (a.ren)
        SDL_DestroyRenderer(a.ren);
    sn_sound_close(a.sound);
    if (a.win)
        SDL_DestroyWindow(a.win);
    if (SDL_WasInit(0))
        SDL_Quit();
    return rc;
}
