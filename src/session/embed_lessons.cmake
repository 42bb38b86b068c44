# embed_lessons.cmake - the shipped lessons (assets/lessons/*.lesson) as C
# strings, so `sortnet view --lesson NAME` works from a copied or installed
# binary. Usage: cmake -DOUT=file.c -DSOURCES="a.lesson;b.lesson" -P embed_lessons.cmake
# Each becomes an entry {name, text} of sn_lesson_sources[], ending {0, 0}.
include(${CMAKE_CURRENT_LIST_DIR}/../embed_util.cmake)
sn_embed_named_texts(${OUT} "src/session/embed_lessons.cmake from assets/lessons" "session/lesson.h"
                     sn_lesson_source sn_lesson_sources sn_lesson "${SOURCES}")
