/* tress-bfres.h: Wii U BFRES animation files (.bfres, .sbfres, .szs)
 *
 * The model keeps the file's bytes and patches them: an edited curve's frame and
 * key arrays are rewritten in place when they fit, else appended (4-aligned) and
 * re-pointed; nothing else changes, so open → save without edits gives the same
 * bytes. Yaz0 and SARC containers are unwrapped on parse and rebuilt on
 * serialize. See shared/formats/bfres.md.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "formats/tress-format.h"

G_BEGIN_DECLS

extern const TressFormat tress_format_bfres;

typedef struct _TressBfres TressBfres;

/* Curve flag fields (bits 0-1, 2-3, 4-6 of a curve's flags). The numeric order
 * is also the order of width: a smaller frame or key type code is wider. */
typedef enum
{
  TRESS_BFRES_FRAME_F32 = 0,
  TRESS_BFRES_FRAME_S10_5 = 1,
  TRESS_BFRES_FRAME_U8 = 2,
} TressBfresFrameType;

typedef enum
{
  TRESS_BFRES_KEY_32 = 0, /* f32 for float curves, s32 for int curves */
  TRESS_BFRES_KEY_S16 = 1,
  TRESS_BFRES_KEY_S8 = 2,
} TressBfresKeyType;

typedef enum
{
  TRESS_BFRES_CURVE_CUBIC = 0,
  TRESS_BFRES_CURVE_LINEAR = 1,
  TRESS_BFRES_CURVE_BAKED_FLOAT = 2,
  TRESS_BFRES_CURVE_STEP_INT = 4,
  TRESS_BFRES_CURVE_BAKED_INT = 5,
  TRESS_BFRES_CURVE_STEP_BOOL = 6,
  TRESS_BFRES_CURVE_BAKED_BOOL = 7,
} TressBfresCurveType;

typedef struct
{
  const char *path; /* "Fly/Skl_Root/Rotate Z" */
  const char *kind; /* "Skeletal", "Shader param", "Colour", "Texture SRT", … */
  const char *component;
  guint anim; /* index of the animation holding the curve */
  const char *anim_name;
  guint16 flags;
  guint n_keys;
  guint32 target_offset;
  TressBfresFrameType frame_type;
  TressBfresKeyType key_type;
  TressBfresCurveType curve_type;
  TressWrap pre_wrap, post_wrap;
  float start, end;
  float scale, offset;                    /* float curves */
  gint32 int_offset;                      /* int curves: the offset field read as s32 */
  float delta;                            /* 0 before version 3.4 (no such field) */
  gsize header_pos, frames_pos, keys_pos; /* byte offsets in the BFRES */
} TressBfresCurveInfo;

/* Parses FRES, Yaz0 or SARC bytes (a SARC's first BFRES is opened). */
TressBfres *tress_bfres_parse (GBytes *bytes, const char *filename, GError **error);
void tress_bfres_free (TressBfres *bfres);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressBfres, tress_bfres_free)
/* The same container chain as was read, with the edited BFRES inside. */
GBytes *tress_bfres_serialize (TressBfres *bfres, GError **error);
/* The BFRES bytes themselves (inside any container), current edits included. */
GBytes *tress_bfres_get_bfres_bytes (TressBfres *bfres);

guint32 tress_bfres_get_version (TressBfres *bfres);
/* "", "Yaz0", "SARC" or "Yaz0/SARC" (outermost first). */
const char *tress_bfres_get_container (TressBfres *bfres);
/* The files of the SARC archive the BFRES came from (NULL-terminated, free with
 * g_strfreev), or NULL when it did not come from an archive. */
char **tress_bfres_list_archive (TressBfres *bfres);

guint tress_bfres_get_n_curves (TressBfres *bfres);
gboolean tress_bfres_get_curve_info (TressBfres *bfres, guint index, TressBfresCurveInfo *info);
/* Index of the curve with @path, or -1. */
int tress_bfres_find_curve (TressBfres *bfres, const char *path);

typedef struct
{
  const char *name;
  const char *kind; /* "Skeletal", "Bone visibility", … */
  int frame_count;
  guint first_curve; /* its curves are first_curve … first_curve + n_curves − 1 */
  guint n_curves;
  gboolean loops; /* bit 2 of its flags */
} TressBfresAnimInfo;

/* The animations, in the order of the file's index groups. */
guint tress_bfres_get_n_anims (TressBfres *bfres);
gboolean tress_bfres_get_anim_info (TressBfres *bfres, guint index, TressBfresAnimInfo *info);
/* The animation @spec names: its name, or "Kind/name" ("Skeletal/Wait"), which
 * tells apart animations of different kinds that share a name. -1 when none
 * does, or when several do: then @candidates (may be NULL) gets, for each, the
 * form that names it alone (strings to free). */
int tress_bfres_find_anim (TressBfres *bfres, const char *spec, GPtrArray *candidates);
/* The shortest form of animation @index's name that names it alone: the name,
 * or "Kind/name" where another animation has the same name. */
char *tress_bfres_dup_anim_spec (TressBfres *bfres, guint index);
/* The curve's value at @frame computed straight from the stored bytes. */
double tress_bfres_evaluate (TressBfres *bfres, guint index, double frame);

/* Edits keep a curve's frame type, key type, scale and offset while the new
 * values fit them (each value lands on the nearest step; a value outside the
 * range gets a new scale and offset in the same type). With a tolerance set,
 * an edit whose stored values would lie further than @tolerance from the
 * edited ones widens the key type (s8 → s16 → f32) until they do not.
 * 0, the default: never widen. */
void tress_bfres_set_tolerance (TressBfres *bfres, double tolerance);

/* Raises the frame count of the animation holding curve @index (never lowers
 * it), so that keys may move past the old end; the editor asks the user first.
 * The curve operations' save_state/restore_state of @index cover this field, so
 * a command saving state around raise + set_curve undoes both. */
gboolean tress_bfres_raise_frame_count (TressBfres *bfres, guint index, int frame_count,
                                        GError **error);

/* Re-encodes curve @index with @curve_type (same family: Cubic/Linear/BakedFloat,
 * StepInt/BakedInt, StepBool/BakedBool) and frame and key types at least as wide
 * as given (they widen further when the keys need it). Used to change the
 * interpolation or to widen a type on request. For undo, take the curve
 * operations' save_state of @index before and after, as for set_curve. */
gboolean tress_bfres_set_curve_types (TressBfres *bfres, guint index,
                                      TressBfresCurveType curve_type,
                                      TressBfresFrameType frame_type, TressBfresKeyType key_type,
                                      double *max_error, GError **error);

const char *tress_bfres_curve_type_to_string (TressBfresCurveType type);
const char *tress_bfres_frame_type_to_string (TressBfresFrameType type);
const char *tress_bfres_key_type_to_string (TressBfresKeyType type);

G_END_DECLS
