/* bfres-setpose-check.h: the checks of `tress-cli set-pose` on a BFRES
 * skeletal animation, with the independent reading of the format page
 * (bfres-anim-ref.h): the bone's local rotation at the frame, every other
 * bone and frame, every other animation's bytes, and validate.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib/gstdio.h>

#include "bfres-anim-ref.h"
#include "tress-test-utils.h"

/* Target offsets by base slot: scale X Y Z, rotate X Y Z W, translate X Y Z. */
static const guint32 sp_targets[REF_BASE_SLOTS]
    = { 0x04, 0x08, 0x0C, 0x20, 0x24, 0x28, 0x2C, 0x10, 0x14, 0x18 };

/* The bind pose of @bone in a model of @d (format page: FMDL → FSKL → Bone),
 * by base slot; FALSE when no model has the bone. */
static inline gboolean
sp_bind (const guint8 *d, const char *bone, double out[REF_BASE_SLOTS])
{
  guint n;
  gsize group = ref_group (d, 0, &n);

  for (guint m = 1; group != 0 && m <= n; m++)
    {
      gsize fmdl = ref_group_data (d, group, m), fskl = ref_target (d, fmdl + 0x0C);
      gsize bones = ref_target (d, fskl + 0x14);

      g_assert_cmpmem (d + fmdl, 4, "FMDL", 4);
      g_assert_cmpmem (d + fskl, 4, "FSKL", 4);
      for (guint i = 0; i < ref_u16 (d, fskl + 8); i++)
        {
          gsize b = bones + 0x40 * (gsize)i;
          g_autofree char *name = ref_name (d, b);

          if (strcmp (name, bone) != 0)
            continue;
          for (guint k = 0; k < 3; k++)
            {
              out[k] = ref_f32 (d, b + 0x14 + 4 * k);
              out[7 + k] = ref_f32 (d, b + 0x30 + 4 * k);
            }
          for (guint k = 0; k < 4; k++)
            out[3 + k] = ref_f32 (d, b + 0x20 + 4 * k);
          return TRUE;
        }
    }
  return FALSE;
}

/* The BoneAnim of @bone in the FSKA at @fska, or FALSE. */
static inline gboolean
sp_bone (const guint8 *d, gsize fska, const char *bone, RefFska *f, RefBoneAnim *out)
{
  ref_fska_read (d, fska, f);
  for (guint i = 0; i < f->n_bones; i++)
    {
      ref_bone_anim_read (d, f, i, out);
      if (strcmp (out->name, bone) == 0)
        return TRUE;
      g_free (out->name);
    }
  return FALSE;
}

/* The header of @ba's curve for @target, or 0. */
static inline gsize
sp_curve (const guint8 *d, const RefBoneAnim *ba, guint32 target)
{
  for (guint k = 0; k < ba->n_curves; k++)
    if (ref_u32 (d, ba->curves + 0x24 * (gsize)k + 4) == target)
      return ba->curves + 0x24 * (gsize)k;
  return 0;
}

/* Component @target of @ba at @frame: curve, else base value, else @bind
 * (NULL: none known, NAN). */
static inline double
sp_value (const guint8 *d, const RefBoneAnim *ba, guint32 target, double frame, const double *bind)
{
  double v;

  if (ref_bone_value (d, ba, target, frame, &v))
    return v;
  return bind != NULL ? bind[ref_base_slot (target)] : NAN;
}

/* The step component @target of @ba stores values in around @want. */
static inline double
sp_step (const guint8 *d, const RefBoneAnim *ba, guint32 target, double want)
{
  gsize h = sp_curve (d, ba, target);
  RefCurve c;

  if (h == 0)
    return ref_float_precision (want);
  ref_curve_read (d, h, TRUE, &c);
  return c.kt == 0 ? ref_float_precision (want) : c.scale;
}

/* The span of frames the segments meeting a key at @frame may change:
 * between the keys before and after @frame of the curve at @h. */
static inline void
sp_span (const guint8 *d, gsize h, double frame, double *lo, double *hi)
{
  RefCurve c;

  *lo = -G_MAXDOUBLE;
  *hi = G_MAXDOUBLE;
  ref_curve_read (d, h, TRUE, &c);
  for (guint k = 0; k < c.n; k++)
    {
      double f = ref_frame (&c, k);

      if (f < frame)
        *lo = MAX (*lo, f);
      if (f > frame)
        *hi = MIN (*hi, f);
    }
}

typedef struct
{
  const char *anim, *bone;
  double frame;
  double rotate[3];   /* degrees, Euler XYZ */
  gboolean no_rotate; /* ask for no rotation */
  gboolean has_translate;
  double translate[3];
  gboolean quaternion; /* the animation stores quaternions */
  guint changed;       /* components whose curve changed (out) */
  guint added;         /* components that became curves (out) */
} SpCase;

/* The probes of the animation: every quarter frame. */
#define SP_PROBES_PER_FRAME 4

/* Checks OUT (@b) against the input (@a) for @c; @model: the bytes holding
 * the skeleton (may be @a itself), for bind-pose components. */
static inline void
sp_check (GBytes *a, GBytes *b, const guint8 *model, SpCase *c)
{
  gsize la, lb;
  const guint8 *d0 = g_bytes_get_data (a, &la), *d1 = g_bytes_get_data (b, &lb);
  gsize fska0 = ref_fska_find (d0, c->anim), fska1 = ref_fska_find (d1, c->anim);
  RefFska f0, f1;
  RefBoneAnim ba0, ba1;
  double bind[REF_BASE_SLOTS], *bp = NULL, want[4];
  g_autoptr (GArray) ranges = g_array_new (FALSE, FALSE, sizeof (RefRange));

  g_assert_cmpuint (fska0, !=, 0);
  g_assert_cmpuint (fska1, ==, fska0);
  g_assert_true (sp_bone (d0, fska0, c->bone, &f0, &ba0));
  g_assert_true (sp_bone (d1, fska1, c->bone, &f1, &ba1));
  if (model != NULL && sp_bind (model, c->bone, bind))
    bp = bind;
  g_assert_cmpint (f1.frame_count, ==, f0.frame_count);
  g_assert_cmpuint (f1.n_bones, ==, f0.n_bones);
  c->quaternion = ((f0.flags >> 12) & 7) == 0;

  /* 1. The bone's local rotation at the frame, within one stored step. */
  for (guint k = 0; c->has_translate && k < 3; k++)
    {
      guint32 t = 0x10 + 4 * k;
      double now = sp_value (d1, &ba1, t, c->frame, bp);

      g_assert_cmpfloat (fabs (now - c->translate[k]), <=,
                         sp_step (d1, &ba1, t, c->translate[k]) * (1 + 1e-6) + 1e-9);
    }
  if (c->no_rotate)
    ;
  else if (!c->quaternion)
    for (guint k = 0; k < 3; k++)
      {
        guint32 t = 0x20 + 4 * k;
        double r = c->rotate[k] * G_PI / 180, now = sp_value (d1, &ba1, t, c->frame, bp);
        double was = sp_value (d0, &ba0, t, c->frame, bp);
        double off = remainder (now - r, 2 * G_PI), step = sp_step (d1, &ba1, t, r);

        if (!(fabs (off) <= step * (1 + 1e-6) + 1e-9))
          g_error ("%s/%s frame %g Rotate %c: plays %.9g, asked %.9g (mod 2π off by %.3g, "
                   "step %.3g)",
                   c->anim, c->bone, c->frame, "XYZ"[k], now, r, off, step);
        /* Continuous: the turn nearest what played there before. */
        g_assert_cmpfloat (fabs (now - was), <=,
                           fabs (remainder (r - was, 2 * G_PI)) + step + 1e-6);
      }
  else
    {
      double e[3], q[4], dot = 0, err = 0, step = 0;

      for (guint k = 0; k < 3; k++)
        e[k] = c->rotate[k] * G_PI / 180;
      /* q = qz · qy · qx (X applies first), written out from the half angles. */
      {
        double cx = cos (e[0] / 2), sx = sin (e[0] / 2), cy = cos (e[1] / 2), sy = sin (e[1] / 2),
               cz = cos (e[2] / 2), sz = sin (e[2] / 2);

        q[0] = sx * cy * cz - cx * sy * sz;
        q[1] = cx * sy * cz + sx * cy * sz;
        q[2] = cx * cy * sz - sx * sy * cz;
        q[3] = cx * cy * cz + sx * sy * sz;
      }
      for (guint k = 0; k < 4; k++)
        {
          want[k] = sp_value (d1, &ba1, 0x20 + 4 * k, c->frame, bp);
          dot += want[k] * q[k];
          step = MAX (step, sp_step (d1, &ba1, 0x20 + 4 * k, q[k]));
        }
      for (guint k = 0; k < 4; k++)
        err = MAX (err, fabs (want[k] - (dot < 0 ? -q[k] : q[k])));
      g_assert_cmpfloat (err, <=, step * (1 + 1e-6) + 1e-9);
    }

  /* 2. Every other bone, every component, every probe: as before. */
  for (guint i = 0; i < f0.n_bones; i++)
    {
      RefBoneAnim x0, x1;

      ref_bone_anim_read (d0, &f0, i, &x0);
      if (strcmp (x0.name, c->bone) != 0)
        {
          RefFska fx;

          g_assert_true (sp_bone (d1, fska1, x0.name, &fx, &x1));
          for (guint s = 0; s < REF_BASE_SLOTS; s++)
            for (int p = 0; p <= SP_PROBES_PER_FRAME * f0.frame_count; p++)
              {
                double fr = (double)p / SP_PROBES_PER_FRAME;
                double v0 = sp_value (d0, &x0, sp_targets[s], fr, NULL);
                double v1 = sp_value (d1, &x1, sp_targets[s], fr, NULL);

                if (!(v0 == v1 || (isnan (v0) && isnan (v1))))
                  g_error ("%s: bone %s target 0x%x frame %g changed: %.9g → %.9g", c->anim,
                           x0.name, sp_targets[s], fr, v0, v1);
              }
          g_free (x1.name);
        }
      g_free (x0.name);
    }

  /* 3. The bone itself: other frames as before, except on the segments
   * meeting the key at the frame. */
  for (guint s = 0; s < REF_BASE_SLOTS; s++)
    {
      guint32 t = sp_targets[s];
      gsize h0 = sp_curve (d0, &ba0, t), h1 = sp_curve (d1, &ba1, t);
      double lo = -G_MAXDOUBLE, hi = G_MAXDOUBLE, moved = 0;
      gboolean asked = (!c->no_rotate && s >= 3 && s <= (c->quaternion ? 6u : 5u))
                       || (c->has_translate && s >= 7);
      double base0 = isnan (ba0.base_values[s]) && bp != NULL ? bp[s] : ba0.base_values[s];

      if (!asked)
        lo = hi = c->frame; /* nothing may change */
      else if (h0 != 0)
        sp_span (d0, h0, c->frame, &lo, &hi);
      else if (h1 == 0)
        lo = hi = c->frame;
      else
        {
          /* A new curve: the base value at both ends, within its step. */
          double step = sp_step (d1, &ba1, t, base0);

          c->added++;
          if (c->frame != 0)
            g_assert_cmpfloat (fabs (sp_value (d1, &ba1, t, 0, bp) - base0), <=,
                               step * 0.5 * (1 + 1e-6) + 1e-9);
          if (c->frame != f0.frame_count)
            g_assert_cmpfloat (fabs (sp_value (d1, &ba1, t, f0.frame_count, bp) - base0), <=,
                               step * 0.5 * (1 + 1e-6) + 1e-9);
          continue;
        }
      /* A curve quantized anew (a wider key type with --widen, or a new
       * scale and offset that keep the other keys within half their step,
       * which the store says) keeps its keys within half the old step, and
       * between them each of the four coefficients rounds on its own: at
       * most (1 + t + t² + t³)/2 ≤ 2 steps. Otherwise the very same. */
      if (h0 != 0 && h1 != 0)
        {
          RefCurve x0, x1;

          ref_curve_read (d0, h0, TRUE, &x0);
          ref_curve_read (d1, h1, TRUE, &x1);
          if (x0.kt != x1.kt || x0.scale != x1.scale || x0.offset != x1.offset)
            moved = x0.kt == 0 ? 0 : 2 * MAX (x0.scale, x1.kt == 0 ? 0 : x1.scale) * (1 + 1e-6);
        }
      for (int p = 0; p <= SP_PROBES_PER_FRAME * f0.frame_count; p++)
        {
          double fr = (double)p / SP_PROBES_PER_FRAME;
          double v0 = sp_value (d0, &ba0, t, fr, bp), v1 = sp_value (d1, &ba1, t, fr, bp);

          if (fr > lo && fr < hi)
            continue;
          if (!(v0 == v1 || (isnan (v0) && isnan (v1)) || fabs (v1 - v0) <= moved))
            g_error ("%s/%s target 0x%x frame %g (outside %g … %g) changed: %.9g → %.9g", c->anim,
                     c->bone, t, fr, lo, hi, v0, v1);
        }
      if (h0 != 0 && h1 != 0)
        {
          RefCurve x0, x1;

          ref_curve_read (d0, h0, TRUE, &x0);
          ref_curve_read (d1, h1, TRUE, &x1);
          if (x0.n != x1.n || ref_keys_len (&x0) != ref_keys_len (&x1)
              || memcmp (x0.keys, x1.keys, ref_keys_len (&x0)) != 0)
            c->changed++;
        }
    }

  /* 4. Every other animation: the same bytes where they were. What the edit
   * may change: the FSKA's header, the bone's BoneAnim, its curves' headers
   * and arrays, the file size; appended bytes past the old end. */
  ref_allow (ranges, 0x0C, 4);
  ref_allow (ranges, fska0, 0x30);
  ref_allow (ranges, ba0.pos, 0x18);
  for (guint k = 0; k < ba0.n_curves; k++)
    {
      gsize h = ba0.curves + 0x24 * (gsize)k;
      RefCurve x;

      ref_curve_read (d0, h, TRUE, &x);
      ref_allow (ranges, h, 0x24);
      ref_allow (ranges, (gsize)(x.frames - d0), (ref_frames_len (&x) + 3) & ~(gsize)3);
      ref_allow (ranges, (gsize)(x.keys - d0), (ref_keys_len (&x) + 3) & ~(gsize)3);
    }
  ref_assert_same_except (a, b, ranges);
  g_assert_cmpuint (lb, >=, la);
  for (int g = 2; g <= 8; g++)
    {
      guint n0, n1;
      gsize g0 = ref_group (d0, g, &n0), g1 = ref_group (d1, g, &n1);

      g_assert_cmpuint (g1, ==, g0);
      g_assert_cmpuint (n1, ==, n0);
      for (guint k = 1; k <= n0; k++)
        {
          gsize p0 = ref_group_data (d0, g0, k), p1 = ref_group_data (d1, g1, k);
          g_autoptr (GArray) c0 = NULL, c1 = NULL;

          g_assert_cmpuint (p1, ==, p0);
          if (p0 == fska0)
            continue;
          c0 = ref_anim_curves (d0, g, p0);
          c1 = ref_anim_curves (d1, g, p1);
          g_assert_cmpuint (c1->len, ==, c0->len);
          for (guint i = 0; i < c0->len; i++)
            {
              RefCurve x0, x1;

              g_assert_cmpuint (g_array_index (c1, gsize, i), ==, g_array_index (c0, gsize, i));
              ref_curve_read (d0, g_array_index (c0, gsize, i), TRUE, &x0);
              ref_curve_read (d1, g_array_index (c1, gsize, i), TRUE, &x1);
              /* Where they were: inside the bytes compared above. */
              g_assert_true (x1.frames == d1 + (x0.frames - d0));
              g_assert_true (x1.keys == d1 + (x0.keys - d0));
              g_assert_cmpuint ((gsize)(x0.keys - d0) + ref_keys_len (&x0), <=, la);
            }
        }
    }
  g_free (ba0.name);
  g_free (ba1.name);
}

/* Runs `tress-cli set-pose` on @in for @c into @out; returns its status. */
static inline int
sp_run (const char *in, const SpCase *c, gboolean widen, const char *out, char **stdout_,
        char **stderr_)
{
  char frame[G_ASCII_DTOSTR_BUF_SIZE], r[3][G_ASCII_DTOSTR_BUF_SIZE];
  char tr[3][G_ASCII_DTOSTR_BUF_SIZE];
  const char *argv[20];
  guint n = 0;

  g_ascii_formatd (frame, sizeof frame, "%.17g", c->frame);
  for (guint k = 0; k < 3; k++)
    g_ascii_formatd (r[k], sizeof r[k], "%.17g", c->rotate[k]);
  argv[n++] = "set-pose";
  argv[n++] = in;
  argv[n++] = c->anim;
  argv[n++] = c->bone;
  argv[n++] = frame;
  if (!c->no_rotate)
    {
      argv[n++] = "--rotate";
      argv[n++] = r[0];
      argv[n++] = r[1];
      argv[n++] = r[2];
    }
  if (c->has_translate)
    {
      argv[n++] = "--translate";
      for (guint k = 0; k < 3; k++)
        argv[n++] = g_ascii_formatd (tr[k], sizeof tr[k], "%.17g", c->translate[k]);
    }
  if (widen)
    argv[n++] = "--widen";
  argv[n++] = "-o";
  argv[n++] = out;
  argv[n] = NULL;
  return tress_test_run_cli (argv, stdout_, stderr_);
}

static inline void
sp_assert_valid (const char *path)
{
  const char *argv[] = { "validate", path, NULL };
  g_autofree char *out = NULL;

  g_assert_cmpint (tress_test_run_cli (argv, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "0 errors"));
}
