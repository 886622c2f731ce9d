/* tress-curve.h: the format-neutral animation curve
 *
 * BFRES and NIFF store keyframed scalar channels with four kinds of segment
 * (step, linear, cubic Hermite, baked). The editor works on this one model and
 * each format adapter converts to and from its own bytes, stating its limits
 * (TressCurveLimits) so that edits the format cannot hold are refused with a
 * message instead of being silently changed. See shared/formats/curves.md.
 *
 * Slopes are in value per frame. A key's @interp applies to the segment that
 * starts at it. Keys are kept sorted by frame (strictly increasing).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum
{
  TRESS_INTERP_STEP, /* hold, then jump */
  TRESS_INTERP_LINEAR,
  TRESS_INTERP_HERMITE, /* cubic Hermite using out_slope of this key, in_slope of the next */
  TRESS_INTERP_BAKED,   /* one sample per frame; drawn as a polyline */
} TressInterp;

#define TRESS_INTERP_MASK(i) (1u << (i))
#define TRESS_INTERP_MASK_ALL 0xFu

typedef enum
{
  TRESS_TANGENT_MANUAL,
  TRESS_TANGENT_AUTO,         /* Catmull-Rom */
  TRESS_TANGENT_AUTO_CLAMPED, /* no overshoot */
  TRESS_TANGENT_FLAT,
  TRESS_TANGENT_LINEAR, /* toward the neighbours */
} TressTangentMode;

typedef enum
{
  TRESS_VALUE_FLOAT,
  TRESS_VALUE_INT,
  TRESS_VALUE_BOOL,
} TressValueKind;

typedef enum
{
  TRESS_WRAP_CLAMP,
  TRESS_WRAP_REPEAT,
  TRESS_WRAP_MIRROR,
} TressWrap;

/* The order in which an Euler rotation applies its three angles, named
 * first to last: XYZ turns about X, then Y, then Z (R = Rz·Ry·Rx). */
typedef enum
{
  TRESS_EULER_NONE, /* not an angle of an Euler rotation (or the order is unknown) */
  TRESS_EULER_XYZ,
  TRESS_EULER_XZY,
  TRESS_EULER_YXZ,
  TRESS_EULER_YZX,
  TRESS_EULER_ZXY,
  TRESS_EULER_ZYX,
} TressEulerOrder;

typedef enum
{
  TRESS_KEY_BROKEN = 1 << 0,       /* in_slope and out_slope are edited separately */
  TRESS_KEY_EASE_ASSUMED = 1 << 1, /* the format's easing has no published formula */
} TressKeyFlags;

/* A key leaves with @value (the segment starting at it begins there) and is
 * reached with @value + @in_gap (where the segment ending at it ends). The two
 * are equal (@in_gap 0) unless the format stores each segment on its own:
 * BFRES cubic and linear curves keep each segment's rounded coefficients, so a
 * segment's end can miss the next key's value by a step or so, and the game
 * plays exactly that. Moving a key moves both. Kept at 48 bytes without
 * padding: keys are copied and compared in bulk. */
typedef struct
{
  double frame;
  double value;
  double in_slope;
  double out_slope;
  float in_gap;          /* arrival value − @value; 0 where the segments join */
  guint16 interp;        /* TressInterp */
  guint16 tangent;       /* TressTangentMode */
  guint16 flags;         /* TressKeyFlags */
  guint16 native_interp; /* the format's own interpolation code, kept for write-back */
  guint32 origin;        /* 1 + the key's index as the format gave it (0: a new key), so
                          * that a writer can tell a moved key from a new one */
} TressKey;

G_STATIC_ASSERT (sizeof (TressKey) == 48);

/* The value the segment ending at @key reaches it with. */
static inline double
tress_key_in_value (const TressKey *key)
{
  return key->value + (double)key->in_gap;
}

typedef struct
{
  double frame_step; /* 0: any frame; 1: whole frames; 1.0/32: s10.5 */
  double frame_min;
  double frame_max;
  double value_min; /* -G_MAXDOUBLE / G_MAXDOUBLE when unbounded */
  double value_max;
  TressValueKind value_kind;
  guint interp_mask;        /* TRESS_INTERP_MASK() of the kinds a segment may use */
  gboolean uniform_interp;  /* every segment must use the same kind (BFRES) */
  gboolean tied_tangents;   /* in_slope == out_slope always (NIFF2) */
  gboolean fixed_key_count; /* keys cannot be inserted or deleted */
  gboolean slopes_derived;  /* slopes follow from the interpolation and are not stored
                             * (NIFF1 KEY records): editors show no handles for them */
  const char *no_slopes;    /* where the format stores no slopes for the curve's keys, why:
                             * a static sentence of the format adapter ("a StepInt curve
                             * stores no slopes"); NULL where it stores them */
} TressCurveLimits;

typedef struct _TressCurve TressCurve;
struct _TressCurve
{
  gatomicrefcount ref_count;
  GArray *keys; /* TressKey, sorted by frame */
  TressCurveLimits limits;
  TressWrap pre_wrap;
  TressWrap post_wrap;

  /* Description, filled by the format adapter (owned strings, may be NULL). */
  char *path;         /* "Fly/Skl_Root/Rotate Z": '/' separates the tree levels */
  char *kind;         /* animation kind ("Skeletal", "Visibility", "NIFF2 channel", …) */
  char *owner;        /* e.g. the object that uses a NIFF AnimGroup */
  char *component;    /* "X", "Y", "Z", "W", "R", …: chooses the colour */
  char *type_label;   /* "Cubic, u8 frames, s16 keys" */
  char *note;         /* a remark to show, e.g. "SLOW easing drawn as an assumption" */
  double frame_count; /* the animation's length in frames (0 if unknown) */
  double fps;         /* playback rate (0 if unknown) */
  gboolean loops;
  double quant_error; /* largest error of the stored values against the edited ones */
  /* How the format stores the values: value_base + k × value_step for whole k
   * with |k| ≤ value_steps (BFRES s8/s16 keys: offset, scale, 127 or 32767);
   * value_step 0 when they are stored exactly or as floats. */
  double value_step;
  double value_base;
  guint value_steps;
  double rest_value; /* the value while the curve has no key (a scale's 1); 0 by default */

  /* Angles, marked by the format adapter: the degrees display shows them in
   * degrees, and "unwrap" (tress-curve-edit.h) removes their jumps. */
  gboolean angle;              /* the values are angles, in radians */
  TressEulerOrder euler_order; /* NONE unless the angle is one of an Euler rotation */
  guint euler_axis;            /* its axis: 0 X, 1 Y, 2 Z */
  char *euler_group;           /* names the rotation: its three angle curves share it */
};

#define TRESS_TYPE_CURVE (tress_curve_get_type ())
GType tress_curve_get_type (void) G_GNUC_CONST;

TressCurve *tress_curve_new (void);
TressCurve *tress_curve_ref (TressCurve *curve);
void tress_curve_unref (TressCurve *curve);
/* A deep copy (keys, limits and description), with a reference count of 1. */
TressCurve *tress_curve_copy (const TressCurve *curve);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressCurve, tress_curve_unref)

void tress_curve_limits_init_unbounded (TressCurveLimits *limits);
/* Sets a description string (takes a copy). */
void tress_curve_set_text (char **field, const char *text);

static inline guint
tress_curve_get_n_keys (const TressCurve *curve)
{
  return curve->keys->len;
}

static inline TressKey *
tress_curve_get_key (const TressCurve *curve, guint i)
{
  return &g_array_index (curve->keys, TressKey, i);
}

/* Appends a key (the caller keeps frames increasing) and returns its index. */
guint tress_curve_append_key (TressCurve *curve, const TressKey *key);
/* Inserts keeping the order; returns the index, or -1 if a key already sits at @frame. */
int tress_curve_insert_key (TressCurve *curve, const TressKey *key);
void tress_curve_remove_key (TressCurve *curve, guint index);
/* Index of the key at @frame within @tolerance, or -1. */
int tress_curve_find_key (const TressCurve *curve, double frame, double tolerance);
/* Index of the last key with frame <= @frame, or -1 before the first key. */
int tress_curve_find_segment (const TressCurve *curve, double frame);
/* Re-sorts after frames were changed; returns FALSE if two keys share a frame. */
gboolean tress_curve_sort (TressCurve *curve);

/* The value the format stores for @value (the nearest step, see value_step);
 * *fits (may be NULL) is FALSE when @value lies outside the steps the curve
 * holds (an edit then needs a new scale). @value itself when not stepped. */
double tress_curve_stored_value (const TressCurve *curve, double value, gboolean *fits);
/* How far a stored value may lie from the one asked for through the format's
 * own precision: half a step (value_step), else the rounding of a 32-bit float
 * of the curve's largest value. What an edit's quantization error is measured
 * against when no tolerance is set. */
double tress_curve_get_precision (const TressCurve *curve);

/* Value at @frame (pre/post wrap applied; clamped outside when CLAMP). */
double tress_curve_evaluate (const TressCurve *curve, double frame);
/* Slope (value per frame) at @frame, from the right. */
double tress_curve_slope (const TressCurve *curve, double frame);
/* First and last key frame, value range over the keys and sampled segments. */
void tress_curve_get_bounds (const TressCurve *curve, double *frame_min, double *frame_max,
                             double *value_min, double *value_max);

/* Hermite segment with absolute-time slopes. */
double tress_hermite (double p0, double p1, double m0, double m1, double d, double t);
double tress_hermite_derivative (double p0, double p1, double m0, double m1, double d, double t);
/* Cubic coefficients (BFRES) ↔ Hermite, d = segment length in frames. */
void tress_hermite_to_cubic (double p0, double p1, double m0, double m1, double d, double c[4]);
void tress_cubic_to_hermite (const double c[4], double d, double *p0, double *p1, double *m0,
                             double *m1);

/* Inserts a key on the curve at @frame without changing the curve's shape:
 * the new key takes the value and slope there; returns its index or -1 (and an
 * error) when the limits forbid it. */
int tress_curve_insert_on_curve (TressCurve *curve, double frame, GError **error);
/* Recomputes the slopes of key @index from its tangent mode (no-op for MANUAL). */
void tress_curve_update_tangent (TressCurve *curve, guint index);
void tress_curve_update_all_tangents (TressCurve *curve);

/* Whether the format stores the in and out slopes of key @index, so that
 * setting them means something: not where the curve stores none
 * (limits.no_slopes says why), where they follow from the interpolation
 * (limits.slopes_derived), nor where the curve cannot hold Hermite segments
 * (for the formats here, a property of the whole curve). FALSE with the
 * reason, a sentence for people, in *@why (may be NULL; a static string). */
gboolean tress_curve_key_has_slopes (const TressCurve *curve, guint index, const char **why);
/* The same as a refusal: FALSE with a TRESS_ERROR_REFUSED error naming the key,
 * its curve and why ("cannot set the slopes of key 3 of Eyes/Face/_a0: a
 * StepInt curve stores no slopes"). What an edit that sets slopes checks. */
gboolean tress_curve_check_key_slopes (const TressCurve *curve, guint index, GError **error);

/* Checks @curve against its limits: order, frame grid and range, value range and
 * kind, allowed interpolations, tied tangents. Returns FALSE with a
 * TRESS_ERROR_REFUSED error explaining the first broken rule. */
gboolean tress_curve_check_limits (const TressCurve *curve, GError **error);
/* Rounds frames to the grid and values to the kind (int, bool), ties tangents. */
void tress_curve_conform (TressCurve *curve);

/* The most samples tress_curve_bake() makes: more than any format here holds
 * (BFRES counts keys in 16 bits), and a bound on the memory a bake takes. */
#define TRESS_CURVE_MAX_BAKED 1000000

/* Baked ↔ keys: one BAKED key per whole frame from @first to @last (NULL when
 * that is more than TRESS_CURVE_MAX_BAKED), and back to the fewest Hermite keys
 * that stay within @tolerance of every sample. */
TressCurve *tress_curve_bake (const TressCurve *curve, double first, double last);
TressCurve *tress_curve_fit (const TressCurve *baked, double tolerance, TressInterp interp);

const char *tress_interp_to_string (TressInterp interp);
/* Its name for people, translated: "Hermite", "Step"… */
const char *tress_interp_to_label (TressInterp interp);
gboolean tress_interp_from_string (const char *s, TressInterp *out);
const char *tress_tangent_mode_to_string (TressTangentMode mode);
/* "XYZ", … (NULL for NONE). */
const char *tress_euler_order_to_string (TressEulerOrder order);
/* The axis (0 X, 1 Y, 2 Z) @order turns about second. */
guint tress_euler_order_middle_axis (TressEulerOrder order);

G_END_DECLS
