# embed_util.cmake - what the build's embedding scripts share (included by
# src/gpu/embed.cmake for the kernels and src/core/embed_networks.cmake for
# the network library): a file's bytes as a C initializer, and writing a
# generated file only when its content changed.

# sn_embed_bytes(VAR PATH): the bytes of PATH as "0x..,0x..,...0x00" (NUL
# appended), 16 values a line, for `static const char x[] = {VAR};`.
function(sn_embed_bytes var path)
  file(READ ${path} hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
  string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n    " hex "${hex}")
  set(${var} "\n    ${hex}0x00" PARENT_SCOPE)
endfunction()

# sn_write_if_changed(PATH CONTENT): replace PATH only when CONTENT differs,
# so an unchanged input does not trigger a rebuild.
function(sn_write_if_changed path content)
  file(WRITE ${path}.tmp "${content}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${path}.tmp ${path})
  file(REMOVE ${path}.tmp)
endfunction()
