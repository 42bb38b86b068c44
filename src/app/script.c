/* script.c - parse the --script language of `sortnet view`. */
#include "script.h"

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

static sn_status parse_token(const char *tok, sn_script_event *ev)
{
    memset(ev, 0, sizeof *ev);
    const char *colon = strchr(tok, ':');
    if (!colon) {
        ev->kind = SN_SCRIPT_ACTION;
        ev->act = sn_action_parse(tok);
        return ev->act == SN_ACT_NONE ? SN_EPARSE : SN_OK;
    }
    size_t len = (size_t)(colon - tok);
    double v[4];
    int got = numbers(colon + 1, v, 4);
    if (len == 4 && strncmp(tok, "wait", 4) == 0 && got == 1 && v[0] >= 0 && v[0] <= 3.6e6) {
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
        char tok[128];
        size_t len = (size_t)(p - start);
        sn_script_event ev;
        bool ok = len < sizeof tok;
        if (ok) {
            memcpy(tok, start, len);
            tok[len] = '\0';
            ok = parse_token(tok, &ev) == SN_OK;
        }
        if (!ok) {
            sn_free(evs);
            return sn_diag_set(diag, SN_EPARSE, 1, (unsigned long)(start - text) + 1,
                               "script column %lu: '%.*s' is not a key name, wait:MS, "
                               "click:X,Y, dclick:X,Y, wheel:X,Y,N or drag:X,Y,DX,DY",
                               (unsigned long)(start - text) + 1, (int)(len > 40 ? 40 : len),
                               start);
        }
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
