# wasm_module.cmake (cmake -P, -DWASM=the module): the page's WebAssembly
# module is one (magic bytes), and stays under the page's budget of 900 KB
# (the HTML file that carries it, base64 and all, must stay under 1.5 MB).
if(NOT EXISTS ${WASM})
  message(FATAL_ERROR "${WASM}: missing (build the target sn_wasm)")
endif()
file(SIZE ${WASM} size)
file(READ ${WASM} magic LIMIT 4 HEX)
if(NOT magic STREQUAL "0061736d")
  message(FATAL_ERROR "${WASM}: not a WebAssembly module (starts with ${magic})")
endif()
math(EXPR kb "${size} / 1024")
if(size GREATER 921600)
  message(FATAL_ERROR "${WASM}: ${kb} KB, over the page's budget of 900 KB")
endif()
message(STATUS "${WASM}: ${kb} KB")
