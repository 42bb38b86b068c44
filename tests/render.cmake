# Diagram tests (cairo): layout geometry, drawing pixels and every export.
if(TARGET sn_render)
  sn_test(test_layout LIBS sn_render)
  sn_test(test_draw LIBS sn_render)
  sn_test(test_scene LIBS sn_render)
  sn_test(test_plot LIBS sn_render)
  sn_test(test_render_export LIBS sn_render)
  sn_test(test_render_oom LIBS sn_render)
endif()
