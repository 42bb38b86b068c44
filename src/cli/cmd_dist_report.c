/* cmd_dist_report.c - the report of `sortnet dist sort` on rank 0: text,
 * or one JSON object (--json). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd_dist.h"
#ifdef SN_HAVE_JANSSON
#include <jansson.h>
#endif

#ifdef SN_HAVE_JANSSON
int cli_dist_print_json(const sn_dist_report *r, const char *alg, const char *net,
                        const sn_dist_sort_opts *o)
{
    json_t *j = json_object();
    json_object_set_new(j, "identical", json_boolean(r->identical));
    json_object_set_new(j, "n", json_integer((json_int_t)r->n));
    json_object_set_new(j, "ranks", json_integer(r->ranks));
    json_object_set_new(j, "algorithm", json_string(alg));
    json_object_set_new(j, "network", net ? json_string(net) : json_null());
    json_object_set_new(j, "type", json_string(sn_key_type_name(o->type)));
    json_object_set_new(j, "payload", json_boolean(o->payload));
    json_t *ls = json_array(), *bs = json_array(), *tl = json_array();
    for (int i = 0; i < r->ranks; i++) {
        json_array_append_new(ls, json_string(r->local_sorter[i]));
        json_array_append_new(bs, json_integer((json_int_t)r->bytes_sent[i]));
    }
    for (size_t L = 0; L < r->layers; L++)
        json_array_append_new(tl, json_real(r->t_layer[L]));
    json_object_set_new(j, "local_sort", ls);
    json_object_set_new(j, "blocks_sorted", json_boolean(r->blocks_sorted));
    json_object_set_new(j, "boundaries_ordered", json_boolean(r->boundaries_ordered));
    json_object_set_new(j, "multiset_kept", json_boolean(r->multiset_kept));
    json_object_set_new(j, "compared", json_boolean(r->compared));
    json_object_set_new(j, "first_unsorted",
                        r->unsorted_rank < 0 ? json_null()
                                             : json_pack("{s:i,s:I}", "rank", r->unsorted_rank,
                                                         "index", (json_int_t)r->unsorted_index));
    json_object_set_new(j, "first_broken_boundary",
                        r->broken_boundary < 0
                            ? json_null()
                            : json_pack("{s:i,s:o,s:o}", "rank", r->broken_boundary, "last",
                                        cli_json_key(o->type, r->boundary_last), "next_first",
                                        cli_json_key(o->type, r->boundary_first)));
    bool mm = r->compared && r->mismatch;
    json_object_set_new(
        j, "first_mismatch",
        !mm ? json_null()
            : json_pack("{s:I,s:b,s:o,s:o}", "index", (json_int_t)r->mismatch_index, "in_payload",
                        r->mismatch_in_payload, "expected",
                        cli_json_value(o->type, r->mismatch_expected, r->mismatch_in_payload),
                        "actual",
                        cli_json_value(o->type, r->mismatch_actual, r->mismatch_in_payload)));
    json_object_set_new(j, "seconds",
                        json_pack("{s:f,s:f,s:o,s:f,s:f,s:f,s:f}", "input", r->t_input,
                                  "local_sort", r->t_local, "layers", tl, "exchange", r->t_exchange,
                                  "verification", r->t_verify, "output", r->t_output, "total",
                                  r->t_total));
    json_object_set_new(j, "bytes_sent", bs);
    double sort_s = r->t_local + r->t_exchange;
    json_object_set_new(j, "keys_per_second",
                        sort_s > 0 ? json_real((double)r->n / sort_s) : json_null());
    return cli_json_print(j, JSON_COMPACT | JSON_REAL_PRECISION(6));
}
#endif

void cli_dist_print_text(const sn_dist_report *r, const char *alg, const char *net,
                         const sn_dist_sort_opts *o)
{
    printf("dist sort: %llu keys (%s%s) on %d rank(s), %s%s%s\n", (unsigned long long)r->n,
           sn_key_type_name(o->type), o->payload ? ", payload" : "", r->ranks, alg, net ? " " : "",
           net ? net : "");
    bool same = true;
    for (int i = 1; i < r->ranks; i++)
        same = same && strcmp(r->local_sorter[i], r->local_sorter[0]) == 0;
    if (same)
        printf("local sort: %s on every rank\n", r->local_sorter[0]);
    else
        for (int i = 0; i < r->ranks; i++)
            printf("local sort, rank %d: %s\n", i, r->local_sorter[i]);
    printf("time (s, the slowest rank):\n  input          %.6f\n  local sort     %.6f\n",
           r->t_input, r->t_local);
    if (r->local_runs)
        printf("    on the GPU (%s): upload %.6f, kernels %.6f, download %.6f%s",
               r->local_copies == 0   ? "the slice in pinned memory"
               : r->local_copies == 1 ? "through pinned staging"
                                      : "ordinary memory, copied whole",
               r->t_local_up,
               r->t_local_kernels, r->t_local_down,
               r->local_runs <= 1       ? "\n"
               : r->local_merge_device ? ", device merge "
                                       : ", host merge ");
    if (r->local_runs > 1)
        printf("%.6f (%llu runs)\n", r->t_local_merge, (unsigned long long)r->local_runs);
    for (size_t L = 0; L < r->layers; L++)
        printf("  layer %-3zu      %.6f  (exchange + merge-split)\n", L + 1, r->t_layer[L]);
    if (!r->layers && strcmp(alg, "sample") == 0)
        printf("  sample+all-to-all+merge %.6f\n", r->t_exchange);
    printf("  verification   %.6f\n", r->t_verify);
    if (o->out)
        printf("  output         %.6f\n", r->t_output);
    printf("  total          %.6f\n", r->t_total);
    double sort_s = r->t_local + r->t_exchange;
    if (sort_s > 0)
        printf("keys per second (local sort + exchanges): %.4g\n", (double)r->n / sort_s);
    printf("bytes sent per rank:");
    for (int i = 0; i < r->ranks; i++)
        printf(" %llu", (unsigned long long)r->bytes_sent[i]);
    printf("\n");
    printf("verification: blocks %s, boundaries %s, multiset %s (hash %016llx -> %016llx)%s\n",
           r->blocks_sorted ? "sorted" : "NOT sorted",
           r->boundaries_ordered ? "ordered" : "NOT ordered", r->multiset_kept ? "kept" : "CHANGED",
           (unsigned long long)r->hash_before, (unsigned long long)r->hash_after,
           r->compared ? ", compared with the reference sort" : "");
    if (r->identical) {
        printf("identical\n");
        return;
    }
    if (r->unsorted_rank >= 0)
        printf("first unsorted block: rank %d at index %llu\n", r->unsorted_rank,
               (unsigned long long)r->unsorted_index);
    if (r->broken_boundary >= 0) {
        printf("first broken boundary: rank %d's last key ", r->broken_boundary);
        cli_print_keys(stdout, o->type, &r->boundary_last, 1);
        printf(" > the next rank's first key ");
        cli_print_keys(stdout, o->type, &r->boundary_first, 1);
        printf("\n");
    }
    if (!r->multiset_kept)
        printf("the keys changed: the hash of all keys differs before and after\n");
    if (r->compared && r->mismatch) {
        printf("first mismatch with the reference: index %llu, %s ",
               (unsigned long long)r->mismatch_index,
               r->mismatch_in_payload ? "payload expected" : "expected");
        if (r->mismatch_in_payload)
            printf("%u, actual %u\n", r->mismatch_expected, r->mismatch_actual);
        else {
            cli_print_keys(stdout, o->type, &r->mismatch_expected, 1);
            printf(", actual ");
            cli_print_keys(stdout, o->type, &r->mismatch_actual, 1);
            printf("\n");
        }
    }
    printf("NOT identical\n");
}
