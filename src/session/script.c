/* script.c - parse the --script language of `sortnet view`. */
#include "session/script.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

/* Read up to max comma-separated numbers from s; returns how many. */
static int numbers(const char *s, double *v, int max)
{
    int got = 0;
    while (got < max) {
        char *end;
        double x = strtod(s, &end);
        if (end == s)
            return -1;
        v[got++] = x;
        if (*end == '\0')
            return got;
        if (*end != ',')
            return -1;
        s = end + 1;
    }
    return -1;
}

/* The edit verbs: whole numbers from 0 (wires, layers, indices, columns). */
static bool whole(const double *v, int got)
{
    for (int i = 0; i < got; i++)
        if (!(v[i] >= 0 && v[i] <= 4294967295.0 && v[i] == (double)(long long)v[i]))
            return false;
    return true;
}

static sn_status parse_edit(const char *verb, size_t len, const char *args, sn_script_event *ev)
{
    if (len == 4 && strncmp(verb, "save", 4) == 0) {
        size_t plen = strlen(args);
        if (plen == 0 || plen > SN_SCRIPT_PATH_MAX)
            return SN_EPARSE;
        ev->kind = SN_SCRIPT_SAVE;
        memcpy(ev->path, args, plen + 1);
        return SN_OK;
    }
    double v[4];
    int got = numbers(args, v, 4);
    if (got < 0 || !whole(v, got))
        return SN_EPARSE;
    ev->i = (long)v[0];
    ev->j = got > 1 ? (long)v[1] : 0;
    ev->k = got > 2 ? (long)v[2] : -1;
    if (len == 3 && strncmp(verb, "add", 3) == 0 && (got == 2 || got == 3))
        ev->kind = SN_SCRIPT_ADD;
    else if (len == 3 && strncmp(verb, "del", 3) == 0 && got == 2)
        ev->kind = SN_SCRIPT_DEL;
    else if (len == 4 && strncmp(verb, "move", 4) == 0 && got == 3)
        ev->kind = SN_SCRIPT_MOVE;
    else if (len == 6 && strncmp(verb, "select", 6) == 0 && got == 2)
        ev->kind = SN_SCRIPT_SELECT;
    else
        return SN_EPARSE;
    return SN_OK;
}

static bool is_edit_verb(const char *tok, size_t len)
{
    static const char *const verbs[] = {"add", "del", "move", "select", "save"};
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        if (strlen(verbs[i]) == len && strncmp(tok, verbs[i], len) == 0)
            return true;
    return false;
}

/* race, race:from, race:stop, race:wait, race:load; false if tok is none. */
static bool parse_race(const char *tok, sn_script_event *ev)
{
    static const char *const ops[] = {"race", "race:from", "race:stop", "race:wait", "race:load"};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(tok, ops[i]) == 0) {
            ev->kind = SN_SCRIPT_RACE;
            ev->i = (long)i; /* in the order of sn_script_race */
            return true;
        }
    return false;
}

static sn_status parse_token(const char *tok, sn_script_event *ev)
{
    memset(ev, 0, sizeof *ev);
    if (parse_race(tok, ev))
        return SN_OK;
    if (strcmp(tok, "hint") == 0) {
        ev->kind = SN_SCRIPT_HINT;
        return SN_OK;
    }
    if (strcmp(tok, "answer") == 0 || strncmp(tok, "answer:", 7) == 0) {
        size_t len = strlen(tok);
        if (len == 7 || (len > 7 && len - 7 > SN_SCRIPT_PATH_MAX))
            return SN_EPARSE; /* "answer:" with nothing after it */
        ev->kind = SN_SCRIPT_ANSWER;
        if (len > 6)
            memcpy(ev->path, tok + 7, len - 6);
        return SN_OK;
    }
    const char *colon = strchr(tok, ':');
    if (!colon) {
        ev->kind = SN_SCRIPT_ACTION;
        ev->act = sn_action_parse(tok);
        return ev->act == SN_ACT_NONE ? SN_EPARSE : SN_OK;
    }
    size_t len = (size_t)(colon - tok);
    if (is_edit_verb(tok, len))
        return parse_edit(tok, len, colon + 1, ev);
    double v[4];
    int got = numbers(colon + 1, v, 4);
    if (len == 4 && strncmp(tok, "wait", 4) == 0 && got == 1) {
        if (!(v[0] >= 0 && v[0] <= 3.6e6))
            return SN_ELIMIT; /* a number, but out of range */
        ev->kind = SN_SCRIPT_WAIT;
        ev->ms = v[0];
        return SN_OK;
    }
    if (len == 5 && strncmp(tok, "click", 5) == 0 && got == 2) {
        ev->kind = SN_SCRIPT_CLICK;
    } else if (len == 6 && strncmp(tok, "dclick", 6) == 0 && got == 2) {
        ev->kind = SN_SCRIPT_DCLICK;
    } else if (len == 5 && strncmp(tok, "wheel", 5) == 0 && got == 3) {
        ev->kind = SN_SCRIPT_WHEEL;
        ev->z = v[2];
    } else if (len == 4 && strncmp(tok, "drag", 4) == 0 && got == 4) {
        ev->kind = SN_SCRIPT_DRAG;
        ev->dx = v[2];
        ev->dy = v[3];
    } else {
        return SN_EPARSE;
    }
    ev->x = v[0];
    ev->y = v[1];
    return SN_OK;
}

sn_status sn_script_parse(const char *text, sn_script_event **out, size_t *count, sn_diag *diag)
{
    *out = NULL;
    *count = 0;
    size_t cap = 0, n = 0;
    sn_script_event *evs = NULL;
    const char *p = text;
    while (*p) {
        /* a token ends at a blank; commas inside "click:1,2" belong to it,
         * a comma right after a bare key name separates keys */
        while (*p && (isspace((unsigned char)*p) || *p == ','))
            p++;
        if (!*p)
            break;
        const char *start = p;
        bool args = false;
        while (*p && !isspace((unsigned char)*p) && (args || *p != ',' || p == start)) {
            if (*p == ':')
                args = true;
            p++;
        }
        char tok[SN_SCRIPT_PATH_MAX + 8];
        size_t len = (size_t)(p - start);
        sn_script_event ev;
        bool ok = len < sizeof tok;
        sn_status pst = SN_EPARSE;
        if (ok) {
            memcpy(tok, start, len);
            tok[len] = '\0';
            pst = parse_token(tok, &ev);
            ok = pst == SN_OK;
        }
        if (pst == SN_ELIMIT) {
            sn_free(evs);
            return sn_diag_set(diag, SN_EPARSE, 1, (unsigned long)(start - text) + 1,
                               "script column %lu: '%.*s' is out of range: wait:MS waits 0 to "
                               "3600000 ms (an hour)",
                               (unsigned long)(start - text) + 1, (int)(len > 40 ? 40 : len),
                               start);
        }
        if (!ok) {
            sn_free(evs);
            return sn_diag_set(diag, SN_EPARSE, 1, (unsigned long)(start - text) + 1,
                               "script column %lu: '%.*s' is not a key name, wait:MS, "
                               "click:X,Y, dclick:X,Y, wheel:X,Y,N, drag:X,Y,DX,DY, "
                               "add:I,J[,COL], del:LAYER,INDEX, move:LAYER,INDEX,COL, "
                               "select:LAYER,INDEX, save:FILE (numbers from 0), race, "
                               "race:from|stop|wait|load, answer[:TEXT] or hint",
                               (unsigned long)(start - text) + 1, (int)(len > 40 ? 40 : len),
                               start);
        }
        ev.col = (unsigned long)(start - text) + 1;
        ev.len = len;
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 16, bytes;
            sn_script_event *g = NULL;
            if (sn_mul_size(ncap, sizeof *g, &bytes))
                g = sn_realloc(evs, bytes);
            if (!g) {
                sn_free(evs);
                return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
            }
            evs = g;
            cap = ncap;
        }
        evs[n++] = ev;
    }
    *out = evs;
    *count = n;
    return SN_OK;
}

bool sn_script_can_fail(const sn_script_event *ev)
{
    if (ev->kind != SN_SCRIPT_ACTION)
        return ev->kind != SN_SCRIPT_WAIT && ev->kind != SN_SCRIPT_CLICK &&
               ev->kind != SN_SCRIPT_DCLICK && ev->kind != SN_SCRIPT_WHEEL &&
               ev->kind != SN_SCRIPT_DRAG;
    /* keys whose red message is a verdict or a hint (B on a network that
     * sorts, 1-6 beside another network, O on a file that changed badly)
     * inform; the edit keys and the savers fail */
    switch (ev->act) {
    case SN_ACT_EDIT:
    case SN_ACT_UNDO:
    case SN_ACT_REDO:
    case SN_ACT_DELETE:
    case SN_ACT_SELECT:
    case SN_ACT_SAVE_NET:
    case SN_ACT_RACE:
    case SN_ACT_RACE_LOAD:
    case SN_ACT_SAVE_SVG:
    case SN_ACT_SAVE_PNG: return true;
    default: return false;
    }
}
