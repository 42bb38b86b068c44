# The distributed sort's single-process baseline (bench/dist_bench.sh).
add_executable(bench_dist_ref bench_dist_ref.c)
target_link_libraries(bench_dist_ref PRIVATE sn_mpi)
