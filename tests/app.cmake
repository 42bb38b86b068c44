# The window (src/app): the state machine, script parser and frame drawing
# without a window; end-to-end scripted sessions are tests/cli_view.sh
# (registered with the other cli_*.sh scripts).
if(SORTNET_WITH_SDL)
  sn_test(test_app LIBS sn_app)
endif()
