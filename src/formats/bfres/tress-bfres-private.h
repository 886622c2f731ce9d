/* tress-bfres-private.h: the BFRES model shared by the parser, the editor and
 * the format entry points
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include "core/tress-reader.h"
#include "tress-bfres.h"
#include "tress-sarc.h"

G_BEGIN_DECLS

#define BFRES_HEADER_SIZE 0x6C
#define BFRES_N_GROUPS 12
#define BFRES_V3_4 0x03040000u

typedef enum
{
  BFRES_LAYER_YAZ0,
  BFRES_LAYER_SARC,
} BfresLayerKind;

/* One container around the BFRES, outermost first. */
typedef struct
{
  BfresLayerKind kind;
  GBytes *bytes;      /* this layer's own bytes as read */
  guint8 reserved[8]; /* Yaz0 header bytes 8..15 */
  TressSarc *sarc;    /* SARC: the archive, and the BFRES entry in it */
  guint sarc_index;
} BfresLayer;

/* A curve array lying over the file's structure (a header, table or name the
 * parse read): never rewritten in place, reported by validate. */
typedef struct
{
  guint curve;
  gboolean keys;   /* else the frame array */
  gsize structure; /* where the structure it covers starts */
} BfresClash;

typedef struct
{
  int group; /* index group 2..8 */
  char *name;
  const char *kind; /* "Skeletal", … */
  const char *magic;
  gsize pos;
  guint32 flags;
  gint32 frame_count;
  gsize frame_count_pos;
  guint frame_count_size;
  gboolean loops;
  gsize baked_size_pos;
  guint32 declared_curves;
  guint first_curve;
  guint n_curves;
  char **textures; /* FTXP: texture names by index (NULL-terminated) */
  guint n_textures;
} BfresAnim;

typedef struct
{
  guint anim;
  gsize pos; /* curve header */
  guint16 flags;
  guint16 n_keys;
  guint32 target;
  float start, end;
  guint32 scale_bits, offset_bits;
  float delta;
  gsize frames_pos, keys_pos; /* 0 when null */
  gsize frames_cap, keys_cap; /* bytes that may be rewritten in place */
  const char *path;           /* in TressBfres.strings */
  const char *component;      /* in TressBfres.strings, or NULL */
} BfresCurve;

typedef struct
{
  int group;
  guint count;
  char **names;
  gsize pos; /* the index group, 0 when absent */
} BfresGroupInfo;

/* What a save hands out without copying: the edited bytes, read in place
 * until the next edit (which then copies them first). */
typedef struct _BfresLoan BfresLoan;

struct _TressBfres
{
  const guint8 *d; /* the BFRES with edits: the original bytes until the first edit */
  gsize size;
  GByteArray *data; /* NULL until the first edit (copy on write) */
  BfresLoan *loan;  /* bytes handed out that still read b->data in place, or NULL */
  GBytes *original; /* the BFRES as read */
  GBytes *file;     /* the outermost bytes as read */
  GArray *layers;   /* BfresLayer, outermost first */
  char *container;
  char *filename;
  guint32 version;
  gsize curve_header_size;
  char *name;
  GPtrArray *anims;      /* BfresAnim */
  GArray *curves;        /* BfresCurve */
  GStringChunk *strings; /* curve paths and components */
  BfresGroupInfo groups[BFRES_N_GROUPS];
  GPtrArray *notes;
  GArray *clashes; /* BfresClash, usually empty */ /* strings: things kept but not editable */
  double tolerance;
  /* Float curves edited: curve index → guint32 lineage per key (see
   * tress-bfres-edit.c); absent for a curve never re-encoded. */
  GHashTable *lineage;
  char *notice; /* what the last edit changed beyond the values asked for, or NULL */
};

static inline BfresCurve *
bfres_curve (TressBfres *b, guint i)
{
  return &g_array_index (b->curves, BfresCurve, i);
}

static inline BfresAnim *
bfres_anim (TressBfres *b, guint i)
{
  return g_ptr_array_index (b->anims, i);
}

/* The bytes, made writable (copied on the first edit, and on the first edit
 * after a save whose bytes are still held). */
guint8 *bfres_writable (TressBfres *b);
/* Ends the loan of b->data, if any: the bytes handed out keep the array as it
 * is, and b->data is dropped (NULL). */
void bfres_end_loan (TressBfres *b);
/* After resizing b->data. */
static inline void
bfres_sync (TressBfres *b)
{
  b->d = b->data->data;
  b->size = b->data->len;
}

/* Big-endian access to checked positions. */
static inline guint16
bfres_get_u16 (const TressBfres *b, gsize pos)
{
  return tress_get_u16 (b->d + pos, TRESS_BIG_ENDIAN);
}

static inline guint32
bfres_get_u32 (const TressBfres *b, gsize pos)
{
  return tress_get_u32 (b->d + pos, TRESS_BIG_ENDIAN);
}

static inline float
bfres_get_f32 (const TressBfres *b, gsize pos)
{
  return tress_get_f32 (b->d + pos, TRESS_BIG_ENDIAN);
}
void bfres_put_u16 (TressBfres *b, gsize pos, guint16 v);
void bfres_put_u32 (TressBfres *b, gsize pos, guint32 v);
void bfres_put_f32 (TressBfres *b, gsize pos, float v);

static inline TressBfresFrameType
bfres_curve_frame_type (const BfresCurve *c)
{
  return c->flags & 3;
}
static inline TressBfresKeyType
bfres_curve_key_type (const BfresCurve *c)
{
  return (c->flags >> 2) & 3;
}
static inline TressBfresCurveType
bfres_curve_type (const BfresCurve *c)
{
  return (c->flags >> 4) & 7;
}

gboolean bfres_curve_type_is_float (TressBfresCurveType t);
gboolean bfres_curve_type_is_bool (TressBfresCurveType t);
guint bfres_values_per_key (TressBfresCurveType t);
gsize bfres_frame_size (TressBfresFrameType t);
gsize bfres_key_size (TressBfresKeyType t);
gsize bfres_frames_bytes (TressBfresFrameType ft, guint n);
gsize bfres_keys_bytes (TressBfresCurveType ct, TressBfresKeyType kt, guint n);
/* The curve's share of its animation's bakedSize. */
guint32 bfres_baked_contribution (TressBfresCurveType ct, TressBfresKeyType kt, float start,
                                  float end);

/* "Skeletal", "Shader param", … for index group @group (0-11). */
const char *bfres_group_kind (int group);

/* Re-reads a curve's header fields from the bytes (after a restore). */
void bfres_curve_reload (TressBfres *b, guint index);
double bfres_frame_at (const TressBfres *b, const BfresCurve *c, guint i);
/* Element @i of the key array: raw (unscaled) value, or bit for bool curves. */
double bfres_elem_at (const TressBfres *b, const BfresCurve *c, guint i);

/* Bulk decoding: @out holds n_keys frames / n_keys × values-per-key elements
 * (raw, unscaled; bool curves: n_keys bits). */
void bfres_decode_frames (const TressBfres *b, const BfresCurve *c, double *out);
void bfres_decode_elems (const TressBfres *b, const BfresCurve *c, double *out);

TressCurve *bfres_get_curve (TressBfres *b, guint index);
gboolean bfres_set_curve (TressBfres *b, guint index, const TressCurve *curve, int want_type,
                          int min_frame_type, int min_key_type, double *max_error, GError **error);
/* What storing a curve gives, or would give. */
typedef struct
{
  double error;       /* the largest distance of a stored value from the one asked for */
  double moved;       /* the largest move of a value or arrival the edit left alone */
  double step_before; /* the values' step before and after (0: 32-bit floats) */
  double step_after;
  TressBfresKeyType key_type;
  gsize growth; /* bytes the file grows by */
} BfresEncodeResult;

/* What bfres_set_curve (…, -1, -1, @min_key_type, …) would give, nothing stored. */
gboolean bfres_preview_curve (TressBfres *b, guint index, const TressCurve *curve, int min_key_type,
                              BfresEncodeResult *res, GError **error);
/* How many bytes the file grows by when curve @index gets frame and key
 * arrays of these lengths (0 when they fit where the old ones are). */
gsize bfres_growth (TressBfres *b, guint index, gsize frames_len, gsize keys_len);
/* The step curve @index's values would get re-encoded with key type @kt (1 for
 * 32-bit floats, whose scale stays 1); FALSE for curves of other types. */
gboolean bfres_widening_step (TressBfres *b, guint index, TressBfresKeyType kt, double *step);
/* Makes @fres (the BFRES itself, no container) the model's bytes, parsed
 * again; the containers stay (tress-bfres-adopt.c). FALSE with an error, the
 * model untouched, when they do not parse. */
gboolean bfres_adopt_fres (TressBfres *b, GBytes *fres, GError **error);
GBytes *bfres_save_state (TressBfres *b, guint index);
void bfres_restore_state (TressBfres *b, guint index, GBytes *state);

/* Structure writing (tress-bfres-layout.c). */
/* Where the characters of @name are in the string pool, or 0. */
gsize bfres_pool_find (const TressBfres *b, const char *name);
/* Where the offset field at @field of @d points, or 0 (null, or outside). */
gsize bfres_target (const guint8 *d, gsize size, gsize field);
/* @n zero bytes at the next 4-aligned end of @out; returns where they start. */
gsize bfres_append_zeros (GByteArray *out, gsize n);
/* The offset field at @field pointing to @target (0: null). */
void bfres_put_offset (GByteArray *out, gsize field, gsize target);
/* @name appended in the string pool's form (u32 length, bytes, NUL, padded to
 * 4); returns where its characters are. */
gsize bfres_append_name (GByteArray *out, const char *name);
/* The trie of an index group of @n entries named @names, in entry order:
 * refBit, left and right of nodes 0 (the root) … n. */
void bfres_group_trie (const char *const *names, guint n, guint32 *bits, guint16 *left,
                       guint16 *right);
/* An index group of @n entries at @pos of @out (8 + 16 · (n + 1) bytes
 * there): entry k named @names[k] (characters at @name_at[k]) with data at
 * @data_at[k]; the root node's name and data point to @root_name and
 * @root_data (0: null). */
void bfres_write_group (GByteArray *out, gsize pos, const char *const *names, const gsize *name_at,
                        const gsize *data_at, guint n, gsize root_name, gsize root_data);
/* UTF-8 text of 1 to @max bytes without control characters. */
gboolean bfres_name_ok (const char *name, gsize max);

/* Names in curve paths and messages are cut to this many bytes (a corrupted
 * name offset can reach a megabyte of bytes; a path per curve repeating it
 * would not be bounded by the file). The model keeps the whole name. */
#define BFRES_NAME_SHOWN 96

typedef char BfresShownName[BFRES_NAME_SHOWN + 1];

/* @name, or its first bytes (whole characters) and "…" in @buf. */
static inline const char *
bfres_shown_name (const char *name, BfresShownName buf)
{
  const char *cut;

  if (strnlen (name, BFRES_NAME_SHOWN + 1) <= BFRES_NAME_SHOWN)
    return name;
  cut = name + BFRES_NAME_SHOWN - 3;
  while (cut > name && ((guchar)*cut & 0xC0) == 0x80)
    cut--;
  memcpy (buf, name, (gsize)(cut - name));
  memcpy (buf + (cut - name), "\xe2\x80\xa6", 4);
  return buf;
}

/* The format's dump (tress-bfres-json.c) and build (tress-bfres-json-build.c). */
void bfres_dump_json (gpointer model, TressJsonWriter *w);
gboolean bfres_build_json (TressJsonReader *r, TressJsonBuild *out);

G_END_DECLS
