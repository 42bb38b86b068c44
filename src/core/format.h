/* format.h - reading and writing networks as text, and resolving the
 * network names of the command line.
 *
 * Formats (detected from content):
 *  - bracket: one layer per line, e.g. [(0,2),(1,3)] (public best-network
 *    lists); blank lines and lines starting with '#' are ignored.
 *  - json: {"N":8,"L":19,"D":6,"nw":[[0,2],...]} - a flat comparator list,
 *    grouped into layers as early as possible; "nw" may also be a list of
 *    layers ([[[0,2],[1,3]],...]), which is kept as given. Needs jansson.
 *  - sn: libsortnetwork's text: "Inputs: 8", stages separated by blank
 *    lines, one "a b" comparator per line.
 * Parse errors fill diag with 1-based line and column. */
#ifndef SN_FORMAT_H
#define SN_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/network.h"
#include "core/schedule.h"
#include "core/status.h"

typedef enum sn_format {
    SN_FORMAT_UNKNOWN = 0,
    SN_FORMAT_BRACKET,
    SN_FORMAT_JSON,
    SN_FORMAT_SN
} sn_format;

const char *sn_format_name(sn_format f); /* "bracket", "json", "sn" */
bool sn_format_parse(const char *name, sn_format *out);

/* Guess the format of text[0..len) from its first non-blank content. */
sn_format sn_format_detect(const char *text, size_t len);

/* true when JSON support (jansson) is built in. */
bool sn_format_have_json(void);

/* Parse text[0..len) (need not be NUL-terminated) in format f
 * (SN_FORMAT_UNKNOWN = detect). On success *out is a new network. */
sn_status sn_network_parse(const char *text, size_t len, sn_format f, sn_network **out,
                           sn_diag *diag);

/* Write net in format f to stream. SN_EIO on a write error. */
sn_status sn_network_write(const sn_network *net, sn_format f, FILE *stream, sn_diag *diag);

/* Resolve a network name of the command line: "bitonic:16" (any sn_algo
 * name, n >= 1), a file path, or "-" for stdin. Names take precedence; a
 * path that contains ':' and exists is read as a file. diag gets messages
 * like "foo.txt:3:7: expected ')'" (file name included). */
sn_status sn_schedule_load(const char *spec, sn_schedule **out, sn_diag *diag);

/* 3 when text starts with a UTF-8 byte order mark (EF BB BF, as Windows
 * editors write), else 0: every reader of a text file skips that many
 * bytes, so the mark is neither content nor a column. */
size_t sn_text_bom(const char *text, size_t len);

/* Read a whole file ("-" = stdin) into a NUL-terminated buffer (sn_free
 * it). Refuses files larger than max_bytes with SN_ELIMIT. */
sn_status sn_file_read_all(const char *path, size_t max_bytes, char **out, size_t *len,
                           sn_diag *diag);

/* The template for mkstemp / mkdtemp of a temporary beside target (the
 * writers write there, then rename over target): "TARGET.tmpXXXXXX", or,
 * where that would pass the longest name a folder entry may have
 * (NAME_MAX), ".sn-XXXXXX" in target's folder. */
void sn_file_temp_template(const char *target, char *out, size_t cap);

#endif
