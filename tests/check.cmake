# The 0-1 checker (src/core/check*.c): its unit test. The end-to-end test
# tests/cli_check.sh is registered by core.cmake with the other cli_*.sh.
sn_test(test_check TIMEOUT 900)
