/* tress-json-private.h: what the pieces of the JSON writer and reader share
 *
 * tress-json-number.c writes numbers as text; tress-json.c is the writer's
 * state, its capture and digest modes and its containers; tress-json-write.c
 * the writer's values and members; tress-json-read.c the reader's state,
 * refusals, lexing and structure; tress-json-read-values.c its typed values,
 * captured and unknown members and the header.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-json.h"

#include <gio/gio.h>

G_BEGIN_DECLS

#define FLUSH_SIZE (1 << 20)
#define MAX_DEPTH 128
#define MAX_NUMBER 128
/* The longest message and pointer a refusal keeps, in bytes. */
#define MAX_MESSAGE 400

typedef struct
{
  gboolean array;
  gboolean compact;
  gboolean multiline; /* an array that has put an element on a line of its own */
  guint count;        /* members or elements written */
  gsize path_len;     /* capture: length of the container's own path */
  gboolean live;      /* capture: a captured path may lie below */
  gboolean skipped;   /* capture, digest: a member left out (tress_json_writer_capture_skip) */
  gboolean nested;    /* digest: a container is among the values */
  GChecksum *sum;     /* digest: of the container's text */
  gsize size;         /* digest: bytes of text so far */
} WFrame;

/* A capture that a nested one interrupts (tress_json_writer_capture_prune). */
typedef struct
{
  JsonBuilder *cap;
  guint cap_depth;
  gboolean cap_wrapped;
  char *cap_path;
} CapState;

struct _TressJsonWriter
{
  GString *out; /* NULL in capture mode */
  GOutputStream *stream;
  FILE *file;
  GError *error;
  GArray *frames; /* WFrame */
  guint compact_depth;
  char *member; /* capture: name of the member whose value comes next */

  /* capture mode */
  GHashTable *paths;    /* wanted pointers (borrowed) */
  GHashTable *prefixes; /* every proper prefix of a wanted pointer */
  GHashTable *captured; /* pointer → JsonNode */
  GString *path;
  JsonBuilder *cap;
  guint cap_depth;      /* containers open inside the captured value */
  gboolean cap_wrapped; /* a captured plain value, in an array of one */
  char *cap_path;
  GStrv skip;         /* member names left out of captured values */
  guint skip_depth;   /* containers open inside a member left out */
  gboolean skip_next; /* the next value is a member left out */
  GHashTable *prune;  /* pointers of containers captured empty */
  GArray *cap_stack;  /* CapState */

  /* digest mode: the text goes to checksums, never out */
  const TressJsonDigestFuncs *digest;
  gpointer digest_data;
};

typedef struct
{
  gboolean array;
  guint index;   /* elements entered so far − 1 (array) */
  GString *name; /* the current member (object) */
  gboolean has_current;
} RFrame;

struct _TressJsonReader
{
  const char *text;
  const char *p;
  const char *end;
  gboolean broken;
  GPtrArray *problems;
  guint n_errors;
  RFrame frames[MAX_DEPTH];
  guint depth;
  gboolean comma;            /* after_value has just passed a ',' */
  GString *scratch;          /* strings that are skipped */
  GHashTable *unknown;       /* pointer → JsonNode */
  GHashTable *unknown_names; /* pointer → the member's name, quoted (tress_json_quote) */
  guint consent;             /* what a build may do beyond the values given */
};

/* A number token. When @value is non-NULL its value is computed: exactly
 * as strtod does (the digits and a power of ten both exact as doubles give
 * the correctly rounded quotient or product in one operation; other numbers
 * go through g_ascii_strtod). */
typedef struct
{
  double d;
  gboolean integral; /* no fraction or exponent in the text */
  gboolean int_ok;   /* the value is a whole number that fits in @i */
  gint64 i;
} Number;

static inline WFrame *
_tress_json_top_frame (TressJsonWriter *w)
{
  return w->frames->len > 0 ? &g_array_index (w->frames, WFrame, w->frames->len - 1) : NULL;
}

/* Powers of ten as doubles, 1e0 to 1e60 (tress-json-number.c). */
extern const double _tress_json_p10[61];

int _tress_json_put_int (char *buf, gint64 v);
void _tress_json_format_float (char *buf, gsize size, float v);
void _tress_json_format_double (char *buf, gsize size, double v);
gboolean _tress_json_skip_member (TressJsonWriter *w, const char *name);
void _tress_json_indent (TressJsonWriter *w, guint depth);
gboolean _tress_json_scalar_begin (TressJsonWriter *w);
void _tress_json_scalar_end (TressJsonWriter *w);
char *_tress_json_cut_text (char *s, gsize max);
gboolean G_GNUC_PRINTF (2, 3)
    _tress_json_syntax_error (TressJsonReader *r, const char *format, ...);
const char *_tress_json_describe_here (TressJsonReader *r);
gboolean _tress_json_lex_string (TressJsonReader *r, GString *out);
gboolean _tress_json_lex_number (TressJsonReader *r, Number *value);
gboolean _tress_json_lex_literal (TressJsonReader *r, const char *word);
gboolean _tress_json_after_value (TressJsonReader *r);
gboolean _tress_json_wrong_type (TressJsonReader *r, const char *expected);

G_END_DECLS
