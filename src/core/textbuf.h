/* textbuf.h - a growable NUL-terminated text in memory, for code that
 * builds a document as a string (the page's JSON state, the SVG writer,
 * the verdict worker's answer): no FILE, no printing, so it builds for
 * the page too. Out of memory is sticky: every later add is dropped and
 * `failed` stays set, so a writer checks once at the end.
 *
 *     sn_textbuf b = SN_TEXTBUF_INIT;
 *     sn_textbuf_str(&b, "<svg>");
 *     sn_textbuf_printf(&b, "%d", 12);
 *     if (b.failed) ... else use b.s (b.len bytes)
 *     sn_textbuf_free(&b);
 */
#ifndef SN_TEXTBUF_H
#define SN_TEXTBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sn_textbuf {
    char *s; /* NUL-terminated once anything was added; owned (sn_free) */
    size_t len, cap;
    bool failed; /* an add ran out of memory */
} sn_textbuf;

#define SN_TEXTBUF_INIT                                                                            \
    {                                                                                              \
        NULL, 0, 0, false                                                                          \
    }

void sn_textbuf_put(sn_textbuf *b, const char *s, size_t n);
void sn_textbuf_str(sn_textbuf *b, const char *s);
/* printf-style; the whole text however long (formatted twice when it
 * does not fit the first try). */
void sn_textbuf_printf(sn_textbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Empty it, keeping its memory. */
void sn_textbuf_clear(sn_textbuf *b);
/* Free its memory and reset it to SN_TEXTBUF_INIT. */
void sn_textbuf_free(sn_textbuf *b);

#endif
