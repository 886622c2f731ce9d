/* tress-bfres-json-private.h: what the pieces of the BFRES dump and build share
 *
 * tress-bfres-json.c digests the stored form, describes its container
 * layers and dumps the file; tress-bfres-json-read.c reads the JSON's
 * curves, animations and layers; tress-bfres-json-stored.c puts the stored
 * form back together from them and checks it; tress-bfres-json-build.c
 * applies the edits and is the build's entry point.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-bfres-private.h"

G_BEGIN_DECLS

#define BFRES_JSON_VERSION 1

/* One layer of the containers as the JSON describes it. */
typedef struct
{
  gboolean yaz0;
  guint8 reserved[8];
  /* SARC */
  gsize size, entry_start, entry_end;
  guint entry;
  GArray *chunks; /* Chunk */
} Layer;

typedef struct
{
  gsize offset;
  GBytes *bytes;
} Chunk;

typedef struct
{
  gsize start, end;
} Range;

/* A raw element: a number, or a float given by its bits. */
typedef struct
{
  double d;
  guint32 bits;
  gboolean is_bits;
} Raw;

typedef struct
{
  char *path; /* JSON Pointer of the curve object */
  gint64 pos;
  guint32 flags, target, scale_word;
  gint64 offset_int;
  float start, end, scale, offset_f, delta;
  gint64 frames_offset, keys_offset; /* -1: null */
  GArray *raw_frames, *raw_keys;     /* Raw */
  char *digest;
  GArray *keys; /* TressJsonKey, or NULL when not given */
  guint64 seen;
  gsize keys_path_len;
  GArray *zeros; /* gsize: where put_curve wrote a float +0 (see find_negative_zeros) */
} CurveIn;

typedef struct
{
  char *path;
  gint64 frame_count;
  gboolean has_frame_count;
  GArray *curves; /* CurveIn */
} AnimIn;

enum
{
  C_OFFSET,
  C_FLAGS,
  C_TARGET,
  C_START,
  C_END,
  C_SCALE,
  C_SCALE_WORD,
  C_OFFSET_VALUE,
  C_DELTA,
  C_FRAMES_OFFSET,
  C_KEYS_OFFSET,
  C_RAW_FRAMES,
  C_RAW_KEYS,
  C_DIGEST,
  C_KEYS,
};

/* The members of a curve object, in the order of the C_ values (tress-bfres-json-read.c). */
extern const char *const _tress_bfres_json_curve_names[];

guint32 _tress_bfres_json_float_to_bits (float f);
void _tress_bfres_json_curve_digest (const guint8 *d, gsize hs, gsize pos, gsize frames_pos,
                                     gsize fb, gsize keys_pos, gsize kb, char out[17]);
char *_tress_bfres_json_stored_digest (const Layer *layers, guint n_layers, const guint8 *d,
                                       gsize size);
GArray *_tress_bfres_json_chunks_new (void);
void _tress_bfres_json_layer_clear (Layer *l);
void _tress_bfres_json_merge_ranges (GArray *ranges);
void _tress_bfres_json_anim_in_clear (gpointer p);
void _tress_bfres_json_read_anim (TressJsonReader *r, AnimIn *a);
GArray *_tress_bfres_json_read_chunks (TressJsonReader *r);
void _tress_bfres_json_read_layer (TressJsonReader *r, Layer *l);
gboolean _tress_bfres_json_check_span (TressJsonReader *r, const char *path, gsize offset, gsize n,
                                       gsize size, const char *what);
gboolean _tress_bfres_json_put_curve (TressJsonReader *r, CurveIn *c, guint8 *d, gsize size,
                                      gsize hs);
gboolean _tress_bfres_json_check_pieces (TressJsonReader *r, GArray *ranges, GArray *pieces,
                                         gsize size, const char *prefix, const char *what,
                                         const char *hint);
GArray *_tress_bfres_json_curve_ranges (GArray *anims, gsize hs);
void _tress_bfres_json_curve_in_digest (const guint8 *d, gsize hs, const CurveIn *c, char out[17]);
gboolean _tress_bfres_json_restore_negative_zeros (TressJsonReader *r, guint8 *d, gsize hs,
                                                   const CurveIn *c, gsize *budget);
const char *_tress_bfres_json_hint_for (const char *name);

G_END_DECLS
