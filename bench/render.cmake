# bench_render: bitonic:1024 to SVG and PNG (needs cairo). The bench_*.c
# glob above already made the target; give it sn_render, or leave it out
# of the default build when cairo is off.
if(TARGET bench_render)
  if(TARGET sn_render)
    target_link_libraries(bench_render PRIVATE sn_render)
  else()
    set_target_properties(bench_render PROPERTIES EXCLUDE_FROM_ALL TRUE)
  endif()
endif()
