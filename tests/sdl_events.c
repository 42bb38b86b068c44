/* sdl_events.c - a test shim that tests/cli_view_events.sh preloads into
 * `sortnet view` (LD_PRELOAD): SDL_PollEvent hands out the events written
 * in SN_TEST_EVENTS, one per call between SDL's own, so the window's SDL
 * event handler (keys with modifiers, mouse buttons, drags, the wheel,
 * window and quit events) runs under the offscreen driver, where no input
 * ever arrives. Tokens, separated by blanks:
 *   key:NAME[+ctrl][+shift]   SDL_KEYDOWN of SDL_GetKeyFromName(NAME)
 *   text:STRING               SDL_TEXTINPUT of STRING (what typing gives)
 *   down:X,Y up:X,Y           left button pressed, released at (X, Y)
 *   move:X,Y                  the mouse moved to (X, Y)
 *   rdown:X,Y                 the right button pressed (ignored by the window)
 *   dclick:X,Y                a double click
 *   wheel:N                   N notches at the last mouse position
 *   window quit               a window event, SDL_QUIT
 *   size:W,H                  the window resized to W x H (SDL_SetWindowSize,
 *                             then SDL_WINDOWEVENT_SIZE_CHANGED)
 *   skip:N                    no event for N frames
 * An unknown token ends the events (and is printed to stderr). */
#define _GNU_SOURCE
#include <SDL.h>
#include <dlfcn.h> // for: dlsym(RTLD_NEXT) (the real SDL_PollEvent)
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int SDL_PollEvent(SDL_Event *e);
Uint32 SDL_GetMouseState(int *x, int *y);
int SDL_WaitEventTimeout(SDL_Event *e, int timeout);
SDL_Window *SDL_CreateWindow(const char *title, int x, int y, int w, int h, Uint32 flags);

static const char *cursor;
static SDL_Window *window; /* the last one created */
static bool started, gave;
static int mouse_x, mouse_y;
static int skip; /* frames left without an event */

static void button(SDL_Event *e, Uint32 type, Uint8 which, Uint8 clicks, int x, int y)
{
    e->type = type;
    e->button.button = which;
    e->button.clicks = clicks;
    e->button.x = mouse_x = x;
    e->button.y = mouse_y = y;
}

/* The next token as an event; false at the end. */
static bool next_event(SDL_Event *e)
{
    if (!started) {
        started = true;
        cursor = getenv("SN_TEST_EVENTS");
    }
    if (!cursor)
        return false;
    if (skip > 0) {
        skip--;
        return false;
    }
    cursor += strspn(cursor, " ");
    size_t len = strcspn(cursor, " ");
    if (len == 0 || len >= 64)
        return false;
    char tok[64];
    memcpy(tok, cursor, len);
    tok[len] = '\0';
    cursor += len;
    memset(e, 0, sizeof *e);
    int x = 0, y = 0, n = 0;
    if (strncmp(tok, "key:", 4) == 0) {
        char *mods = strchr(tok + 4, '+');
        if (mods == tok + 4) /* the key named "+" */
            mods = strchr(tok + 5, '+');
        Uint16 mod = 0;
        if (mods) {
            mod |= strstr(mods, "+ctrl") ? KMOD_LCTRL : 0;
            mod |= strstr(mods, "+shift") ? KMOD_LSHIFT : 0;
            *mods = '\0';
        }
        e->type = SDL_KEYDOWN;
        e->key.keysym.sym = SDL_GetKeyFromName(tok + 4);
        e->key.keysym.mod = mod;
        if (e->key.keysym.sym != SDLK_UNKNOWN)
            return true;
    } else if (strncmp(tok, "text:", 5) == 0 && tok[5]) {
        e->type = SDL_TEXTINPUT;
        size_t tl = strlen(tok + 5) < sizeof e->text.text - 1 ? strlen(tok + 5) : sizeof e->text.text - 1;
        memcpy(e->text.text, tok + 5, tl);
        e->text.text[tl] = '\0';
        return true;
    } else if (sscanf(tok, "down:%d,%d", &x, &y) == 2) {
        button(e, SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, 1, x, y);
        return true;
    } else if (sscanf(tok, "up:%d,%d", &x, &y) == 2) {
        button(e, SDL_MOUSEBUTTONUP, SDL_BUTTON_LEFT, 1, x, y);
        return true;
    } else if (sscanf(tok, "rdown:%d,%d", &x, &y) == 2) {
        button(e, SDL_MOUSEBUTTONDOWN, SDL_BUTTON_RIGHT, 1, x, y);
        return true;
    } else if (sscanf(tok, "dclick:%d,%d", &x, &y) == 2) {
        button(e, SDL_MOUSEBUTTONDOWN, SDL_BUTTON_LEFT, 2, x, y);
        return true;
    } else if (sscanf(tok, "move:%d,%d", &x, &y) == 2) {
        e->type = SDL_MOUSEMOTION;
        e->motion.x = mouse_x = x;
        e->motion.y = mouse_y = y;
        return true;
    } else if (sscanf(tok, "wheel:%d", &n) == 1) {
        e->type = SDL_MOUSEWHEEL;
        e->wheel.y = n;
        return true;
    } else if (sscanf(tok, "skip:%d", &n) == 1 && n > 0) {
        skip = n - 1;
        return false;
    } else if (sscanf(tok, "size:%d,%d", &x, &y) == 2 && window) {
        SDL_SetWindowSize(window, x, y);
        e->type = SDL_WINDOWEVENT;
        e->window.event = SDL_WINDOWEVENT_SIZE_CHANGED;
        e->window.windowID = SDL_GetWindowID(window);
        e->window.data1 = x;
        e->window.data2 = y;
        return true;
    } else if (strcmp(tok, "window") == 0) {
        e->type = SDL_WINDOWEVENT;
        e->window.event = SDL_WINDOWEVENT_EXPOSED;
        return true;
    } else if (strcmp(tok, "quit") == 0) {
        e->type = SDL_QUIT;
        return true;
    }
    fprintf(stderr, "sdl_events: unknown token '%s'\n", tok);
    cursor = NULL;
    return false;
}

int SDL_PollEvent(SDL_Event *e)
{
    static int (*real)(SDL_Event *);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "SDL_PollEvent");
    /* one of ours, then SDL's own until it has none: one per frame */
    if (!gave && e && next_event(e)) {
        gave = true;
        return 1;
    }
    gave = false;
    return real(e);
}

/* The live loop's wait: while events of ours are to come, none for SDL's
 * (no 500 ms idle waits between them). */
int SDL_WaitEventTimeout(SDL_Event *e, int timeout)
{
    static int (*real)(SDL_Event *, int);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "SDL_WaitEventTimeout");
    if (started && !(cursor && *cursor) && skip == 0)
        return real(e, timeout);
    if (e && next_event(e)) {
        gave = true;
        return 1;
    }
    return real(e, 0);
}

Uint32 SDL_GetMouseState(int *x, int *y)
{
    if (x)
        *x = mouse_x;
    if (y)
        *y = mouse_y;
    return 0;
}

/* The window, remembered for size:W,H. */
SDL_Window *SDL_CreateWindow(const char *title, int x, int y, int w, int h, Uint32 flags)
{
    static SDL_Window *(*real)(const char *, int, int, int, int, Uint32);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "SDL_CreateWindow");
    window = real(title, x, y, w, h, flags);
    return window;
}
