# The session (src/session) and the headless backend (src/headless): the
# state machine, script parser and frame drawing without a window;
# end-to-end scripted sessions are tests/cli_view.sh (registered with the
# other cli_*.sh scripts).
# The session alone: no SDL, no cairo, no browser (gestures, lessons,
# scripts, the state dump, an out-of-memory countdown).
sn_test(test_session LIBS sn_session sn_session_verdict)
# A lesson's exercises in the session: every kind answered right and
# wrong, the score, the caption, the hand-in line, out of memory.
sn_test(test_exercise_session LIBS sn_session sn_session_verdict TIMEOUT 600)
# Links (session/link.h): the codec, every malformed form, a session opened from one.
sn_test(test_link LIBS sn_session sn_session_verdict)
if(TARGET sn_headless)
  sn_test(test_app LIBS sn_headless)
endif()
# the window's tones, rendered offline: no audio driver, no clock
if(TARGET sn_window)
  sn_test(test_sound LIBS sn_window)
endif()
# The lecture-hall parts (side by side, lessons, recordings, the fitted
# layout) without a window; the headless sessions are tests/cli_lecture.sh.
if(TARGET sn_headless)
  sn_test(test_lecture LIBS sn_headless)
endif()
# The window's frames read as scenes: no overlapping, clipped or too small
# text in the hard cases (issue 28).
if(TARGET sn_headless)
  sn_test(test_frame_scene LIBS sn_headless)
endif()
# Edit mode's race against the computer's search (race.c, its view verbs
# and panel); the headless window sessions are tests/cli_race.sh.
if(TARGET sn_headless)
  sn_test(test_race LIBS sn_headless)
endif()
# The window's dist view (`view dist:P,NET`) without a window, and the
# page's engine opening dist: names.
if(TARGET sn_web_engine)
  sn_test(test_dist_view LIBS sn_web_engine)
endif()
# The window's SDL event handler: a shim preloaded into `sortnet view` that
# hands it synthesized events (tests/sdl_events.c, tests/cli_view_events.sh).
if(TARGET sn_window)
  add_library(sn_sdl_events MODULE sdl_events.c)
  target_link_libraries(sn_sdl_events PRIVATE PkgConfig::SDL2 ${CMAKE_DL_LIBS})
endif()
# A build without SDL2 checks its headless pictures against a build with
# the window: tools/setup.sh's no-SDL stage passes the first build's
# binary (-DSORTNET_VIEW_REFERENCE=PATH), and cli_view_headless then
# compares every case's PNG and state with that binary's, pixel for pixel.
set(SORTNET_VIEW_REFERENCE "" CACHE FILEPATH "Another sortnet to compare view's pictures with (tests)")
if(SORTNET_VIEW_REFERENCE AND TEST cli_view_headless)
  set_property(TEST cli_view_headless APPEND PROPERTY ENVIRONMENT
               "SN_VIEW_REFERENCE=${SORTNET_VIEW_REFERENCE}")
endif()
