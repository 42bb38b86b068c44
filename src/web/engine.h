/* engine.h - the page's engine: the window's state machine (a group of
 * views, their frames, a lesson) without SDL or cairo, driven through
 * plain numbers and UTF-8 strings so that a WebAssembly build can export
 * it to the page's script. The same file builds natively for unit tests
 * (tests/test_web_engine.c), so the page's behaviour is tested without a
 * browser too.
 *
 * One engine per process (per WebAssembly instance): the functions work
 * on a single static engine, as a page holds one. Strings passed in are
 * (pointer, length) pairs of UTF-8 that the caller owns; strings returned
 * are NUL-terminated UTF-8 owned by the engine, valid until the next call
 * that returns a string of the same function.
 *
 * Status codes returned: 0 ok, 2 bad input (snw_error() says
 * "FILE:LINE:COL: why" or "name: why"), 3 out of memory / not possible
 * here. A failed call changes nothing (the network being edited stays).
 *
 * The page paints the scene that snw_frame() builds (render/scene.h, the
 * display list cairo paints natively), read through the packed arrays
 * below; it never computes where anything goes.
 *
 * Packing of the scene (all little-endian doubles, read as Float64Array
 * views of the module's memory; re-read the pointers after every call,
 * memory may grow):
 *   prims:  SNW_PRIM_STRIDE doubles a primitive:
 *     [0] kind (sn_prim_kind)  [1] style index  [2] role (sn_role)
 *     [3] wire  [4] layer  [5] cmp (-1: none)
 *     [6] x0  [7] y0  [8] x1  [9] y1  [10] r  [11] size  [12] base
 *     [13] weight (text: 0 regular, 1 bold); note: its sn_note_kind
 *     [14] first  [15] count: poly: index of its first point and the
 *          number of points; text and note: byte offset and length of
 *          its UTF-8 in the strings buffer
 *   styles: SNW_STYLE_STRIDE doubles a style:
 *     [0..3] fill r g b a  [4..7] stroke r g b a (0..1)  [8] width
 *     [9] dash_on  [10] dash_off  [11] cap  [12] join  [13] flags
 *     [14] [15] 0
 *   points: x, y pairs.
 *   strings: bytes (UTF-8, not NUL-separated: use offset and length).
 *
 * The module (sortnet.wasm, a WASI reactor: call _initialize once)
 * imports env.js_verdict_start, env.js_verdict_cancel and these
 * wasi_snapshot_preview1 calls: fd_write (stderr), clock_time_get, and
 * fd_close, fd_read, fd_seek, fd_filestat_get (the C library's streams;
 * the page's calls never reach them: they may answer ENOSYS, 52). It has
 * no file system (src/web/nofs.c): no preopen scan, no path calls. */
#ifndef SN_WEB_ENGINE_H
#define SN_WEB_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#if defined(__wasm__)
#define SNW_EXPORT(name) __attribute__((export_name(#name)))
#else
#define SNW_EXPORT(name)
#endif

#define SNW_PRIM_STRIDE 16
#define SNW_STYLE_STRIDE 16

/* ---- memory for the script's strings */
SNW_EXPORT(snw_alloc) void *snw_alloc(size_t size);
SNW_EXPORT(snw_free) void snw_free(void *p);

/* The last error's text ("" when none). */
SNW_EXPORT(snw_error) const char *snw_error(void);

/* What the page offers, as JSON: {"generators":[{"name":"bitonic",
 * "describe":"..."},...], "best":[lo,hi], "median":[lo,hi],
 * "lessons":[{"name":"01-...","title":"..."},...], "max_n":N,
 * "zero_one_max_n":20, "formats":["bracket","json","sn"],
 * "actions":["right","left",...]}. */
SNW_EXPORT(snw_catalog) const char *snw_catalog(void);

/* Open network `spec` (a name as on the command line: "bitonic:16",
 * "best:9", "median:25", "empty:4", ...) on input `input` (as the CLI
 * options say it: "random:SEED", "reverse", "sorted", "bits:0110",
 * "list:3,1,2"; empty: random seed 1). Leaves any lesson. */
SNW_EXPORT(snw_open) int snw_open(const char *spec, size_t spec_len, const char *input,
                                  size_t input_len);
/* Open a network from file text in any format sortnet reads (detected);
 * `file` names it in errors and in the title ("pasted" when empty). */
SNW_EXPORT(snw_open_text) int snw_open_text(const char *text, size_t len, const char *file,
                                            size_t file_len, const char *input, size_t input_len);
/* Change the input of the shown network(s) (same syntax as snw_open). */
SNW_EXPORT(snw_set_input) int snw_set_input(const char *input, size_t input_len);

/* Open lesson text (file names it in errors) or a shipped lesson by name
 * (text NULL: name in file); shows its first step. */
SNW_EXPORT(snw_lesson_open) int snw_lesson_open(const char *text, size_t len, const char *file,
                                                size_t file_len);
/* Lesson step i (0-based); 2 when out of range. */
SNW_EXPORT(snw_lesson_go) int snw_lesson_go(size_t i);

/* Leave the lesson shown (its step's networks stay); 1 when one was shown. */
SNW_EXPORT(snw_lesson_close) int snw_lesson_close(void);

/* ---- links (session/link.h, docs/web.md "Links"): the part of the page's
 * address after '#'. snw_link: what is shown now as link text ("" with
 * snw_error() set when it cannot be written). snw_link_open: show what a
 * link names (step, input, lesson and its step); lesson (text, len) and
 * lesson_name are the lesson baked into the page, used when the link names
 * it (NULL: none). A bad link is 2 with snw_error() "link: why" and nothing
 * changed. */
SNW_EXPORT(snw_link) const char *snw_link(void);
SNW_EXPORT(snw_link_open) int snw_link_open(const char *text, size_t len, const char *lesson,
                                            size_t lesson_len, const char *lesson_name,
                                            size_t name_len);

/* Apply an action by its script name (sn_action_parse: "right", "left",
 * "space", "home", "end", "e", "z", "w", "delete", "undo", "redo", ...).
 * In a lesson right/left move between its steps as in the window.
 * Returns 1 when anything visible changed, 0 when not, 2 when the name is
 * unknown. */
SNW_EXPORT(snw_action) int snw_action(const char *name, size_t len);
/* Advance time by dt milliseconds; 1 when anything visible changed. */
SNW_EXPORT(snw_tick) int snw_tick(double dt_ms);
/* 1 while playing or animating (the page keeps drawing). */
SNW_EXPORT(snw_busy) int snw_busy(void);
/* Go to step k (0..layers) of every view, not animated. */
SNW_EXPORT(snw_step_to) int snw_step_to(size_t k);

/* Pointer events in device pixels of the last frame (w x h at HiDPI s):
 * kind 0 press, 1 move, 2 release, 3 cancel (the press ends and does
 * nothing: a second finger came down); returns 1 when anything changed.
 * Outside edit mode a click follows the element on that wire. In edit
 * mode: press on a wire and release on another adds a comparator (the
 * window's drag), and a click on a wire then a click on another wire adds
 * one too (the page's way on touch screens); a click on a comparator
 * selects it; dragging it moves it. */
SNW_EXPORT(snw_pointer) int snw_pointer(int kind, double x, double y);
/* Mouse wheel: zoom around (x, y) by `notches` (positive: in). */
SNW_EXPORT(snw_wheel) int snw_wheel(double x, double y, double notches);

/* Build the frame of w x h device pixels at HiDPI factor s (the window's
 * whole picture: network pane, bars, status, lesson caption, help) as the
 * current scene; 0 ok. */
SNW_EXPORT(snw_frame) int snw_frame(double w, double h, double s);
SNW_EXPORT(snw_scene_count) size_t snw_scene_count(void);
SNW_EXPORT(snw_scene_prims) const double *snw_scene_prims(void);
SNW_EXPORT(snw_scene_style_count) size_t snw_scene_style_count(void);
SNW_EXPORT(snw_scene_styles) const double *snw_scene_styles(void);
SNW_EXPORT(snw_scene_points) const double *snw_scene_points(void);
SNW_EXPORT(snw_scene_strings) const char *snw_scene_strings(void);
SNW_EXPORT(snw_scene_strings_len) size_t snw_scene_strings_len(void);

/* The state the page's controls and the tests read, as JSON:
 * {"name","n","layers","step","size","depth","values":[..] (keys after
 *  `step` layers, as the wires show them), "input":"random (seed 7)",
 *  "input_spec":"random:7" (the input as snw_set_input takes it:
 *  "reverse", "sorted", "bits:0110", "list:3,1,2"; a lesson's given
 *  values are a list),
 *  "status":"...","message":"...","message_error":bool,"playing":bool,
 *  "edit":bool,"verdict":"sorts"|"does NOT sort: counterexample 0110 ..."
 *  |"checking…"|"","verdict_kind":"none|checking|sorts|fails|unknown",
 *  "cex":"0110","size_text":"5 comparators, best known 5; 3 layers",
 *  "sorted":bool|null (after the last layer),"structure":bool,
 *  "zero_one":bool,"views":K,"can_undo":bool,"can_redo":bool,
 *  "lesson":null|{"title","step":i,"count":c,"step_title","caption"}}
 * and also: "group_step" (several views: the global step), "failing"
 * (failing 0-1 inputs when the verdict fails), "redundant":[comparator
 * indices in layer order that never swap], "selected":null|[layer,index]
 * (edit mode), "pending_wire":-1|w (the first wire of a two-click add),
 * "follow":-1|element, "unsaved":bool, "theme":"light"|"dark"|"contrast",
 * "speed":i (the speed's index, 0 slowest), "speeds":count, "help":bool. */
SNW_EXPORT(snw_state) const char *snw_state(void);

/* The shown network (view 0) as text: "bracket", "json", "sn", or "svg"
 * (the diagram at the current step, whole, as an SVG document). NULL with
 * snw_error() set on failure. */
SNW_EXPORT(snw_export) const char *snw_export(const char *format, size_t len);

/* ---- the live verdict of edit mode, checked in a Web Worker.
 * The engine asks the page to check a network through the imported
 * function js_verdict_start(id, text, len) (id: uint32; text: the network in
 * libsortnetwork's sn form, "Inputs: N" first, which keeps idle wires that
 * bracket form loses; pass it on unread; returns 1 when a worker took it, 0 when none: the engine
 * then checks it itself when the result is needed) and
 * js_verdict_cancel(). The worker's own instance of the module runs
 * snw_check_text() and the page hands its answer back with
 * snw_verdict_deliver(id, answer, len) (1: it was the running job's and
 * the verdict changed; 0: a stale or unknown id, ignored). The answer is
 * one line of text the page passes on unread (src/web/verdict_web.h). A
 * job the worker has not answered when the engine must know (a lesson or
 * step that settles) is checked in the caller and the worker's answer then
 * ignored; js_verdict_cancel() says the running job is no longer wanted. */
SNW_EXPORT(snw_check_text) const char *snw_check_text(const char *text, size_t len);
SNW_EXPORT(snw_verdict_deliver) int snw_verdict_deliver(uint32_t id, const char *answer,
                                                        size_t len);

/* ---- the schedule on the page's GPU (src/web/gpu_plan.c; the runner is
 * src/web/page/webgpu.js with kernels/layer.wgsl, fused.wgsl, digest.wgsl).
 * One plan at a time; its own error text (snw_gpu_error); pointers valid
 * until the next snw_gpu_plan / snw_gpu_keys.
 *
 * snw_gpu_plan: net is a name ("bitonic:1048576", is_text 0) or network
 * text in any format (is_text 1). tile: keys of a workgroup's tile (a
 * power of two). Layer table, SNW_GPU_LAYER_STRIDE words a layer:
 *   [0] kind: SNW_GPU_PARTNERS (explicit: partner row [3] of n words: the
 *       max wire of the comparator on the min wire, on the max wire the min
 *       wire | 0x80000000, 0xFFFFFFFF idle), SNW_GPU_BITONIC,
 *       SNW_GPU_ODDEVEN_MERGE, SNW_GPU_TRANSPOSITION (closed forms with
 *       [1] p, [2] q as in core/schedule.h)
 *   [4] 1 when every comparator stays inside one tile  [5] its pass.
 * Passes, SNW_GPU_PASS_STRIDE words: [0] first layer [1] layers
 * [2] fused (1: a run of >= 2 tile-local layers done in workgroup memory).
 * snw_gpu_keys: input "random:SEED", "special:SEED" (random bits with
 * NaNs, +-0, +-inf), "reverse", "sorted", "bits:0110", "list:3,1,2";
 * type 0 i32, 1 u32, 2 f32; payload: the original index i.
 * snw_gpu_reference: the trace (DIGEST mode); digests: (layers + 1)
 * pairs of uint32 (low, high) of sn_trace_digest(step 0..layers).
 * snw_gpu_state(k): the reference's keys after k layers (payload:
 * snw_gpu_state_payload). snw_gpu_cpu_run: sn_exec_run on a copy (the
 * page times it). snw_gpu_info: JSON {"name","n","layers","size" (-1:
 * not counted),"passes","fused_passes","fused_layers","tile",
 * "partner_rows","type","payload"}. */
#define SNW_GPU_LAYER_STRIDE 8
#define SNW_GPU_PASS_STRIDE 4
enum { SNW_GPU_PARTNERS = 0, SNW_GPU_BITONIC, SNW_GPU_ODDEVEN_MERGE, SNW_GPU_TRANSPOSITION };
SNW_EXPORT(snw_gpu_error) const char *snw_gpu_error(void);
SNW_EXPORT(snw_gpu_plan) int snw_gpu_plan(const char *net, size_t len, int is_text, uint32_t tile);
SNW_EXPORT(snw_gpu_n) uint32_t snw_gpu_n(void);
SNW_EXPORT(snw_gpu_layers) size_t snw_gpu_layers(void);
SNW_EXPORT(snw_gpu_layer_table) const uint32_t *snw_gpu_layer_table(void);
SNW_EXPORT(snw_gpu_pass_count) size_t snw_gpu_pass_count(void);
SNW_EXPORT(snw_gpu_passes) const uint32_t *snw_gpu_passes(void);
SNW_EXPORT(snw_gpu_partners) const uint32_t *snw_gpu_partners(void);
SNW_EXPORT(snw_gpu_partner_rows) size_t snw_gpu_partner_rows(void);
SNW_EXPORT(snw_gpu_keys) int snw_gpu_keys(const char *input, size_t len, int type, int payload);
SNW_EXPORT(snw_gpu_input) const uint32_t *snw_gpu_input(void);
SNW_EXPORT(snw_gpu_input_payload) const uint32_t *snw_gpu_input_payload(void);
SNW_EXPORT(snw_gpu_reference) int snw_gpu_reference(void);
SNW_EXPORT(snw_gpu_digests) const uint32_t *snw_gpu_digests(void);
SNW_EXPORT(snw_gpu_final) const uint32_t *snw_gpu_final(void);
SNW_EXPORT(snw_gpu_final_payload) const uint32_t *snw_gpu_final_payload(void);
SNW_EXPORT(snw_gpu_state) const uint32_t *snw_gpu_state(size_t step);
SNW_EXPORT(snw_gpu_state_payload) const uint32_t *snw_gpu_state_payload(void);
SNW_EXPORT(snw_gpu_cpu_run) int snw_gpu_cpu_run(void);
SNW_EXPORT(snw_gpu_key_text) const char *snw_gpu_key_text(uint32_t bits);
SNW_EXPORT(snw_gpu_info) const char *snw_gpu_info(void);

#endif
