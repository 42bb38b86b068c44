/* lesson.c - parse and play lessons (see lesson.h, docs/lessons.md).
 *
 * Invariant: a parsed lesson has at least one step, and every step has
 * 1..SN_GROUP_MAX networks and a caption (networks and input carry over
 * from the step before when a step does not set them).
 *
 * Lessons are shared and downloaded, so a lesson reads nothing but its
 * own: a network it names is a library or generator name (bitonic:8,
 * best:16), or a file in the lesson's folder or below, stored as its
 * resolved path. An absolute path, ".." out of the folder, a symbolic
 * link that leads out, or standard input is an error at its column that
 * names this rule; a shipped lesson (no folder) may only name networks. */
#define _XOPEN_SOURCE 700 /* for: realpath (the folder rule) */
#include "session/lesson.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h> // for: fstat (a directory is not a lesson)

#include "core/alloc.h"
#include "core/format.h" // for: sn_text_bom
#include "session/script.h"

/* Lessons are short texts; this bounds what is read. */
#define LESSON_MAX_BYTES (1u << 20)
#define LESSON_MAX_STEPS 500

void sn_lesson_free(sn_lesson *l)
{
    if (!l)
        return;
    sn_free(l->steps);
    sn_free(l);
}

typedef struct parser {
    const char *file;
    unsigned long line;
    sn_diag *diag;
    size_t cap;      /* steps allocated in the lesson */
    const char *dir; /* the folder its files may come from; NULL: names only */
} parser;

/* Room for one more step in l (a step holds a 48 KB input text, so the
 * array grows as steps come rather than holding the maximum up front). */
static sn_status grow_steps(parser *p, sn_lesson *l)
{
    if (l->count < p->cap)
        return SN_OK;
    size_t cap = p->cap ? 2 * p->cap : 8;
    if (cap > LESSON_MAX_STEPS)
        cap = LESSON_MAX_STEPS;
    sn_lesson_step *ns = sn_realloc(l->steps, cap * sizeof *ns);
    if (!ns)
        return sn_diag_set(p->diag, SN_ENOMEM, 0, 0, "out of memory");
    l->steps = ns;
    p->cap = cap;
    return SN_OK;
}

static sn_status err(const parser *p, unsigned long col, const char *fmt, const char *a)
{
    char what[600];
    snprintf(what, sizeof what, fmt, a);
    return sn_diag_set(p->diag, SN_EPARSE, p->line, col, "%s:%lu:%lu: %s", p->file, p->line, col,
                       what);
}

/* Sentences in a caption: ends of sentences followed by a blank or the end. */
static int sentences(const char *t)
{
    int n = 0;
    for (const char *c = t; *c; c++)
        if ((*c == '.' || *c == '?' || *c == '!') && (c[1] == '\0' || c[1] == ' ') &&
            !(c > t && *c == '.' && c[-1] == '.'))
            n++;
    return n ? n : 1;
}

static sn_status parse_input(parser *p, sn_lesson_step *st, const char *v, unsigned long col)
{
    char word[16];
    size_t wl = strcspn(v, " \t");
    snprintf(word, sizeof word, "%.*s", (int)(wl < 15 ? wl : 15), v);
    const char *arg = v + wl;
    while (*arg == ' ' || *arg == '\t')
        arg++;
    st->input_text[0] = '\0';
    if (strcmp(word, "random") == 0) {
        char *end;
        errno = 0;
        unsigned long long seed = strtoull(arg, &end, 10);
        if (*arg && errno == ERANGE && strspn(arg, "0123456789") == strlen(arg))
            return err(p, col + (unsigned long)(arg - v),
                       "'%s' is out of range: a seed is a whole number from 0 to "
                       "18446744073709551615 (2^64-1)",
                       arg);
        if (!*arg || *end || errno || *arg == '-')
            return err(p, col + (unsigned long)(arg - v), "'random' wants a seed, e.g. random 7%s",
                       "");
        st->input_kind = SN_INPUT_RANDOM;
        st->seed = seed;
    } else if (strcmp(word, "reversed") == 0 || strcmp(word, "sorted") == 0) {
        if (*arg)
            return err(p, col + (unsigned long)(arg - v), "nothing may follow '%s'", word);
        st->input_kind = word[0] == 'r' ? SN_INPUT_REVERSE : SN_INPUT_SORTED;
    } else if (strcmp(word, "bits") == 0) {
        size_t n = strspn(arg, "01");
        if (n == 0 || arg[n] || n > SN_VIEW_MAX_N)
            return err(p, col + (unsigned long)(arg - v) + n,
                       "'bits' wants 0s and 1s, one per wire, e.g. bits 0110%s", "");
        st->input_kind = SN_INPUT_BITS;
        snprintf(st->input_text, sizeof st->input_text, "%s", arg);
    } else if (isdigit((unsigned char)v[0]) || v[0] == '-') {
        if (strlen(v) >= sizeof st->input_text)
            return err(p, col, "the input list is too long%s", "");
        st->input_kind = SN_INPUT_LIST;
        snprintf(st->input_text, sizeof st->input_text, "%s", v);
    } else {
        return err(p, col,
                   "'%s' is not an input: a list (3,1,2), random SEED, reversed, sorted or "
                   "bits 0110",
                   word);
    }
    st->input_line = p->line;
    st->input_col = col;
    return SN_OK;
}

/* "bitonic:8", "best:16", "lib:NAME": a NAME: prefix and no '/', which
 * sn_schedule_load never reads as a file. */
static bool is_network_name(const char *s)
{
    const char *c = s;
    while (isalnum((unsigned char)*c) || *c == '-' || *c == '_')
        c++;
    return c > s && *c == ':' && !strchr(s, '/');
}

/* A relative path whose ".." never climbs above where it starts. */
static bool stays_below(const char *path)
{
    long depth = 0;
    for (const char *c = path; *c;) {
        size_t len = strcspn(c, "/");
        if (len == 2 && c[0] == '.' && c[1] == '.')
            depth--;
        else if (len && !(len == 1 && c[0] == '.'))
            depth++;
        if (depth < 0)
            return false;
        c += len + (c[len] == '/');
    }
    return true;
}

#define FOLDER_RULE                                                                                \
    "a lesson reads networks only from its own folder and below, or by name (bitonic:8, best:16)"

#ifndef __wasi__
/* Whether path is a regular file; else what it is ("a folder", "a FIFO",
 * ...) in kind. */
static bool regular_file(const char *path, char *kind, size_t cap)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        snprintf(kind, cap, "unreadable");
        return false;
    }
    snprintf(kind, cap, "%s",
             S_ISREG(sb.st_mode)    ? "a file"
             : S_ISDIR(sb.st_mode)  ? "a folder"
             : S_ISFIFO(sb.st_mode) ? "a FIFO"
             : S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "a device"
             : S_ISSOCK(sb.st_mode)                       ? "a socket"
                                                          : "not a regular file");
    return S_ISREG(sb.st_mode);
}
#endif

/* Check net (a step's network, of room cap) against the folder rule and
 * replace a file by its resolved path, so it loads from any directory. */
static sn_status resolve_net(parser *p, char *net, size_t cap, unsigned long col)
{
    if (is_network_name(net))
        return SN_OK;
    char why[700];
    if (!p->dir)
        snprintf(why, sizeof why,
                 "'%.300s' is a file: a shipped lesson names networks only "
                 "(bitonic:8, best:16)",
                 net);
    else if (net[0] == '/')
        snprintf(why, sizeof why, "'%.300s' is an absolute path: " FOLDER_RULE, net);
    else if (strcmp(net, "-") == 0)
        snprintf(why, sizeof why, "'-' is standard input: " FOLDER_RULE);
    else if (!stays_below(net))
        snprintf(why, sizeof why, "'%.300s' leaves the lesson's folder: " FOLDER_RULE, net);
    else
        why[0] = '\0';
    if (why[0])
        return err(p, col, "%s", why);
#ifdef __wasi__
    /* the page has no file system (src/web/nofs.c) and no realpath */
    (void)cap;
    return err(p, col, "'%.300s' is a file: the page reads networks by name only", net);
#else
    char path[4200], kind[32];
    snprintf(path, sizeof path, "%s/%s", p->dir, net);
    /* realpath's buffers come from libc (free, not sn_free) */
    char *real = realpath(path, NULL);
    int real_errno = errno;
    char *base = realpath(p->dir, NULL);
    size_t blen = base ? strlen(base) : 0;
    if (!real || !base)
        snprintf(why, sizeof why, "'%.300s': %s", net, strerror(real ? errno : real_errno));
    else if (strcmp(real, base) == 0)
        snprintf(why, sizeof why, "'%.300s' is the lesson's own folder, not a network file", net);
    else if (strncmp(real, base, blen) != 0 || (real[blen] != '/' && strcmp(base, "/") != 0))
        snprintf(why, sizeof why,
                 "'%.300s' leads out of the lesson's folder (a symbolic link): " FOLDER_RULE, net);
    else if (!regular_file(real, kind, sizeof kind))
        /* reading a FIFO would wait for a writer for ever */
        snprintf(why, sizeof why, "'%.300s' is %s, not a network file", net, kind);
    else if (strlen(real) >= cap)
        snprintf(why, sizeof why, "'%.300s': the path is too long", net);
    else
        snprintf(net, cap, "%s", real);
    free(real);
    free(base);
    return why[0] ? err(p, col, "%s", why) : SN_OK;
#endif
}

static sn_status parse_nets(parser *p, sn_lesson_step *st, const char *v, unsigned long col)
{
    st->net_count = 0;
    const char *c = v;
    while (*c) {
        while (*c == ' ' || *c == '\t')
            c++;
        if (!*c)
            break;
        size_t len = strcspn(c, " \t");
        if (st->net_count == SN_GROUP_MAX)
            return err(p, col + (unsigned long)(c - v), "more than 3 networks in one step%s", "");
        if (len >= sizeof st->nets[0])
            return err(p, col + (unsigned long)(c - v), "network name too long%s", "");
        snprintf(st->nets[st->net_count], sizeof st->nets[0], "%.*s", (int)len, c);
        sn_status rs = resolve_net(p, st->nets[st->net_count++], sizeof st->nets[0],
                                   col + (unsigned long)(c - v));
        if (rs != SN_OK)
            return rs;
        c += len;
    }
    if (st->net_count == 0)
        return err(p, col, "'net:' wants 1 to 3 networks, e.g. net: bitonic:8 oddeven-merge:8%s",
                   "");
    st->net_line = p->line;
    st->net_col = col;
    return SN_OK;
}

static sn_status parse_at(parser *p, sn_lesson_step *st, const char *v, unsigned long col)
{
    if (strcmp(v, "end") == 0) {
        st->at = -2;
        return SN_OK;
    }
    char *end;
    errno = 0;
    long k = strtol(v, &end, 10);
    if (!*v || *end || errno || k < 0)
        return err(p, col,
                   "'at:' wants a layer count (0 = the input, 3 = after layer 3) or "
                   "'end', not '%s'",
                   v);
    st->at = k;
    return SN_OK;
}

/* `exercise: KIND seed=N [n=N]` */
static sn_status parse_exercise(parser *p, sn_lesson_step *st, const char *v, unsigned long col)
{
    char word[32];
    size_t wl = strcspn(v, " \t");
    snprintf(word, sizeof word, "%.*s", (int)(wl < 31 ? wl : 31), v);
    if (!sn_exercise_kind_parse(word, &st->ex_kind))
        return err(p, col,
                   "'%s' is not an exercise: predict, counterexample, complete, redundant, depth "
                   "or merger",
                   word);
    bool seed = false;
    st->ex_n = 0;
    const char *c = v + wl;
    while (*c) {
        while (*c == ' ' || *c == '\t')
            c++;
        if (!*c)
            break;
        size_t len = strcspn(c, " \t");
        unsigned long at = col + (unsigned long)(c - v);
        char tok[64];
        snprintf(tok, sizeof tok, "%.*s", (int)(len < 63 ? len : 63), c);
        char *end = NULL;
        errno = 0;
        if (strncmp(tok, "seed=", 5) == 0 && isdigit((unsigned char)tok[5])) {
            st->ex_seed = strtoull(tok + 5, &end, 10);
            seed = true;
        } else if (strncmp(tok, "n=", 2) == 0 && isdigit((unsigned char)tok[2])) {
            unsigned long n = strtoul(tok + 2, &end, 10);
            bool merger = st->ex_kind == SN_EXERCISE_MERGER;
            if (!errno && !*end && (n < (merger ? 4 : SN_EXERCISE_MIN_N) || n > SN_EXERCISE_MAX_N))
                return err(p, at, "'%s': an exercise has 3 to 16 wires (a merger at least 4)",
                           tok);
            st->ex_n = (uint32_t)n;
        }
        if (!end || *end || errno)
            return err(p, at, "'%s' is not seed=N or n=N (e.g. exercise: predict seed=3 n=6)",
                       tok);
        c += len;
    }
    if (!seed)
        return err(p, col, "an exercise needs a seed, e.g. exercise: %s seed=1", word);
    st->exercise = true;
    st->ex_line = p->line;
    st->ex_col = col;
    return SN_OK;
}

/* Append text to a caption or title joined by a blank. */
static bool append(char *dst, size_t cap, const char *text)
{
    size_t len = strlen(dst);
    int w = snprintf(dst + len, cap - len, "%s%s", len ? " " : "", text);
    return w >= 0 && (size_t)w < cap - len;
}

/* One "key: value" line into the lesson. */
static sn_status parse_line(parser *p, sn_lesson *l, char *key, char *val, unsigned long kcol,
                            unsigned long vcol)
{
    sn_lesson_step *st = l->count ? &l->steps[l->count - 1] : NULL;
    if (strcmp(key, "title") == 0 && !st) {
        snprintf(l->title, sizeof l->title, "%s", val);
        return SN_OK;
    }
    if (strcmp(key, "step") == 0) {
        if (l->count == LESSON_MAX_STEPS)
            return err(p, 1, "more than 500 steps%s", "");
        sn_status gs = grow_steps(p, l);
        if (gs != SN_OK)
            return gs;
        st = l->count ? &l->steps[l->count - 1] : NULL; /* the array may have moved */
        sn_lesson_step *ns = &l->steps[l->count++];
        if (st) { /* networks and input carry over */
            memcpy(ns, st, sizeof *ns);
            ns->caption[0] = ns->keys[0] = '\0';
            ns->exercise = false;
        } else {
            memset(ns, 0, sizeof *ns);
            ns->input_kind = SN_INPUT_RANDOM;
            ns->seed = 1;
        }
        ns->at = -1;
        ns->line = p->line;
        snprintf(ns->title, sizeof ns->title, "%s", val);
        return SN_OK;
    }
    if (!st)
        return err(p, kcol, "'%.32s:' before the first 'step:' line (only 'title:' may come first)",
                   key);
    if (strcmp(key, "net") == 0)
        return parse_nets(p, st, val, vcol);
    if (strcmp(key, "input") == 0)
        return parse_input(p, st, val, vcol);
    if (strcmp(key, "at") == 0)
        return parse_at(p, st, val, vcol);
    if (strcmp(key, "exercise") == 0)
        return parse_exercise(p, st, val, vcol);
    if (strcmp(key, "keys") == 0) {
        sn_script_event *ev = NULL;
        size_t n = 0;
        sn_diag d;
        sn_diag_clear(&d);
        if (sn_script_parse(val, &ev, &n, &d) != SN_OK)
            return sn_diag_set(p->diag, SN_EPARSE, p->line, vcol + d.column - 1, "%s:%lu:%lu: %s",
                               p->file, p->line, vcol + d.column - 1, d.text);
        for (size_t i = 0; i < n; i++) {
            sn_script_kind k = ev[i].kind;
            sn_action a = ev[i].act;
            bool effect = k == SN_SCRIPT_ACTION &&
                          (a == SN_ACT_SAVE_SVG || a == SN_ACT_SAVE_PNG || a == SN_ACT_SAVE_NET ||
                           a == SN_ACT_QUIT || a == SN_ACT_FULLSCREEN || a == SN_ACT_RELOAD ||
                           a == SN_ACT_RACE || a == SN_ACT_RACE_LOAD);
            bool mouse = k == SN_SCRIPT_CLICK || k == SN_SCRIPT_DCLICK || k == SN_SCRIPT_WHEEL ||
                         k == SN_SCRIPT_DRAG || k == SN_SCRIPT_SAVE || k == SN_SCRIPT_RACE ||
                         k == SN_SCRIPT_ANSWER || k == SN_SCRIPT_HINT;
            if (effect || mouse) {
                sn_free(ev);
                return err(p, vcol,
                           "a lesson's keys are key names, wait:MS and the edit verbs add, del, "
                           "move and select (no mouse, no saving, reloading, quitting, racing "
                           "or answering)%s",
                           "");
            }
        }
        sn_free(ev);
        if (!append(st->keys, sizeof st->keys, val))
            return err(p, vcol, "too many keys in one step%s", "");
        st->keys_line = p->line;
        st->keys_col = vcol;
        return SN_OK;
    }
    if (strcmp(key, "text") == 0) {
        if (!append(st->caption, sizeof st->caption, val))
            return err(p, vcol, "the caption is too long (at most %s characters)", "1000");
        return SN_OK;
    }
    return err(p, kcol,
               "unknown line '%.32s:' (a lesson has title:, step:, net:, input:, keys:, at:, "
               "exercise: and text: lines)",
               key);
}

/* The end of a step: it must say something, in one to three sentences. */
static sn_status finish_step(parser *p, const sn_lesson_step *st)
{
    parser at = *p;
    at.line = st->line;
    /* an exercise gives the network and the question; its own text is optional */
    if (st->net_count == 0 && !st->exercise)
        return err(&at, 1, "step '%s' has no network (net: NAME [NAME2 [NAME3]])", st->title);
    if (!st->caption[0] && !st->exercise)
        return err(&at, 1, "step '%s' has no caption (text: one to three sentences)", st->title);
    int s = sentences(st->caption);
    if (s > 3) {
        char n[16];
        snprintf(n, sizeof n, "%d", s);
        return err(&at, 1, "a caption has one to three sentences; this step's has %s", n);
    }
    return SN_OK;
}

sn_status sn_lesson_parse(const char *text, const char *file, sn_lesson **out, sn_diag *diag)
{
    return sn_lesson_parse_in(text, file, NULL, out, diag);
}

sn_status sn_lesson_parse_in(const char *text, const char *file, const char *dir, sn_lesson **out,
                             sn_diag *diag)
{
    *out = NULL;
    sn_lesson *l = sn_calloc(1, sizeof *l);
    if (!l)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    snprintf(l->file, sizeof l->file, "%s", file);
    parser p = {file, 0, diag, 0, dir};
    const char *c = text + sn_text_bom(text, strlen(text));
    sn_status st = SN_OK;
    char buf[SN_LESSON_TEXT * 2];
    while (*c && st == SN_OK) {
        p.line++;
        size_t len = strcspn(c, "\n");
        if (len >= sizeof buf) {
            st = err(&p, sizeof buf, "line too long%s", "");
            break;
        }
        memcpy(buf, c, len);
        buf[len] = '\0';
        c += len + (c[len] == '\n');
        if (len && buf[len - 1] == '\r')
            buf[--len] = '\0';
        char *s = buf;
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s || *s == '#')
            continue;
        char *colon = strchr(s, ':');
        char *key_end = s;
        while (isalpha((unsigned char)*key_end))
            key_end++;
        if (!colon || colon != key_end) {
            st = err(&p, (unsigned long)(s - buf) + 1,
                     "expected 'key: value' (title, step, net, input, keys, at, exercise, text)%s", "");
            break;
        }
        *colon = '\0';
        char *val = colon + 1;
        while (*val == ' ' || *val == '\t')
            val++;
        size_t vl = strlen(val);
        while (vl && (val[vl - 1] == ' ' || val[vl - 1] == '\t'))
            val[--vl] = '\0';
        if (strcmp(s, "step") == 0 && l->count)
            st = finish_step(&p, &l->steps[l->count - 1]);
        if (st == SN_OK)
            st = parse_line(&p, l, s, val, (unsigned long)(s - buf) + 1,
                            (unsigned long)(val - buf) + 1);
    }
    if (st == SN_OK && l->count == 0)
        st =
            sn_diag_set(diag, SN_EPARSE, 1, 1, "%s:1:1: a lesson needs at least one 'step:'", file);
    if (st == SN_OK)
        st = finish_step(&p, &l->steps[l->count - 1]);
    if (st != SN_OK) {
        sn_lesson_free(l);
        return st;
    }
    *out = l;
    return SN_OK;
}

const sn_lesson_source *sn_lesson_shipped(const char *name)
{
    size_t len = strlen(name);
    if (len > 7 && strcmp(name + len - 7, ".lesson") == 0)
        len -= 7;
    const sn_lesson_source *found = NULL;
    int matches = 0;
    for (const sn_lesson_source *l = sn_lesson_sources; l->name; l++) {
        if (strlen(l->name) == len && strncmp(l->name, name, len) == 0)
            return l;
        if (len > 0 && strncmp(l->name, name, len) == 0) {
            found = l;
            matches++;
        }
    }
    return matches == 1 ? found : NULL;
}

static sn_status load_file(const char *path, sn_lesson **out, sn_diag *diag);

sn_status sn_lesson_load(const char *path, sn_lesson **out, sn_diag *diag)
{
    sn_status st = load_file(path, out, diag);
    if (st != SN_OK) /* its name and text quoted: no control character raw */
        sn_diag_escape(diag);
    return st;
}

static sn_status load_file(const char *path, sn_lesson **out, sn_diag *diag)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f && errno == ENOENT && !strchr(path, '/')) {
        const sn_lesson_source *l = sn_lesson_shipped(path);
        if (l) {
            char name[300];
            snprintf(name, sizeof name, "assets/lessons/%s.lesson", l->name);
            return sn_lesson_parse(l->text, name, out, diag);
        }
        char names[600] = "";
        for (const sn_lesson_source *k = sn_lesson_sources; k->name; k++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                     names[0] ? ", " : "", k->name);
        return sn_diag_set(diag, SN_EIO, 0, 0,
                           "%s: no such file, and no shipped lesson of that name (they are: %s)",
                           path, names);
    }
    if (!f)
        return sn_diag_set(diag, SN_EIO, 0, 0, "%s: %s", path, strerror(errno));
    /* fopen opens a directory for reading; the first read fails (EISDIR) */
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fclose(f);
        return sn_diag_set(diag, SN_EIO, 0, 0, "%s: is a directory, not a lesson file", path);
    }
    char *text = sn_malloc(LESSON_MAX_BYTES + 1);
    size_t n = text ? fread(text, 1, LESSON_MAX_BYTES + 1, f) : 0;
    bool bad = ferror(f);
    int read_errno = errno;
    fclose(f);
    if (!text)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    if (bad || n > LESSON_MAX_BYTES) {
        sn_free(text);
        return sn_diag_set(diag, bad ? SN_EIO : SN_ELIMIT, 0, 0, "%s: %s", path,
                           bad ? strerror(read_errno) : "larger than 1 MiB: not a lesson");
    }
    text[n] = '\0';
    if (memchr(text, '\0', n)) {
        sn_free(text);
        return sn_diag_set(diag, SN_EPARSE, 1, 1, "%s:1:1: a binary file, not a lesson", path);
    }
    /* its files come from its folder */
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    sn_status st = sn_lesson_parse_in(text, path, dir, out, diag);
    sn_free(text);
    return st;
}

/* Run a step's keys on g: actions at once, waits as time. */
static sn_status run_keys(const sn_lesson *l, const sn_lesson_step *st, sn_group *g, sn_diag *diag)
{
    if (!st->keys[0])
        return SN_OK;
    sn_script_event *ev = NULL;
    size_t n = 0;
    sn_diag d;
    sn_diag_clear(&d);
    if (sn_script_parse(st->keys, &ev, &n, &d) != SN_OK)
        return sn_diag_set(diag, SN_EPARSE, st->keys_line, st->keys_col, "%s:%lu:%lu: %s", l->file,
                           st->keys_line, st->keys_col, d.text);
    sn_view *v = sn_group_main(g);
    sn_status st_keys = SN_OK;
    for (size_t i = 0; i < n && st_keys == SN_OK; i++) {
        const sn_script_event *e = &ev[i];
        /* edit verbs act on a single network (the group refuses E otherwise) */
        bool edits = g->count == 1;
        unsigned long seq = v->message_seq;
        if (!edits && e->kind >= SN_SCRIPT_ADD && e->kind <= SN_SCRIPT_SELECT)
            sn_view_message(v, true, "%.*s: edit verbs need a step with one network (it has %zu)",
                            (int)e->len, st->keys + e->col - 1, g->count);
        switch (e->kind) {
        case SN_SCRIPT_ACTION: sn_group_action(g, e->act); break;
        case SN_SCRIPT_WAIT:
            for (double t = 0; t < e->ms; t += 1000.0 / 60)
                sn_group_tick(g, 1000.0 / 60);
            break;
        case SN_SCRIPT_ADD:
            if (edits)
                sn_view_edit_add(v, (uint32_t)e->i, (uint32_t)e->j, e->k);
            break;
        case SN_SCRIPT_DEL:
            if (edits)
                sn_view_edit_delete(v, (size_t)e->i, (size_t)e->j);
            break;
        case SN_SCRIPT_MOVE:
            if (edits)
                sn_view_edit_move(v, (size_t)e->i, (size_t)e->j, (size_t)e->k);
            break;
        case SN_SCRIPT_SELECT:
            if (edits)
                sn_view_edit_select(v, e->i, e->j);
            break;
        default: break; /* refused when parsed */
        }
        sn_group_settle(g);
        /* a verb that fails is the lesson's error, at its column; one
         * that ran out of memory is no fault of the lesson (exit 5, not 2:
         * the view's message is all a failed verb leaves) */
        if (sn_script_can_fail(e) && v->message_seq != seq && v->message_error)
            st_keys = sn_diag_set(diag, strstr(v->message, "out of memory") ? SN_ENOMEM : SN_EPARSE, st->keys_line, st->keys_col + e->col - 1,
                                  "%s:%lu:%lu: %s", l->file, st->keys_line,
                                  st->keys_col + e->col - 1, v->message);
    }
    sn_free(ev);
    if (st_keys != SN_OK)
        return st_keys;
    /* what a lesson builds is part of it, not the teacher's unsaved work */
    if (v->hist_count)
        v->saved_pos = v->hist_pos;
    for (size_t i = 0; i < g->count; i++)
        g->view[i].requests = 0;
    /* the step opens settled, except what the keys set playing */
    for (size_t i = 0; i < g->count; i++)
        g->view[i].anim_ms = 0;
    return SN_OK;
}

bool sn_lesson_has_exercises(const sn_lesson *l)
{
    for (size_t i = 0; i < l->count; i++)
        if (l->steps[i].exercise)
            return true;
    return false;
}

sn_status sn_lesson_exercise(const sn_lesson *l, size_t i, sn_exercise **out, sn_diag *diag)
{
    *out = NULL;
    if (i >= l->count || !l->steps[i].exercise)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "%s: step %zu has no exercise", l->file, i + 1);
    const sn_lesson_step *st = &l->steps[i];
    sn_diag d;
    sn_diag_clear(&d);
    sn_status s = sn_exercise_make(st->ex_kind, st->ex_seed, st->ex_n, out, &d);
    if (s != SN_OK)
        return sn_diag_set(diag, s, st->ex_line, st->ex_col, "%s:%lu:%lu: %s", l->file,
                           st->ex_line, st->ex_col, d.text);
    return SN_OK;
}

/* An exercise step's group: its one network on its input, at the step
 * the exercise shows. */
static sn_status exercise_group(const sn_lesson *l, size_t i, sn_group *ng, sn_diag *diag)
{
    memset(ng, 0, sizeof *ng);
    sn_exercise *e = NULL;
    sn_status s = sn_lesson_exercise(l, i, &e, diag);
    if (s != SN_OK)
        return s;
    char text[SN_EXERCISE_MAX_N * 12 + 1] = "", name[64];
    for (uint32_t k = 0; k < e->n; k++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s%u", k ? "," : "",
                 e->input[k]);
    snprintf(name, sizeof name, "%s", sn_network_name(e->net));
    sn_view_input in = {SN_INPUT_LIST, 0, text, SN_KEY_I32};
    sn_network *net = sn_network_clone(e->net);
    sn_schedule *sched = NULL;
    size_t at = e->at;
    sn_exercise_free(e);
    if (!net || sn_schedule_from_network(net, &sched) != SN_OK)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    s = sn_view_init_schedule(&ng->view[0], sched, name, NULL, &in, diag);
    if (s != SN_OK) {
        sn_view_cleanup(&ng->view[0]);
        return s;
    }
    ng->count = 1;
    sn_group_step_to(ng, at);
    return SN_OK;
}

sn_status sn_lesson_apply(const sn_lesson *l, size_t i, sn_group *g, sn_diag *diag)
{
    if (i >= l->count)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "%s: no step %zu", l->file, i + 1);
    const sn_lesson_step *st = &l->steps[i];
    const char *specs[SN_GROUP_MAX];
    for (size_t k = 0; k < st->net_count; k++)
        specs[k] = st->nets[k];
    sn_view_input in = {st->input_kind, st->seed, st->input_text[0] ? st->input_text : NULL,
                        SN_KEY_I32};
    sn_group ng;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status s = st->exercise ? exercise_group(l, i, &ng, diag)
                               : sn_group_init(&ng, specs, st->net_count, &in, &d);
    if (s != SN_OK && st->exercise)
        return s;
    if (s != SN_OK) {
        /* a bad input shows at its line, anything else at the networks' */
        bool input = strstr(d.text, "input") != NULL || strstr(d.text, "value") != NULL;
        unsigned long line = input && st->input_line ? st->input_line : st->net_line;
        unsigned long col = input && st->input_line ? st->input_col : st->net_col;
        return sn_diag_set(diag, s, line, col, "%s:%lu:%lu: %s", l->file, line, col, d.text);
    }
    /* what the teacher set stays: theme, text size, sound, speed */
    if (g->count) {
        for (size_t k = 0; k < ng.count; k++) {
            ng.view[k].theme = g->view[0].theme;
            ng.view[k].font_scale = g->view[0].font_scale;
            ng.view[k].sound = g->view[0].sound;
            ng.view[k].speed = g->view[0].speed;
            ng.view[k].gpu_fn = g->view[0].gpu_fn;
            ng.view[k].gpu_ctx = g->view[0].gpu_ctx;
        }
    }
    s = run_keys(l, st, &ng, diag);
    if (s != SN_OK) {
        sn_group_cleanup(&ng);
        return s;
    }
    if (st->at != -1) {
        size_t L = sn_group_layers(&ng);
        size_t k = st->at == -2 || (size_t)st->at > L ? L : (size_t)st->at;
        ng.playing = false;
        sn_group_step_to(&ng, k);
    }
    sn_view_message(sn_group_main(&ng), false, "%s", st->title);
    sn_group_cleanup(g);
    *g = ng;
    return SN_OK;
}

static sn_status check_steps(const sn_lesson *l, sn_diag *diag);

sn_status sn_lesson_check(const sn_lesson *l, sn_diag *diag)
{
    sn_status st = check_steps(l, diag);
    if (st != SN_OK) /* a step's names and inputs quoted: no control character raw */
        sn_diag_escape(diag);
    return st;
}

static sn_status check_steps(const sn_lesson *l, sn_diag *diag)
{
    sn_group g;
    memset(&g, 0, sizeof g);
    for (size_t i = 0; i < l->count; i++) {
        sn_status s = sn_lesson_apply(l, i, &g, diag);
        if (s != SN_OK) {
            sn_group_cleanup(&g);
            return s;
        }
    }
    sn_group_cleanup(&g);
    return SN_OK;
}
