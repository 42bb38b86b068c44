# embed.cmake - turn OpenCL kernel sources into a C file of string arrays, so
# the kernels travel inside the binary (no xxd or other tool needed).
# Usage: cmake -DOUT=file.c -DSOURCES="a.cl;b.cl" -P embed.cmake
# Each a.cl becomes `const char sn_kernel_a[]` (NUL-terminated) plus a table
# sn_kernel_sources[] of {name, text} entries ending with {NULL, NULL}.
include(${CMAKE_CURRENT_LIST_DIR}/../embed_util.cmake)
sn_embed_named_texts(${OUT} "src/gpu/embed.cmake from the kernels folder" "gpu/kernels.h"
                     sn_kernel_source sn_kernel_sources sn_kernel "${SOURCES}")
