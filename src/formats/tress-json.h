/* tress-json.h: the JSON text of `tress-cli dump` and `tress-cli build`
 *
 * A streaming writer and a pull reader, so that a file of a million lines
 * goes to text and back without a tree of nodes in memory (json-glib's
 * JsonBuilder and JsonParser hold some 100 bytes a number: 2.5 GB for a
 * 100,000-ribbon creature). json-glib still carries the small pieces that
 * are easier as trees: a member the reader does not know is captured as a
 * JsonNode and compared with what the rebuilt file gives.
 *
 * Numbers that stand for a 32-bit float are written with the fewest digits
 * that read back to the same bits (through a double, as every JSON reader
 * does); values a JSON number cannot hold (NaN, infinities) are written as
 * the string "0x" + the eight hex digits of the bits, which the reader
 * accepts wherever a float goes.
 *
 * The reader keeps the path of the value it is at as a JSON Pointer
 * (RFC 6901: "/materials/0/lines/12/weights"), and every refusal names it.
 * A value of the wrong type is refused and skipped, so one pass lists every
 * such mistake; broken syntax (truncated text) stops the reading.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <stdio.h>

#include "tress-problem.h"

G_BEGIN_DECLS

/* ---- writer ---------------------------------------------------------------- */

typedef struct _TressJsonWriter TressJsonWriter;

/* Text into memory (tress_json_writer_free_to_bytes), or to @out in chunks
 * (check tress_json_writer_finish for write errors). */
TressJsonWriter *tress_json_writer_new (void);
TressJsonWriter *tress_json_writer_new_for_stream (GOutputStream *out);
TressJsonWriter *tress_json_writer_new_for_file (FILE *file);
/* A writer that produces no text and keeps, for each JSON Pointer in @paths,
 * the value written there as a JsonNode (see tress_json_writer_get_captured). */
TressJsonWriter *tress_json_writer_new_capture (GHashTable *paths);
/* Capture and digest mode: members named in @names (NULL-terminated) are
 * left out of the captured (or digested) values, at any depth, and cost
 * nothing to write. */
void tress_json_writer_capture_skip (TressJsonWriter *w, const char *const *names);
/* Capture mode: an object or array at a pointer in @paths, inside a captured
 * value, is captured empty; where @paths of tress_json_writer_new_capture has
 * it too, it is also captured whole on its own. Two dumps can so be compared
 * a piece at a time, each piece without the pieces below it. */
void tress_json_writer_capture_prune (TressJsonWriter *w, GHashTable *paths);

#define TRESS_JSON_DIGEST_SIZE 32

/* What a digest writer tells of each object and array, in the order written. */
typedef struct
{
  /* One begins: the member it is the value of (NULL in an array, and for the
   * whole text) or its index in the array. */
  void (*begin) (gpointer user_data, const char *member, guint index, gboolean array);
  /* The last one begun and not ended ends: the SHA-256 of its text (with the
   * digests of the objects and arrays in it standing for their text), the
   * length of that text, whether an object or array is among its values, and
   * how many values it has (members left out not counted). */
  void (*end) (gpointer user_data, const guint8 *digest, gsize size, gboolean nested, guint count);
} TressJsonDigestFuncs;

/* A writer that keeps no text but tells @funcs a digest of every object and
 * array: two values at the same pointer of two dumps with the same digest are
 * the same. */
TressJsonWriter *tress_json_writer_new_digest (const TressJsonDigestFuncs *funcs,
                                               gpointer user_data);
void tress_json_writer_free (TressJsonWriter *w);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressJsonWriter, tress_json_writer_free)
/* Flushes the rest to the stream; FALSE with the first write error. */
gboolean tress_json_writer_finish (TressJsonWriter *w, GError **error);
/* The text written (with a final newline); frees the writer. */
GBytes *tress_json_writer_free_to_bytes (TressJsonWriter *w);
/* The value captured at @path, or NULL (owned by the writer). */
JsonNode *tress_json_writer_get_captured (TressJsonWriter *w, const char *path);

/* An object or array: members or elements each on a line of their own (an
 * array's plain values stay together on one line). The _compact forms put the
 * whole value on one line, for the many small records of a file. */
void tress_json_begin_object (TressJsonWriter *w);
void tress_json_begin_object_compact (TressJsonWriter *w);
void tress_json_end_object (TressJsonWriter *w);
void tress_json_begin_array (TressJsonWriter *w);
void tress_json_begin_array_compact (TressJsonWriter *w);
void tress_json_end_array (TressJsonWriter *w);
/* The name of the next member of the object being written. */
void tress_json_member (TressJsonWriter *w, const char *name);

void tress_json_add_null (TressJsonWriter *w);
void tress_json_add_bool (TressJsonWriter *w, gboolean v);
void tress_json_add_int (TressJsonWriter *w, gint64 v);
/* Shortest text that reads back to the same double; non-finite → null;
 * negative zero → "-0.0" (which Python's json, say, keeps; "-0" it reads as
 * the integer 0). */
void tress_json_add_double (TressJsonWriter *w, double v);
/* Shortest text that reads back (as a double, then rounded) to the same float
 * bits; non-finite → the "0x…" bits string. */
void tress_json_add_float (TressJsonWriter *w, float v);
void tress_json_add_float_bits (TressJsonWriter *w, guint32 bits);
/* @s is UTF-8 (invalid sequences are replaced). */
void tress_json_add_string (TressJsonWriter *w, const char *s);
void tress_json_add_string_len (TressJsonWriter *w, const char *s, gsize len);
void tress_json_add_base64 (TressJsonWriter *w, const void *data, gsize len);
/* A json-glib tree (e.g. one a JsonBuilder made). */
void tress_json_add_node (TressJsonWriter *w, JsonNode *node);

/* member + value in one call */
void tress_json_int_member (TressJsonWriter *w, const char *name, gint64 v);
void tress_json_bool_member (TressJsonWriter *w, const char *name, gboolean v);
void tress_json_double_member (TressJsonWriter *w, const char *name, double v);
void tress_json_float_member (TressJsonWriter *w, const char *name, float v);
void tress_json_string_member (TressJsonWriter *w, const char *name, const char *v);
void tress_json_base64_member (TressJsonWriter *w, const char *name, const void *data, gsize len);
/* A member listing @problems, one object each: severity, location, offset,
 * message, fix, and "more" for a summary row (the count it stands for). */
void tress_json_problems_member (TressJsonWriter *w, const char *name, GPtrArray *problems);
/* Arrays of plain values on one line. */
void tress_json_floats_member (TressJsonWriter *w, const char *name, const float *v, gsize n);
void tress_json_u8s_member (TressJsonWriter *w, const char *name, const guint8 *v, gsize n);
void tress_json_u32s_member (TressJsonWriter *w, const char *name, const guint32 *v, gsize n);

/* ---- reader ---------------------------------------------------------------- */

typedef struct _TressJsonReader TressJsonReader;

typedef enum
{
  TRESS_JSON_NONE, /* no value here (end of text, or after a syntax error) */
  TRESS_JSON_NULL,
  TRESS_JSON_BOOL,
  TRESS_JSON_NUMBER,
  TRESS_JSON_STRING,
  TRESS_JSON_ARRAY,
  TRESS_JSON_OBJECT,
} TressJsonType;

/* @text must outlive the reader; it is not copied. */
TressJsonReader *tress_json_reader_new (const char *text, gsize len);
void tress_json_reader_free (TressJsonReader *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressJsonReader, tress_json_reader_free)
/* Back to the start of the text, refusals kept. */
void tress_json_reader_rewind (TressJsonReader *r);

/* FALSE after broken syntax: nothing more is read. */
/* What a build from this reader may do to the file beyond the values the JSON
 * gives (TressCommitConsent flags, tress-curve-commit.h): a coarser step or a
 * wider value type for a quantized curve. 0 unless set. */
void tress_json_reader_set_consent (TressJsonReader *r, guint consent);
guint tress_json_reader_get_consent (TressJsonReader *r);
gboolean tress_json_reader_ok (TressJsonReader *r);
/* Every refusal so far (TressProblem, location = JSON Pointer), in order. */
GPtrArray *tress_json_reader_get_problems (TressJsonReader *r);
guint tress_json_reader_n_errors (TressJsonReader *r);
/* The JSON Pointer of the value being read (newly allocated). */
char *tress_json_reader_path (TressJsonReader *r);
/* Records a refusal at the current path / at @path, and returns FALSE. */
gboolean tress_json_reader_refuse (TressJsonReader *r, const char *format, ...)
    G_GNUC_PRINTF (2, 3);
gboolean tress_json_reader_refuse_at (TressJsonReader *r, const char *path, const char *format, ...)
    G_GNUC_PRINTF (3, 4);
/* A note (not a refusal) at @path. */
void tress_json_reader_note_at (TressJsonReader *r, const char *path, const char *format, ...)
    G_GNUC_PRINTF (3, 4);

/* The type of the value at the reader. */
TressJsonType tress_json_reader_peek (TressJsonReader *r);
/* Enters an object / array; FALSE (refused, value skipped) for another type. */
gboolean tress_json_reader_begin_object (TressJsonReader *r);
gboolean tress_json_reader_begin_array (TressJsonReader *r);
/* The next member's name (valid until the next call at this depth), or NULL
 * after the last one (the object is left). */
const char *tress_json_reader_next_member (TressJsonReader *r);
/* TRUE when the array has another element (the reader is at it); FALSE after
 * the last one (the array is left). */
gboolean tress_json_reader_next_element (TressJsonReader *r);
/* Index of the element the reader is at in the innermost array. */
guint tress_json_reader_get_index (TressJsonReader *r);
/* Leaves the innermost object or array, skipping what is left of it. */
void tress_json_reader_leave (TressJsonReader *r);

/* The next member of the object among @names (NULL-terminated; at most 64):
 * its index; -1 for a name not among them (the reader is at its value);
 * -2 after the last member. A member given twice is refused and skipped.
 * @seen: a bit per name, set as they come. */
int tress_json_reader_next_known (TressJsonReader *r, const char *const *names, guint64 *seen);
/* Refuses each of @names (indices with a bit in @required) not in @seen, at
 * the object's path (call right after the last next_known). */
gboolean tress_json_reader_require (TressJsonReader *r, const char *const *names, guint64 required,
                                    guint64 seen, const char *object_path);
/* Notes each of @names (indices with a bit in @optional) not in @seen: an
 * optional member left out is no refusal, and the note says what build does
 * without it (@without: "the curve's keys stay as stored"). */
void tress_json_reader_note_missing (TressJsonReader *r, const char *const *names, guint64 optional,
                                     guint64 seen, const char *object_path, const char *without);

/* Values. On a wrong type or range each refuses ("expected …, found …"),
 * skips the value and returns FALSE, leaving *out alone. */
gboolean tress_json_reader_read_int (TressJsonReader *r, gint64 min, gint64 max, gint64 *out);
gboolean tress_json_reader_read_u32 (TressJsonReader *r, guint32 *out);
gboolean tress_json_reader_read_u8 (TressJsonReader *r, guint8 *out);
/* A number, or the "0x…" bits string; a double may not be NaN or infinite. */
gboolean tress_json_reader_read_double (TressJsonReader *r, double *out);
gboolean tress_json_reader_read_float (TressJsonReader *r, float *out);
gboolean tress_json_reader_read_bool (TressJsonReader *r, gboolean *out);
/* A string (valid UTF-8), or NULL. */
char *tress_json_reader_read_string (TressJsonReader *r);
/* A base64 string; @max_len bounds the decoded size (0: no bound). */
GBytes *tress_json_reader_read_base64 (TressJsonReader *r, gsize max_len);
/* An array of exactly @n values. */
gboolean tress_json_reader_read_floats (TressJsonReader *r, float *out, guint n);
gboolean tress_json_reader_read_u8s (TressJsonReader *r, guint8 *out, guint n);
/* An array of u32 of any length up to @max (GArray of guint32), or NULL. */
GArray *tress_json_reader_read_u32_array (TressJsonReader *r, guint max);
/* An array of floats of any length up to @max, or NULL. */
GArray *tress_json_reader_read_float_array (TressJsonReader *r, guint max);
void tress_json_reader_skip (TressJsonReader *r);
/* The value as a json-glib tree (NULL after a syntax error). */
JsonNode *tress_json_reader_capture (TressJsonReader *r);

/* Members a build does not apply: the reader keeps them (JSON Pointer →
 * JsonNode) so they can be checked against what the rebuilt file gives. */
void tress_json_reader_keep_unknown (TressJsonReader *r);
GHashTable *tress_json_reader_get_unknown (TressJsonReader *r);
/* Checks each kept member against what @dump writes for @model at the same
 * path: a member it does not write is refused as unknown, a different value
 * is refused as one build does not apply. @hint (may be NULL) gives, for a
 * member name, what to edit instead. */
gboolean tress_json_reader_check_unknown (TressJsonReader *r,
                                          void (*dump) (gpointer, TressJsonWriter *),
                                          gpointer model, const char *(*hint) (const char *name));

/* The top-level "format" (a string) and "version" (a whole number) of the
 * text, wherever they stand among the members; the reader is rewound after.
 * FALSE (refused) when either is missing or of another type. */
gboolean tress_json_reader_read_header (TressJsonReader *r, char **format, gint64 *version);
/* A build's own top-level "format" member: refused unless it is @format. */
void tress_json_reader_check_format (TressJsonReader *r, const char *format);
/* A build's own top-level "version" member: refused unless it is @version of
 * @schema's JSON (named in the message: "BFRES", "creature-fur"…). */
void tress_json_reader_check_version (TressJsonReader *r, int version, const char *schema);

/* A negative zero that a tool wrote back as 0 (Python's json reads "-0" as an
 * integer; JavaScript keeps no negative zero at all) is the same number but
 * other bytes. Where build checks a read-only part of a file by its digest,
 * the part's floats that are +0 are the @n candidates: this tries them as
 * negative zeros, one, then two, three and four at a time, until @check says
 * the digest is the dumped one. @flip sets candidate @i negative or back;
 * each check costs @cost bytes of @budget, at least 256 (what is left of it
 * stays there).
 * TRUE when found: those candidates stay negative. */
#define TRESS_JSON_ZERO_BUDGET ((gsize)256 << 20)
gboolean tress_json_find_negative_zeros (guint n,
                                         void (*flip) (gpointer data, guint i, gboolean negative),
                                         gboolean (*check) (gpointer data), gpointer data,
                                         gsize cost, gsize *budget);

/* Whether two json-glib values are equal (numbers by value, objects by member). */
gboolean tress_json_node_equal (JsonNode *a, JsonNode *b);

/* "/a/b~1c" pieces: appends "/" + @name escaped as RFC 6901 says. A name
 * longer than TRESS_JSON_QUOTE_CHARS characters is cut there and followed by
 * "…" and its size in bytes, so that a pointer fits in a message. */
void tress_json_pointer_append (GString *path, const char *name);

/* Strings from the JSON quoted in a message: @s (@len bytes, or up to its NUL
 * when @len is -1) between double quotes, with control characters, quotes and
 * backslashes escaped as JSON escapes them; a string of more than
 * TRESS_JSON_QUOTE_CHARS characters is cut there and followed by "…" and its
 * size ("AAAA…" (209715200 bytes)), so that a refusal fits on a screen. */
#define TRESS_JSON_QUOTE_CHARS 60
char *tress_json_quote (const char *s, gssize len);

G_END_DECLS
