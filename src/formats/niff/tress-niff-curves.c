/* tress-niff-curves.c: NIFF animation as format-neutral curves, and back
 *
 * One curve per component: Translate/Rotate/Scale X, Y, Z of NIFF1 KEY and
 * FULL groups, and every component of the NIFF2 channels of a group that have
 * keys or could get some (empty channels are listed unless a channel the format
 * forbids beside them has keys). The list is made once, when the file is read,
 * so curve indices stay put while keys come and go.
 *
 * The components of one record (NIFF1) or channel key (NIFF2) share its frame
 * and interpolation. Writing a curve back matches its keys to the records by
 * frame: a record whose frame is kept keeps its other components; when as many
 * frames vanish as appear, the records move (in order); a new frame gets a new
 * record whose other components take the value (and slope) their curves have
 * there, so their shape is unchanged; a vanished frame deletes its record.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-niff-private.h"

#include "core/tress-curve-edit.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define KEY_FRAME_MAX 4294967294.0 /* 0xFFFFFFFF ends the next-key chain */
#define CHANNEL_FRAME_MAX 4294967295.0

static const char *const record_vectors[3] = { "Translate", "Rotate", "Scale" };
static const char *const xyz[3] = { "X", "Y", "Z" };

/* A channel is listed when it has keys or could get some: no channel the
 * format forbids beside it has keys. */
static gboolean
channel_listed (const TressNiffGroup *g, guint ch)
{
  if (g->channels[ch]->len > 0)
    return TRUE;
  for (guint other = 0; other < TRESS_NIFF_N_CHANNELS; other++)
    if (g->channels[other]->len > 0 && tress_niff_channels_conflict (ch, other))
      return FALSE;
  return TRUE;
}

void
tress_niff_build_curve_refs (TressNiffFile *file)
{
  g_array_set_size (file->curve_refs, 0);
  for (guint gi = 0; gi < file->groups->len; gi++)
    {
      const TressNiffGroup *g = g_ptr_array_index (file->groups, gi);
      guint32 tag = 0;
      gboolean uniform = g->records->len > 0;

      for (guint i = 0; i < g->records->len; i++)
        {
          guint32 t = g_array_index (g->records, TressNiffRecord, i).tag;
          if (i == 0)
            tag = t;
          else if (t != tag)
            uniform = FALSE;
        }
      if (uniform && (tag == TRESS_NIFF_RECORD_KEY || tag == TRESS_NIFF_RECORD_FULL))
        for (guint c = 0; c < 9; c++)
          {
            TressNiffCurveRef ref
                = { gi, tag == TRESS_NIFF_RECORD_KEY ? NIFF_CURVE_KEY : NIFF_CURVE_FULL, 0, c };
            g_array_append_val (file->curve_refs, ref);
          }
      /* NIFF1 groups have no channels (a block there is kept, not used). */
      if (g->has_ext && file->niff2)
        for (guint ch = 0; ch < TRESS_NIFF_N_CHANNELS; ch++)
          for (guint c = 0; c < tress_niff_channel_n_components (ch) && channel_listed (g, ch); c++)
            {
              TressNiffCurveRef ref = { gi, NIFF_CURVE_CHANNEL, ch, c };
              g_array_append_val (file->curve_refs, ref);
            }
    }
}

/* ---- interpolation codes ---- */

static TressInterp
key_interp_to_curve (guint32 code)
{
  switch (code)
    {
    case TRESS_NIFF_KEY_STATIC:
      return TRESS_INTERP_STEP;
    case TRESS_NIFF_KEY_SLOWIN:
    case TRESS_NIFF_KEY_SLOWOUT:
    case TRESS_NIFF_KEY_SLOW:
      return TRESS_INTERP_HERMITE;
    case TRESS_NIFF_KEY_LINEAR:
    default:
      return TRESS_INTERP_LINEAR;
    }
}

static guint32
key_interp_from_curve (const TressKey *k)
{
  if (key_interp_to_curve (k->native_interp) == k->interp)
    return k->native_interp;
  switch (k->interp)
    {
    case TRESS_INTERP_STEP:
      return TRESS_NIFF_KEY_STATIC;
    case TRESS_INTERP_HERMITE:
      return TRESS_NIFF_KEY_SLOW;
    default:
      return TRESS_NIFF_KEY_LINEAR;
    }
}

static gboolean
key_interp_is_slow (guint32 code)
{
  return code == TRESS_NIFF_KEY_SLOWIN || code == TRESS_NIFF_KEY_SLOWOUT
         || code == TRESS_NIFF_KEY_SLOW;
}

static TressInterp
channel_interp_to_curve (guint32 code)
{
  switch (code)
    {
    case TRESS_NIFF_CHANNEL_FULL:
      return TRESS_INTERP_BAKED;
    case TRESS_NIFF_CHANNEL_LINEAR:
      return TRESS_INTERP_LINEAR;
    case TRESS_NIFF_CHANNEL_HERMITE:
      return TRESS_INTERP_HERMITE;
    case TRESS_NIFF_CHANNEL_CONST:
    default:
      return TRESS_INTERP_STEP;
    }
}

static guint32
channel_interp_from_curve (const TressKey *k)
{
  if (channel_interp_to_curve (k->native_interp) == k->interp)
    return k->native_interp;
  switch (k->interp)
    {
    case TRESS_INTERP_BAKED:
      return TRESS_NIFF_CHANNEL_FULL;
    case TRESS_INTERP_LINEAR:
      return TRESS_NIFF_CHANNEL_LINEAR;
    case TRESS_INTERP_HERMITE:
      return TRESS_NIFF_CHANNEL_HERMITE;
    default:
      return TRESS_NIFF_CHANNEL_CONST;
    }
}

/* ---- evaluation in the format's own terms ---- */

/* The format page's Hermite, u in [0, 1], slopes per frame. */
static void
hermite (double p0, double p1, double m0, double m1, double h, double u, double *value,
         double *slope)
{
  double um = u - 1;

  *value = um * um * (2 * u + 1) * p0 + u * u * (3 - 2 * u) * p1 + h * um * um * u * m0
           + h * um * u * u * m1;
  *slope = h > 0 ? ((6 * u * u - 6 * u) * p0 + (6 * u - 6 * u * u) * p1) / h
                       + (3 * u * u - 4 * u + 1) * m0 + (3 * u * u - 2 * u) * m1
                 : 0;
}

/* Slopes a NIFF1 segment implies. The spec gives no formula for the SLOW kinds:
 * SLOWOUT eases out of the key (starts at rest), SLOWIN eases into the next key
 * (arrives at rest), SLOW does both; each is the quadratic (or smoothstep) ease
 * written as a Hermite segment. */
static void
key_segment_slopes (guint32 code, double v0, double v1, double h, double *out0, double *in1)
{
  double d = h > 0 ? (v1 - v0) / h : 0;

  switch (code)
    {
    case TRESS_NIFF_KEY_STATIC:
    case TRESS_NIFF_KEY_SLOW:
      *out0 = *in1 = 0;
      break;
    case TRESS_NIFF_KEY_SLOWIN:
      *out0 = 2 * d;
      *in1 = 0;
      break;
    case TRESS_NIFF_KEY_SLOWOUT:
      *out0 = 0;
      *in1 = 2 * d;
      break;
    default:
      *out0 = *in1 = d;
      break;
    }
}

static double
record_value (const TressNiffRecord *r, guint component)
{
  return niff_f32 (r->trs[component]);
}

/* Value of component @c at @frame inside the segment from KEY record @a to @b. */
static double
key_segment_eval (const TressNiffRecord *a, const TressNiffRecord *b, guint c, double frame)
{
  double h = (double)b->key - a->key;
  double u = h > 0 ? (frame - a->key) / h : 0;
  double out0, in1, v, s;

  switch (key_interp_to_curve (a->interp))
    {
    case TRESS_INTERP_STEP:
      return record_value (a, c);
    case TRESS_INTERP_HERMITE:
      key_segment_slopes (a->interp, record_value (a, c), record_value (b, c), h, &out0, &in1);
      hermite (record_value (a, c), record_value (b, c), out0, in1, h, u, &v, &s);
      return v;
    default:
      return record_value (a, c) + (record_value (b, c) - record_value (a, c)) * u;
    }
}

/* Value of component @c of a KEY record sequence at @frame. */
static double
key_records_eval (GArray *records, guint c, double frame)
{
  guint n = records->len;
  const TressNiffRecord *a, *b;

  if (n == 0)
    return c >= 6 ? 1 : 0;
  a = &g_array_index (records, TressNiffRecord, 0);
  if (frame <= a->key)
    return record_value (a, c);
  for (guint i = 0; i + 1 < n; i++)
    {
      a = &g_array_index (records, TressNiffRecord, i);
      b = &g_array_index (records, TressNiffRecord, i + 1);
      if (frame >= b->key)
        continue;
      return key_segment_eval (a, b, c, frame);
    }
  return record_value (&g_array_index (records, TressNiffRecord, n - 1), c);
}

static double
channel_default (guint ch, guint c)
{
  switch (ch)
    {
    case TRESS_NIFF_ROTATE_AXIS:
      return c == 2 ? 1 : 0; /* axis (0, 0, 1), angle 0 */
    case TRESS_NIFF_ORIENTATION_XY:
      return c == 0 || c == 4 ? 1 : 0; /* x axis (1, 0, 0), y axis (0, 1, 0) */
    case TRESS_NIFF_UNIQUE_SCALE:
    case TRESS_NIFF_CLASSICAL_SCALE:
      return 1;
    default:
      return 0;
    }
}

/* Value and slope of component @c of channel keys at @frame. */
static void
channel_eval (GArray *keys, guint ch, guint c, double frame, double *value, double *slope)
{
  guint n = keys->len;
  const TressNiffChannelKey *a, *b;

  *slope = 0;
  if (n == 0)
    {
      *value = channel_default (ch, c);
      return;
    }
  a = &g_array_index (keys, TressNiffChannelKey, 0);
  *value = niff_f32 (a->value[c]);
  if (frame <= a->key)
    return;
  for (guint i = 0; i + 1 < n; i++)
    {
      double h, u, p0, p1;

      a = &g_array_index (keys, TressNiffChannelKey, i);
      b = &g_array_index (keys, TressNiffChannelKey, i + 1);
      if (frame >= b->key)
        continue;
      h = (double)b->key - a->key;
      u = h > 0 ? (frame - a->key) / h : 0;
      p0 = niff_f32 (a->value[c]);
      p1 = niff_f32 (b->value[c]);
      switch (channel_interp_to_curve (a->interp))
        {
        case TRESS_INTERP_HERMITE:
          hermite (p0, p1, niff_f32 (a->diff[c]), niff_f32 (b->diff[c]), h, u, value, slope);
          return;
        case TRESS_INTERP_LINEAR:
        case TRESS_INTERP_BAKED:
          *value = p0 + (p1 - p0) * u;
          *slope = h > 0 ? (p1 - p0) / h : 0;
          return;
        default:
          *value = p0;
          return;
        }
    }
  *value = niff_f32 (g_array_index (keys, TressNiffChannelKey, n - 1).value[c]);
}

/* ---- get_curve ---- */

static TressNiffGroup *
ref_group (TressNiffFile *file, const TressNiffCurveRef *ref)
{
  return g_ptr_array_index (file->groups, ref->group);
}

static double
group_frame_count (const TressNiffGroup *g)
{
  double last = 0;

  for (guint i = 0; i < g->records->len; i++)
    {
      const TressNiffRecord *r = &g_array_index (g->records, TressNiffRecord, i);
      if (r->tag == TRESS_NIFF_RECORD_KEY)
        last = MAX (last, r->key);
      else if (r->tag == TRESS_NIFF_RECORD_FULL)
        last = MAX (last, i);
    }
  if (g->has_ext)
    for (guint ch = 0; ch < TRESS_NIFF_N_CHANNELS; ch++)
      if (g->channels[ch]->len > 0)
        last = MAX (
            last,
            g_array_index (g->channels[ch], TressNiffChannelKey, g->channels[ch]->len - 1).key);
  return last;
}

/* The components of a group share its length: it is worked out once, not
 * per curve, and forgotten when the group changes. */
static double
cached_frame_count (TressNiffFile *file, guint group)
{
  if (file->group_frames == NULL)
    {
      file->group_frames = g_new (double, file->groups->len);
      for (guint i = 0; i < file->groups->len; i++)
        file->group_frames[i] = NAN;
    }
  if (isnan (file->group_frames[group]))
    file->group_frames[group] = group_frame_count (g_ptr_array_index (file->groups, group));
  return file->group_frames[group];
}

void
tress_niff_group_changed (TressNiffFile *file, guint group)
{
  if (file->group_frames != NULL && group < file->groups->len)
    file->group_frames[group] = NAN;
}

#define NOTE_FULL "One sample per frame; frames run from 0 without gaps"
#define NOTE_KEY                                                                                   \
  "A key is a whole record: its frame and interpolation are shared by the 9 components; slopes "   \
  "follow from the interpolation and are not stored; the initial and final records stay"
#define NOTE_SLOW                                                                                  \
  "; SLOWIN/SLOWOUT/SLOW have no published formula: drawn with an assumed ease (SLOWOUT starts "   \
  "at rest, SLOWIN arrives at rest, SLOW both)"
#define NOTE_ANGLE "; angles stored in radians"
#define NOTE_ANGLE2 "angles stored in radians, as exported"
/* Only where the curve has a jump Unwrap Angles removes (tress_curve_needs_unwrap). */
#define NOTE_UNWRAP " (not unwrapped: Unwrap Angles removes their jumps)"
#define NOTE_EMPTY "Empty channel: adding keys sets its bit"
#define NOTE_SHARED                                                                                \
  "A key is shared by the channel's components: its frame and interpolation apply to all; a key "  \
  "deleted on one component stays while another needs it, following this curve"

/* Every curve owns its description strings; the constant ones are copied
 * with their known length, and the path is joined in one allocation, as this
 * runs for every curve of a file when it is opened. */
#define DUP_LITERAL(s) ((char *)g_memdup2 (s, sizeof (s)))

#define CHANNEL_TYPE_LABEL(name) "NIFF2 " name ", whole frames, f32, one slope per key"
static const char *const channel_type_labels[TRESS_NIFF_N_CHANNELS] = {
  CHANNEL_TYPE_LABEL ("RotateAxis"),    CHANNEL_TYPE_LABEL ("RotateX"),
  CHANNEL_TYPE_LABEL ("RotateY"),       CHANNEL_TYPE_LABEL ("RotateZ"),
  CHANNEL_TYPE_LABEL ("OrientationXY"), CHANNEL_TYPE_LABEL ("Translation"),
  CHANNEL_TYPE_LABEL ("UniqueScale"),   CHANNEL_TYPE_LABEL ("ClassicalScale"),
};

/* "a/b/c" */
static char *
join_path (const char *a, const char *b, const char *c)
{
  gsize la = strlen (a), lb = strlen (b), lc = strlen (c);
  char *path = g_malloc (la + lb + lc + 3);
  char *p = path;

  memcpy (p, a, la);
  p += la;
  *p++ = '/';
  memcpy (p, b, lb);
  p += lb;
  *p++ = '/';
  memcpy (p, c, lc + 1);
  return path;
}

/* The rotation order of an AnimGroup (0x24): which of X, Y, Z turns first
 * (the codes give each axis's place); NONE for a code the spec does not list. */
static TressEulerOrder
euler_order_of (guint32 rot_order)
{
  switch (rot_order)
    {
    case 0x00010203:
      return TRESS_EULER_XYZ;
    case 0x00010302:
      return TRESS_EULER_XZY;
    case 0x00020103:
      return TRESS_EULER_YXZ;
    case 0x00030102:
      return TRESS_EULER_YZX;
    case 0x00020301:
      return TRESS_EULER_ZXY;
    case 0x00030201:
      return TRESS_EULER_ZYX;
    default:
      return TRESS_EULER_NONE;
    }
}

/* Marks @curve as angle @axis of its group's Euler rotation. */
static void
mark_euler (TressCurve *curve, const TressNiffGroup *g, const char *group_path, guint axis)
{
  curve->angle = TRUE;
  curve->euler_order = euler_order_of (g->rot_order);
  curve->euler_axis = axis;
  curve->euler_group = g_strdup (group_path);
}

static guint
niff_n_curves (gpointer model)
{
  TressNiffFile *file = model;
  return file->curve_refs->len;
}

static TressCurve *
niff_get_curve (gpointer model, guint index)
{
  TressNiffFile *file = model;
  const TressNiffCurveRef *ref;
  TressNiffGroup *g;
  TressCurve *curve;
  const char *gpart;

  g_return_val_if_fail (index < file->curve_refs->len, NULL);
  ref = &g_array_index (file->curve_refs, TressNiffCurveRef, index);
  g = ref_group (file, ref);
  curve = tress_curve_new (); /* its limits start unbounded */
  curve->limits.frame_step = 1;
  curve->limits.frame_min = 0;
  curve->limits.value_min = -FLT_MAX;
  curve->limits.value_max = FLT_MAX;
  curve->limits.value_kind = TRESS_VALUE_FLOAT;
  curve->pre_wrap = curve->post_wrap = TRESS_WRAP_CLAMP;
  curve->frame_count = cached_frame_count (file, ref->group);
  curve->fps = g->frame_rate >= 10 ? g->frame_rate : 0;
  curve->loops = g->loop == 0;

  gpart = g_ptr_array_index (file->group_paths, ref->group);
  curve->owner = g_strdup (g_ptr_array_index (file->group_owners, ref->group));

  if (ref->source == NIFF_CURVE_KEY || ref->source == NIFF_CURVE_FULL)
    {
      guint c = ref->component;
      guint n = g->records->len;
      gboolean any_slow = FALSE;

      curve->path = join_path (gpart, record_vectors[c / 3], xyz[c % 3]);
      curve->component = g_memdup2 (xyz[c % 3], 2);
      curve->limits.frame_max = KEY_FRAME_MAX;
      g_array_set_size (curve->keys, n);
      if (ref->source == NIFF_CURVE_FULL)
        {
          curve->kind = DUP_LITERAL ("NIFF1 FULL");
          curve->type_label = DUP_LITERAL ("NIFF1 FULL records, one per frame, f32");
          curve->limits.interp_mask = TRESS_INTERP_MASK (TRESS_INTERP_BAKED);
          curve->limits.no_slopes = "NIFF1 FULL records store no slopes (one record a frame)";
          for (guint i = 0; i < n; i++)
            {
              TressKey *k = tress_curve_get_key (curve, i);
              memset (k, 0, sizeof *k);
              k->frame = i;
              k->value = record_value (&g_array_index (g->records, TressNiffRecord, i), c);
              k->interp = TRESS_INTERP_BAKED;
              k->tangent = TRESS_TANGENT_MANUAL;
              k->origin = i + 1;
            }
          curve->note = c / 3 == 1 ? DUP_LITERAL (NOTE_FULL NOTE_ANGLE) : DUP_LITERAL (NOTE_FULL);
          if (c / 3 == 1)
            mark_euler (curve, g, gpart, c % 3);
        }
      else
        {
          curve->limits.slopes_derived = TRUE;
          curve->limits.no_slopes
              = "NIFF1 KEY records store no slopes (they follow from the interpolation)";
          curve->kind = DUP_LITERAL ("NIFF1 KEY");
          curve->type_label = DUP_LITERAL ("NIFF1 KEY records, whole frames, f32");
          curve->limits.interp_mask = TRESS_INTERP_MASK (TRESS_INTERP_STEP)
                                      | TRESS_INTERP_MASK (TRESS_INTERP_LINEAR)
                                      | TRESS_INTERP_MASK (TRESS_INTERP_HERMITE);
          for (guint i = 0; i < n; i++)
            {
              const TressNiffRecord *r = &g_array_index (g->records, TressNiffRecord, i);
              TressKey *k = tress_curve_get_key (curve, i);

              memset (k, 0, sizeof *k);
              k->frame = r->key;
              k->value = record_value (r, c);
              k->interp = key_interp_to_curve (r->interp);
              k->native_interp = (guint16)MIN (r->interp, G_MAXUINT16);
              k->tangent = TRESS_TANGENT_MANUAL;
              k->origin = i + 1;
              if (key_interp_is_slow (r->interp))
                {
                  k->flags |= TRESS_KEY_EASE_ASSUMED;
                  any_slow = TRUE;
                }
            }
          for (guint i = 0; i + 1 < n; i++)
            {
              const TressNiffRecord *r = &g_array_index (g->records, TressNiffRecord, i);
              TressKey *a = tress_curve_get_key (curve, i);
              TressKey *b = tress_curve_get_key (curve, i + 1);

              key_segment_slopes (r->interp, a->value, b->value, b->frame - a->frame, &a->out_slope,
                                  &b->in_slope);
            }
          for (guint i = 0; i < n; i++)
            {
              TressKey *k = tress_curve_get_key (curve, i);
              if (i == 0)
                k->in_slope = k->out_slope;
              if (i + 1 == n)
                k->out_slope = k->in_slope;
              if (k->in_slope != k->out_slope)
                k->flags |= TRESS_KEY_BROKEN;
            }
          if (c / 3 == 1)
            {
              curve->note = any_slow ? DUP_LITERAL (NOTE_KEY NOTE_SLOW NOTE_ANGLE)
                                     : DUP_LITERAL (NOTE_KEY NOTE_ANGLE);
              mark_euler (curve, g, gpart, c % 3);
            }
          else
            curve->note = any_slow ? DUP_LITERAL (NOTE_KEY NOTE_SLOW) : DUP_LITERAL (NOTE_KEY);
        }
    }
  else
    {
      guint ch = ref->channel, c = ref->component;
      GArray *keys = g->channels[ch];

      const char *comp;

      curve->path = join_path (gpart, tress_niff_channel_name (ch),
                               tress_niff_channel_component_name (ch, c));
      curve->kind = DUP_LITERAL ("NIFF2 channel");
      curve->type_label = g_strdup (channel_type_labels[ch]);
      if (ch == TRESS_NIFF_ROTATE_AXIS)
        comp = c < 3 ? xyz[c] : "W";
      else if (ch == TRESS_NIFF_ORIENTATION_XY)
        comp = xyz[c % 3];
      else if (ch >= TRESS_NIFF_ROTATE_X && ch <= TRESS_NIFF_ROTATE_Z)
        comp = xyz[ch - TRESS_NIFF_ROTATE_X];
      else
        comp = xyz[c];
      curve->component = g_memdup2 (comp, 2);
      curve->limits.frame_max = CHANNEL_FRAME_MAX;
      curve->limits.interp_mask = TRESS_INTERP_MASK_ALL;
      curve->limits.tied_tangents = TRUE;
      /* What the object has while the channel holds no key (a first key
       * inserted on the curve takes it). */
      curve->rest_value = channel_default (ch, c);
      g_array_set_size (curve->keys, keys->len);
      for (guint i = 0; i < keys->len; i++)
        {
          const TressNiffChannelKey *ck = &g_array_index (keys, TressNiffChannelKey, i);
          TressKey *k = tress_curve_get_key (curve, i);

          memset (k, 0, sizeof *k);
          k->frame = ck->key;
          k->value = niff_f32 (ck->value[c]);
          k->in_slope = k->out_slope = niff_f32 (ck->diff[c]);
          k->interp = channel_interp_to_curve (ck->interp);
          k->native_interp = (guint16)MIN (ck->interp, G_MAXUINT16);
          k->tangent = TRESS_TANGENT_MANUAL;
          k->origin = i + 1;
        }
      if (ch != TRESS_NIFF_ROTATE_AXIS && ch <= TRESS_NIFF_ROTATE_Z)
        {
          mark_euler (curve, g, gpart, ch - TRESS_NIFF_ROTATE_X);
          curve->note = keys->len == 0 ? DUP_LITERAL (NOTE_EMPTY "; " NOTE_ANGLE2)
                        : tress_curve_needs_unwrap (curve) ? DUP_LITERAL (NOTE_ANGLE2 NOTE_UNWRAP)
                                                           : DUP_LITERAL (NOTE_ANGLE2);
        }
      else if (ch == TRESS_NIFF_ROTATE_AXIS && c == 3)
        {
          curve->angle = TRUE; /* an angle about an axis: no Euler flips */
          curve->note = keys->len == 0 ? DUP_LITERAL (NOTE_EMPTY "; " NOTE_SHARED "; " NOTE_ANGLE2)
                        : tress_curve_needs_unwrap (curve)
                            ? DUP_LITERAL (NOTE_SHARED "; " NOTE_ANGLE2 NOTE_UNWRAP)
                            : DUP_LITERAL (NOTE_SHARED "; " NOTE_ANGLE2);
        }
      else
        curve->note = keys->len == 0 ? DUP_LITERAL (NOTE_EMPTY "; " NOTE_SHARED)
                                     : DUP_LITERAL (NOTE_SHARED);
    }
  return curve;
}

/* ---- set_curve ---- */

static gboolean refuse (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
refuse (GError **error, const char *format, ...)
{
  va_list args;
  char *msg;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, TRESS_ERROR, TRESS_ERROR_REFUSED, msg);
  g_free (msg);
  return FALSE;
}

/* Float bits for @v, keeping @old when it already holds exactly @v. */
static guint32
encode_f32 (double v, const guint32 *old, double *max_error)
{
  float f;

  if (old != NULL && (double)niff_f32 (*old) == v)
    return *old;
  f = (float)v;
  *max_error = MAX (*max_error, fabs ((double)f - v));
  return niff_bits (f);
}

static gboolean
check_keys (const TressCurve *curve, double frame_max, gboolean tied, guint32 *frames,
            GError **error)
{
  guint n = tress_curve_get_n_keys (curve);

  for (guint i = 0; i < n; i++)
    {
      const TressKey *k = tress_curve_get_key (curve, i);
      double f = round (k->frame);

      if (!isfinite (k->frame) || fabs (k->frame - f) > 1e-6)
        return refuse (error, "Key %u is at frame %g, but NIFF stores whole frames only (u32)", i,
                       k->frame);
      if (f < 0 || f > frame_max)
        return refuse (error, "Key %u is at frame %g; NIFF stores frames from 0 to %.0f", i, f,
                       frame_max);
      frames[i] = (guint32)f;
      if (i > 0 && frames[i] <= frames[i - 1])
        return refuse (error,
                       "Key %u at frame %u is not after key %u at frame %u: keys must be in "
                       "strictly increasing frame order",
                       i, frames[i], i - 1, frames[i - 1]);
      if (!isfinite (k->value) || fabs (k->value) > FLT_MAX)
        return refuse (error, "Key %u has the value %g, which a 32-bit float cannot hold", i,
                       k->value);
      if (tied)
        {
          double tol = 1e-9 * MAX (1.0, MAX (fabs (k->in_slope), fabs (k->out_slope)));
          if (!isfinite (k->in_slope) || fabs (k->in_slope) > FLT_MAX)
            return refuse (error, "Key %u has the slope %g, which a 32-bit float cannot hold", i,
                           k->in_slope);
          if (fabs (k->in_slope - k->out_slope) > tol)
            return refuse (error,
                           "Key %u has broken tangents (in %g, out %g): NIFF2 stores one slope "
                           "per key, so in and out slopes must be equal",
                           i, k->in_slope, k->out_slope);
        }
    }
  return TRUE;
}

/* Matches new keys to old records: src[j] is the old record that new key j
 * continues, or -1 for a new record (see the top of this file). A key that
 * says which record it was read from (its origin) continues that one, wherever
 * it moved; the others are matched by frame. */
static void
match_frames (const guint32 *old, guint n_old, const guint32 *frames, const TressCurve *curve,
              guint n_new, int *src)
{
  g_autoptr (GHashTable) by_frame = g_hash_table_new (NULL, NULL);
  g_autofree gboolean *used = g_new0 (gboolean, n_old + 1);
  g_autoptr (GArray) free_old = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) free_new = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = n_old; i-- > 0;)
    g_hash_table_insert (by_frame, GUINT_TO_POINTER (old[i]), GUINT_TO_POINTER (i + 1));
  for (guint j = 0; j < n_new; j++)
    {
      guint32 origin = tress_curve_get_key (curve, j)->origin;

      src[j] = -1;
      if (origin > 0 && origin <= n_old && !used[origin - 1])
        {
          used[origin - 1] = TRUE;
          src[j] = (int)origin - 1;
        }
    }
  for (guint j = 0; j < n_new; j++)
    {
      gpointer hit = NULL;

      if (src[j] >= 0)
        continue;
      if (g_hash_table_lookup_extended (by_frame, GUINT_TO_POINTER (frames[j]), NULL, &hit))
        {
          guint i = GPOINTER_TO_UINT (hit) - 1;
          if (!used[i])
            {
              used[i] = TRUE;
              src[j] = (int)i;
            }
        }
      if (src[j] < 0)
        g_array_append_val (free_new, j);
    }
  for (guint i = 0; i < n_old; i++)
    if (!used[i])
      g_array_append_val (free_old, i);
  if (free_old->len == free_new->len)
    for (guint k = 0; k < free_new->len; k++)
      src[g_array_index (free_new, guint, k)] = (int)g_array_index (free_old, guint, k);
}

static gboolean
set_key_records (TressNiffGroup *g, guint c, const TressCurve *curve, double *max_error,
                 GError **error)
{
  guint n_old = g->records->len, m = tress_curve_get_n_keys (curve);
  g_autofree guint32 *frames = g_new0 (guint32, m + 1);
  g_autofree guint32 *old_frames = g_new0 (guint32, n_old + 1);
  g_autofree int *src = g_new0 (int, m + 1);
  g_autoptr (GArray) records = NULL;

  if (!check_keys (curve, KEY_FRAME_MAX, FALSE, frames, error))
    return FALSE;
  for (guint j = 0; j < m; j++)
    if (tress_curve_get_key (curve, j)->interp == TRESS_INTERP_BAKED)
      return refuse (error,
                     "Key %u uses baked interpolation, which a NIFF1 KEY record cannot "
                     "store (STATIC, LINEAR or the SLOW kinds)",
                     j);
  if (m == 0 || (m < 2 && n_old >= 2))
    return refuse (error,
                   "A NIFF1 KEY group keeps its initial and final records: it needs at "
                   "least %u key%s",
                   MIN (2, MAX (n_old, 1)), n_old >= 2 ? "s" : "");
  for (guint i = 0; i < n_old; i++)
    old_frames[i] = g_array_index (g->records, TressNiffRecord, i).key;
  match_frames (old_frames, n_old, frames, curve, m, src);
  if (n_old >= 2)
    {
      gboolean first = FALSE, last = FALSE;
      for (guint j = 0; j < m; j++)
        {
          first |= src[j] == 0;
          last |= src[j] == (int)n_old - 1;
        }
      if (!first || !last)
        return refuse (error,
                       "The %s record (frame %u) of a NIFF1 KEY group cannot be deleted; move it "
                       "or change its value instead",
                       !first ? "initial" : "final",
                       !first ? old_frames[0] : old_frames[n_old - 1]);
    }

  records = g_array_sized_new (FALSE, TRUE, sizeof (TressNiffRecord), m);
  for (guint j = 0; j < m; j++)
    {
      const TressKey *k = tress_curve_get_key (curve, j);
      TressNiffRecord r = { 0 };
      const guint32 *old_bits = NULL;

      if (src[j] >= 0)
        {
          r = g_array_index (g->records, TressNiffRecord, src[j]);
          old_bits = &r.trs[c];
        }
      else
        {
          r.tag = TRESS_NIFF_RECORD_KEY;
          for (guint k2 = 0; k2 < 9; k2++)
            r.trs[k2] = niff_bits ((float)key_records_eval (g->records, k2, frames[j]));
          if (n_old > 0)
            r.expand = g_array_index (g->records, TressNiffRecord, 0).expand;
        }
      r.index = j;
      r.key = frames[j];
      r.next = j + 1 < m ? frames[j + 1] : NIFF_NONE;
      r.interp = key_interp_from_curve (k);
      r.trs[c] = encode_f32 (k->value, old_bits, max_error);
      g_array_append_val (records, r);
    }
  /* The slopes are not stored: the records' interpolation gives them. Where
   * the edited curve's slopes make another shape, say how far the stored one
   * is from it (sampled inside every segment) instead of claiming it exact. */
  for (guint j = 0; j + 1 < m; j++)
    {
      const TressNiffRecord *a = &g_array_index (records, TressNiffRecord, j);
      const TressNiffRecord *b = &g_array_index (records, TressNiffRecord, j + 1);
      const TressKey *ka = tress_curve_get_key (curve, j);
      const TressKey *kb = tress_curve_get_key (curve, j + 1);
      double h = (double)b->key - a->key;
      double out0, in1;

      /* STEP and LINEAR segments do not use the slopes; Hermite ones with the
       * slopes the records imply (as get_curve gives them) are stored exactly. */
      if (ka->interp != TRESS_INTERP_HERMITE)
        continue;
      key_segment_slopes (a->interp, record_value (a, c), record_value (b, c), h, &out0, &in1);
      if (ka->out_slope == out0 && kb->in_slope == in1)
        continue;
      for (guint s = 1; s < 8; s++)
        {
          double f = a->key + h * s / 8.0;
          double d = fabs (tress_curve_evaluate (curve, f) - key_segment_eval (a, b, c, f));
          if (isfinite (d))
            *max_error = MAX (*max_error, d);
          else
            *max_error = G_MAXDOUBLE;
        }
    }
  g_array_unref (g->records);
  g->records = g_steal_pointer (&records);
  return TRUE;
}

static gboolean
set_full_records (TressNiffGroup *g, guint c, const TressCurve *curve, double *max_error,
                  GError **error)
{
  guint n_old = g->records->len, m = tress_curve_get_n_keys (curve);
  g_autofree guint32 *frames = g_new0 (guint32, m + 1);
  g_autoptr (GArray) records = NULL;

  if (!check_keys (curve, KEY_FRAME_MAX, FALSE, frames, error))
    return FALSE;
  if (m == 0)
    return refuse (error, "A FULL group needs at least one record");
  for (guint j = 0; j < m; j++)
    {
      if (frames[j] != j)
        return refuse (error,
                       "Key %u is at frame %u, but FULL records hold one pose per frame from 0: "
                       "the keys must sit at frames 0, 1, 2, … without gaps",
                       j, frames[j]);
      if (tress_curve_get_key (curve, j)->interp != TRESS_INTERP_BAKED)
        return refuse (error, "Key %u is not baked: FULL records store one sample per frame", j);
    }
  records = g_array_sized_new (FALSE, TRUE, sizeof (TressNiffRecord), m);
  for (guint j = 0; j < m; j++)
    {
      TressNiffRecord r = g_array_index (g->records, TressNiffRecord, MIN (j, n_old - 1));
      gboolean same = j < n_old;

      r.index = j;
      r.trs[c]
          = encode_f32 (tress_curve_get_key (curve, j)->value, same ? &r.trs[c] : NULL, max_error);
      g_array_append_val (records, r);
    }
  g_array_unref (g->records);
  g->records = g_steal_pointer (&records);
  return TRUE;
}

/* Whether a component other than @c of channel @ch changes shape without
 * record @i (sampled across the segments on both sides of it). */
static gboolean
record_needed_by_others (GArray *keys, guint ch, guint c, guint i)
{
  guint n = keys->len, nc = tress_niff_channel_n_components (ch);
  double lo = g_array_index (keys, TressNiffChannelKey, i > 0 ? i - 1 : i).key;
  double hi = g_array_index (keys, TressNiffChannelKey, i + 1 < n ? i + 1 : i).key;
  g_autoptr (GArray) without = g_array_copy (keys);

  g_array_remove_index (without, i);
  for (guint k = 0; k < nc; k++)
    {
      if (k == c)
        continue;
      for (guint s = 0; s <= 32; s++)
        {
          double f = lo + (hi - lo) * s / 32.0, a, b, da, db;

          channel_eval (keys, ch, k, f, &a, &da);
          channel_eval (without, ch, k, f, &b, &db);
          if (!(fabs (a - b) <= 1e-6 * MAX (1.0, fabs (a))))
            return TRUE;
        }
    }
  return FALSE;
}

static gint
compare_channel_keys (gconstpointer a, gconstpointer b)
{
  guint32 ka = ((const TressNiffChannelKey *)a)->key, kb = ((const TressNiffChannelKey *)b)->key;

  return ka < kb ? -1 : ka > kb;
}

static gboolean
set_channel (TressNiffGroup *g, guint ch, guint c, const TressCurve *curve, double *max_error,
             GError **error)
{
  GArray *old = g->channels[ch];
  guint n_old = old->len, m = tress_curve_get_n_keys (curve);
  guint nc = tress_niff_channel_n_components (ch);
  g_autofree guint32 *frames = g_new0 (guint32, m + 1);
  g_autofree guint32 *old_frames = g_new0 (guint32, n_old + 1);
  g_autofree int *src = g_new0 (int, m + 1);
  g_autofree gboolean *used = g_new0 (gboolean, n_old + 1);
  g_autoptr (GHashTable) new_frames = g_hash_table_new (NULL, NULL);
  gboolean kept_any = FALSE;
  GArray *keys;

  if (!check_keys (curve, CHANNEL_FRAME_MAX, TRUE, frames, error))
    return FALSE;
  if (m > 0)
    for (guint other = 0; other < TRESS_NIFF_N_CHANNELS; other++)
      if (g->channels[other]->len > 0 && tress_niff_channels_conflict (ch, other))
        return refuse (error,
                       "%s cannot be used together with %s: the format forbids the combination "
                       "(delete the %s keys first)",
                       tress_niff_channel_name (ch), tress_niff_channel_name (other),
                       tress_niff_channel_name (other));
  for (guint i = 0; i < n_old; i++)
    old_frames[i] = g_array_index (old, TressNiffChannelKey, i).key;
  match_frames (old_frames, n_old, frames, curve, m, src);

  keys = g_array_sized_new (FALSE, TRUE, sizeof (TressNiffChannelKey), m);
  for (guint j = 0; j < m; j++)
    {
      const TressKey *k = tress_curve_get_key (curve, j);
      TressNiffChannelKey nk = { 0 };
      gboolean have_old = src[j] >= 0;

      if (have_old)
        {
          nk = g_array_index (old, TressNiffChannelKey, src[j]);
          used[src[j]] = TRUE;
        }
      else
        for (guint k2 = 0; k2 < nc; k2++)
          {
            double v, s;
            channel_eval (old, ch, k2, frames[j], &v, &s);
            nk.value[k2] = niff_bits ((float)v);
            nk.diff[k2] = niff_bits ((float)s);
          }
      nk.key = frames[j];
      nk.interp = channel_interp_from_curve (k);
      nk.value[c] = encode_f32 (k->value, have_old ? &nk.value[c] : NULL, max_error);
      nk.diff[c] = encode_f32 (k->out_slope, have_old ? &nk.diff[c] : NULL, max_error);
      g_array_append_val (keys, nk);
      g_hash_table_add (new_frames, GUINT_TO_POINTER (frames[j]));
    }

  /* A key is a record shared by the channel's components. One deleted on this
   * component stays while another component needs it (its curve would change
   * without it), holding this curve's value and slope there, so the other
   * components keep their shape and this one gets the one asked for. */
  for (guint i = 0; i < n_old && nc > 1; i++)
    if (!used[i] && !g_hash_table_contains (new_frames, GUINT_TO_POINTER (old_frames[i]))
        && record_needed_by_others (old, ch, c, i))
      {
        TressNiffChannelKey nk = g_array_index (old, TressNiffChannelKey, i);
        double f = nk.key;

        nk.value[c] = encode_f32 (tress_curve_evaluate (curve, f), NULL, max_error);
        nk.diff[c] = encode_f32 (tress_curve_slope (curve, f), NULL, max_error);
        g_array_append_val (keys, nk);
        kept_any = TRUE;
      }
  if (kept_any)
    {
      double lo, hi;

      g_array_sort (keys, compare_channel_keys);
      /* A kept record splits a segment of this curve; with another
       * interpolation than the segment's the shape differs: say by how much. */
      lo = g_array_index (keys, TressNiffChannelKey, 0).key;
      hi = g_array_index (keys, TressNiffChannelKey, keys->len - 1).key;
      for (guint s = 0; s <= 64 * keys->len; s++)
        {
          double f = lo + (hi - lo) * s / (64.0 * keys->len), v, d;

          channel_eval (keys, ch, c, f, &v, &d);
          d = fabs (v - tress_curve_evaluate (curve, f));
          *max_error = isfinite (d) ? MAX (*max_error, d) : G_MAXDOUBLE;
        }
    }

  /* FULL holds one key per frame up to the next key. */
  for (guint j = 0; j + 1 < keys->len; j++)
    {
      const TressNiffChannelKey *a = &g_array_index (keys, TressNiffChannelKey, j);
      const TressNiffChannelKey *b = &g_array_index (keys, TressNiffChannelKey, j + 1);

      if (a->interp == TRESS_NIFF_CHANNEL_FULL && b->key != a->key + 1)
        {
          guint32 at = a->key, next = b->key;

          g_array_unref (keys);
          return refuse (error,
                         "The key at frame %u is FULL (one key per frame) but the next key is at "
                         "frame %u: fill the frames between or use another interpolation",
                         at, next);
        }
    }

  g_array_unref (g->channels[ch]);
  g->channels[ch] = keys;
  if (keys->len > 0)
    g->channel_bits |= 1u << ch;
  else
    g->channel_bits &= ~(1u << ch);
  return TRUE;
}

static gboolean
niff_set_curve (gpointer model, guint index, const TressCurve *curve, double *max_error,
                GError **error)
{
  TressNiffFile *file = model;
  const TressNiffCurveRef *ref;
  TressNiffGroup *g;
  double err = 0;
  gboolean ok;

  if (index >= file->curve_refs->len)
    return refuse (error, "There is no curve %u (the file has %u)", index, file->curve_refs->len);
  ref = &g_array_index (file->curve_refs, TressNiffCurveRef, index);
  g = ref_group (file, ref);
  switch (ref->source)
    {
    case NIFF_CURVE_KEY:
      ok = set_key_records (g, ref->component, curve, &err, error);
      break;
    case NIFF_CURVE_FULL:
      ok = set_full_records (g, ref->component, curve, &err, error);
      break;
    default:
      ok = set_channel (g, ref->channel, ref->component, curve, &err, error);
      break;
    }
  if (ok)
    tress_niff_group_changed (file, ref->group);
  if (ok && max_error != NULL)
    *max_error = err;
  return ok;
}

/* The error of storing @curve's values (and, in channels, its slopes) as
 * f32, the only rounding NIFF does; frames are whole numbers, exact or refused. */
static gboolean
niff_preview_error (gpointer model, guint index, const TressCurve *curve, double *max_error,
                    GError **error)
{
  TressNiffFile *file = model;
  const TressNiffCurveRef *ref;
  double err = 0;

  if (index >= file->curve_refs->len)
    return refuse (error, "There is no curve %u (the file has %u)", index, file->curve_refs->len);
  ref = &g_array_index (file->curve_refs, TressNiffCurveRef, index);
  for (guint i = 0; i < tress_curve_get_n_keys (curve); i++)
    {
      const TressKey *k = tress_curve_get_key (curve, i);

      err = MAX (err, fabs ((double)(float)k->value - k->value));
      if (ref->source != NIFF_CURVE_KEY && ref->source != NIFF_CURVE_FULL)
        err = MAX (err, fabs ((double)(float)k->out_slope - k->out_slope));
    }
  if (max_error != NULL)
    *max_error = isfinite (err) ? err : G_MAXDOUBLE;
  return TRUE;
}

/* ---- undo state: the whole AnimGroup, as written ---- */

static GBytes *
niff_save_state (gpointer model, guint index)
{
  TressNiffFile *file = model;
  const TressNiffCurveRef *ref;
  GByteArray *out;

  g_return_val_if_fail (index < file->curve_refs->len, NULL);
  ref = &g_array_index (file->curve_refs, TressNiffCurveRef, index);
  out = g_byte_array_new ();
  tress_niff_group_write (ref_group (file, ref), out);
  return g_byte_array_free_to_bytes (out);
}

static void
niff_restore_state (gpointer model, guint index, GBytes *state)
{
  TressNiffFile *file = model;
  const TressNiffCurveRef *ref;
  TressNiffGroup *old, *g;
  g_autoptr (GError) error = NULL;
  gsize size = 0;
  const guint8 *data;

  g_return_if_fail (index < file->curve_refs->len && state != NULL);
  ref = &g_array_index (file->curve_refs, TressNiffCurveRef, index);
  old = ref_group (file, ref);
  data = g_bytes_get_data (state, &size);
  g = tress_niff_group_parse (data, size, old->offset, &error);
  g_return_if_fail (g != NULL); /* the bytes come from save_state */
  g->offset = old->offset;
  g_ptr_array_index (file->groups, ref->group) = g;
  tress_niff_group_free (old);
  tress_niff_group_changed (file, ref->group);
}

/* An edit of a curve rewrites its group (save_state holds the whole group):
 * the curves of the same group. */
static void
niff_linked_curves (gpointer model, guint index, GArray *out)
{
  TressNiffFile *file = model;
  guint group;

  g_return_if_fail (index < file->curve_refs->len);
  group = g_array_index (file->curve_refs, TressNiffCurveRef, index).group;
  for (guint i = 0; i < file->curve_refs->len; i++)
    if (i != index && g_array_index (file->curve_refs, TressNiffCurveRef, i).group == group)
      g_array_append_val (out, i);
}

const TressCurveOps tress_niff_curve_ops = {
  .n_curves = niff_n_curves,
  .get_curve = niff_get_curve,
  .set_curve = niff_set_curve,
  .save_state = niff_save_state,
  .restore_state = niff_restore_state,
  .preview_error = niff_preview_error,
  .linked_curves = niff_linked_curves,
};

/* ---- evaluation for the pose maths ---- */

double
tress_niff_key_records_eval (GArray *records, guint component, double frame)
{
  return key_records_eval (records, component, frame);
}

double
tress_niff_channel_eval (GArray *keys, guint channel, guint component, double frame)
{
  double value, slope;

  channel_eval (keys, channel, component, frame, &value, &slope);
  return value;
}

double
tress_niff_group_get_frame_count (const TressNiffFile *file, guint group)
{
  g_return_val_if_fail (group < file->groups->len, 0);
  return cached_frame_count ((TressNiffFile *)file, group);
}

guint
tress_niff_curve_get_group (const TressNiffFile *file, guint curve)
{
  g_return_val_if_fail (curve < file->curve_refs->len, 0);
  return g_array_index (file->curve_refs, TressNiffCurveRef, curve).group;
}
