# The window (src/app): the state machine, script parser and frame drawing
# without a window; end-to-end scripted sessions are tests/cli_view.sh
# (registered with the other cli_*.sh scripts).
if(SORTNET_WITH_SDL)
  sn_test(test_app LIBS sn_app)
  # the tones, rendered offline: no audio driver, no clock
  sn_test(test_sound LIBS sn_app)
endif()
# The lecture-hall parts (side by side, lessons, recordings, the fitted
# layout) without a window; the headless sessions are tests/cli_lecture.sh.
if(SORTNET_WITH_SDL)
  sn_test(test_lecture LIBS sn_app)
endif()
# The window's frames read as scenes: no overlapping, clipped or too small
# text in the hard cases (issue 28).
if(SORTNET_WITH_SDL)
  sn_test(test_frame_scene LIBS sn_app)
endif()
# Edit mode's race against the computer's search (race.c, its view verbs
# and panel); the headless window sessions are tests/cli_race.sh.
if(SORTNET_WITH_SDL)
  sn_test(test_race LIBS sn_app)
endif()
# The window's dist view (`view dist:P,NET`) without a window, and the
# page's engine opening dist: names.
if(TARGET sn_web_engine)
  sn_test(test_dist_view LIBS sn_web_engine)
endif()
# The window's SDL event handler: a shim preloaded into `sortnet view` that
# hands it synthesized events (tests/sdl_events.c, tests/cli_view_events.sh).
if(SORTNET_WITH_SDL)
  add_library(sn_sdl_events MODULE sdl_events.c)
  target_link_libraries(sn_sdl_events PRIVATE PkgConfig::SDL2 ${CMAKE_DL_LIBS})
endif()
