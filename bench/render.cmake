# bench_render: bitonic:1024 to SVG, PNG and PDF (needs cairo; this file is
# included only when the render part is built).
add_executable(bench_render bench_render.c)
target_link_libraries(bench_render PRIVATE sn_render sn_core)
