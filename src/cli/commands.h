/* commands.h - the subcommands of `sortnet`; each takes argv with argv[0]
 * being the subcommand's name and returns an exit code (cli.h). */
#ifndef SN_COMMANDS_H
#define SN_COMMANDS_H

int cmd_gen(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_transform(int argc, char **argv); /* cmd_transform.c */
int cmd_search(int argc, char **argv);    /* cmd_search.c */
int cmd_check(int argc, char **argv); /* cmd_check.c (SN_HAVE_CHECK) */
int cmd_draw(int argc, char **argv);  /* cmd_draw.c (SN_HAVE_CAIRO) */
int cmd_gpu(int argc, char **argv);   /* cmd_gpu.c (SN_HAVE_OPENCL) */
int cmd_view(int argc, char **argv);  /* cmd_view.c (SN_HAVE_SDL) */
/* `sortnet gpu sort` (cmd_gpu_sort.c, SN_HAVE_OPENCL); argv[0] = "sort" */
int cmd_gpu_sort(int argc, char **argv);
/* `sortnet web` (cmd_web.c, SN_HAVE_WEB) */
int cmd_web(int argc, char **argv);
/* `sortnet dist sort` (cmd_dist.c, SN_HAVE_MPI) */
int cmd_dist(int argc, char **argv);

#endif
