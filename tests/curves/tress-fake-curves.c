/* tress-fake-curves.c: a small curve format for the curve editor's tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fake-curves.h"

#include <math.h>
#include <string.h>

#include "document/tress-curve-document.h"

#define KEY_SIZE 20
#define VALUE_UNIT 64.0

typedef struct
{
  char *path;
  char *component;
  GArray *keys; /* TressKey, values already quantized */
} FakeCurve;

typedef struct
{
  GPtrArray *curves; /* FakeCurve */
  gboolean loops;
  GBytes *trailer; /* bytes after the last curve, kept as they are */
} FakeModel;

static void
fake_curve_free (FakeCurve *c)
{
  g_free (c->path);
  g_free (c->component);
  g_array_unref (c->keys);
  g_free (c);
}

static void
put_u32 (GByteArray *out, guint32 v)
{
  guint32 le = GUINT32_TO_LE (v);
  g_byte_array_append (out, (const guint8 *)&le, 4);
}

static void
put_f32 (GByteArray *out, float f)
{
  guint32 u;
  memcpy (&u, &f, 4);
  put_u32 (out, u);
}

static void
put_str (GByteArray *out, const char *s)
{
  guint16 len = (guint16)strlen (s ? s : "");
  guint16 le = GUINT16_TO_LE (len);
  g_byte_array_append (out, (const guint8 *)&le, 2);
  g_byte_array_append (out, (const guint8 *)(s ? s : ""), len);
}

static void
write_curve (GByteArray *out, const FakeCurve *c)
{
  put_str (out, c->path);
  put_str (out, c->component);
  put_u32 (out, c->keys->len);
  for (guint i = 0; i < c->keys->len; i++)
    {
      const TressKey *k = &g_array_index (c->keys, TressKey, i);
      guint8 tail[4] = { (guint8)k->interp, 0, 0, 0 };

      put_u32 (out, (guint32)k->frame);
      put_u32 (out, (guint32)(gint32)lround (k->value * VALUE_UNIT));
      put_f32 (out, (float)k->in_slope);
      put_f32 (out, (float)k->out_slope);
      g_byte_array_append (out, tail, 4);
    }
}

typedef struct
{
  const guint8 *data;
  gsize size;
  gsize pos;
} Cursor;

static gboolean
need (Cursor *cur, gsize n, const char *field, GError **error)
{
  if (cur->size - cur->pos < n)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_TRUNCATED,
                   "%s at byte 0x%" G_GSIZE_MODIFIER "x: need %" G_GSIZE_FORMAT
                   " bytes, %" G_GSIZE_FORMAT " left",
                   field, cur->pos, n, cur->size - cur->pos);
      return FALSE;
    }
  return TRUE;
}

static guint32
get_u32 (Cursor *cur)
{
  guint32 v;
  memcpy (&v, cur->data + cur->pos, 4);
  cur->pos += 4;
  return GUINT32_FROM_LE (v);
}

static char *
get_str (Cursor *cur, const char *field, GError **error)
{
  guint16 len;

  if (!need (cur, 2, field, error))
    return NULL;
  memcpy (&len, cur->data + cur->pos, 2);
  len = GUINT16_FROM_LE (len);
  cur->pos += 2;
  if (!need (cur, len, field, error))
    return NULL;
  cur->pos += len;
  return g_strndup ((const char *)cur->data + cur->pos - len, len);
}

static FakeCurve *
read_curve (Cursor *cur, GError **error)
{
  g_autofree char *path = NULL, *component = NULL;
  guint32 n;
  FakeCurve *c;

  if ((path = get_str (cur, "curve path", error)) == NULL)
    return NULL;
  if ((component = get_str (cur, "curve component", error)) == NULL)
    return NULL;
  if (!need (cur, 4, "key count", error))
    return NULL;
  n = get_u32 (cur);
  if ((cur->size - cur->pos) / KEY_SIZE < n)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_COUNT,
                   "key count at byte 0x%" G_GSIZE_MODIFIER "x: %u keys need %u bytes",
                   cur->pos - 4, n, n * KEY_SIZE);
      return NULL;
    }
  c = g_new0 (FakeCurve, 1);
  c->path = g_steal_pointer (&path);
  c->component = g_steal_pointer (&component);
  c->keys = g_array_sized_new (FALSE, TRUE, sizeof (TressKey), n);
  for (guint i = 0; i < n; i++)
    {
      TressKey k = { 0 };
      guint32 u;
      float f;
      guint8 interp;

      k.frame = get_u32 (cur);
      k.value = (gint32)get_u32 (cur) / VALUE_UNIT;
      u = get_u32 (cur);
      memcpy (&f, &u, 4);
      k.in_slope = f;
      u = get_u32 (cur);
      memcpy (&f, &u, 4);
      k.out_slope = f;
      interp = cur->data[cur->pos];
      cur->pos += 4;
      k.interp = interp <= TRESS_INTERP_BAKED ? (TressInterp)interp : TRESS_INTERP_LINEAR;
      k.native_interp = interp;
      k.tangent = TRESS_TANGENT_MANUAL;
      if (k.in_slope != k.out_slope)
        k.flags |= TRESS_KEY_BROKEN;
      if (i > 0 && k.frame <= g_array_index (c->keys, TressKey, i - 1).frame)
        {
          g_set_error (
              error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE,
              "key frame at byte 0x%" G_GSIZE_MODIFIER "x: expected more than %g, found %g",
              cur->pos - KEY_SIZE, g_array_index (c->keys, TressKey, i - 1).frame, k.frame);
          fake_curve_free (c);
          return NULL;
        }
      g_array_append_val (c->keys, k);
    }
  return c;
}

static gboolean
fake_probe (const guint8 *data, gsize size)
{
  return size >= 4 && memcmp (data, "FCRV", 4) == 0;
}

static void
fake_free (gpointer model)
{
  FakeModel *m = model;

  if (m == NULL)
    return;
  g_ptr_array_unref (m->curves);
  g_clear_pointer (&m->trailer, g_bytes_unref);
  g_free (m);
}

static gpointer
fake_parse (GBytes *bytes, const char *filename, GError **error)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  Cursor cur = { data, size, 0 };
  FakeModel *m;
  guint32 n;

  if (!need (&cur, 12, "header", error))
    return NULL;
  if (!fake_probe (data, size))
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_BAD_VALUE, "magic at byte 0x0: expected FCRV");
      return NULL;
    }
  cur.pos = 4;
  n = get_u32 (&cur);
  m = g_new0 (FakeModel, 1);
  m->curves = g_ptr_array_new_with_free_func ((GDestroyNotify)fake_curve_free);
  m->loops = data[8] != 0;
  cur.pos = 12;
  for (guint i = 0; i < n; i++)
    {
      FakeCurve *c = read_curve (&cur, error);

      if (c == NULL)
        {
          g_prefix_error (error, "%s: curve %u: ", filename ? filename : "", i);
          fake_free (m);
          return NULL;
        }
      g_ptr_array_add (m->curves, c);
    }
  m->trailer = g_bytes_new (data + cur.pos, size - cur.pos);
  return m;
}

static GBytes *
fake_serialize (gpointer model, GError **error)
{
  FakeModel *m = model;
  GByteArray *out = g_byte_array_new ();
  guint8 flags[4] = { (guint8)(m->loops ? 1 : 0), 0, 0, 0 };

  g_byte_array_append (out, (const guint8 *)"FCRV", 4);
  put_u32 (out, m->curves->len);
  g_byte_array_append (out, flags, 4);
  for (guint i = 0; i < m->curves->len; i++)
    write_curve (out, g_ptr_array_index (m->curves, i));
  g_byte_array_append (out, g_bytes_get_data (m->trailer, NULL), g_bytes_get_size (m->trailer));
  return g_byte_array_free_to_bytes (out);
}

static GPtrArray *
fake_validate (gpointer model)
{
  return tress_problem_list_new ();
}

static char *
fake_describe (gpointer model)
{
  FakeModel *m = model;
  return g_strdup_printf ("%u curves", m->curves->len);
}

static void
fake_dump (gpointer model, TressJsonWriter *b)
{
  FakeModel *m = model;

  tress_json_begin_object (b);
  tress_json_member (b, "curves");
  tress_json_begin_array (b);
  for (guint i = 0; i < m->curves->len; i++)
    {
      FakeCurve *c = g_ptr_array_index (m->curves, i);

      tress_json_begin_object (b);
      tress_json_member (b, "path");
      tress_json_add_string (b, c->path);
      tress_json_member (b, "keys");
      tress_json_begin_array (b);
      for (guint k = 0; k < c->keys->len; k++)
        {
          TressKey *key = &g_array_index (c->keys, TressKey, k);
          tress_json_begin_array (b);
          tress_json_add_double (b, key->frame);
          tress_json_add_double (b, key->value);
          tress_json_add_double (b, key->in_slope);
          tress_json_add_double (b, key->out_slope);
          tress_json_add_string (b, tress_interp_to_string (key->interp));
          tress_json_end_array (b);
        }
      tress_json_end_array (b);
      tress_json_end_object (b);
    }
  tress_json_end_array (b);
  tress_json_end_object (b);
}

static guint
fake_n_curves (gpointer model)
{
  return ((FakeModel *)model)->curves->len;
}

static TressCurve *
fake_get_curve (gpointer model, guint index)
{
  FakeModel *m = model;
  FakeCurve *fc;
  TressCurve *c;
  guint n;

  if (index >= m->curves->len)
    return NULL;
  fc = g_ptr_array_index (m->curves, index);
  c = tress_curve_new ();
  g_array_append_vals (c->keys, fc->keys->data, fc->keys->len);
  n = fc->keys->len;
  tress_curve_limits_init_unbounded (&c->limits);
  c->limits.frame_step = 1;
  c->limits.frame_min = 0;
  c->limits.frame_max = 65535;
  c->limits.value_min = G_MININT32 / VALUE_UNIT;
  c->limits.value_max = G_MAXINT32 / VALUE_UNIT;
  /* "…/Visible" curves hold booleans, as BFRES visibility curves do. */
  c->limits.value_kind
      = strstr (fc->path, "/Visible") != NULL ? TRESS_VALUE_BOOL : TRESS_VALUE_FLOAT;
  c->limits.interp_mask = TRESS_INTERP_MASK_ALL;
  c->limits.fixed_key_count = strstr (fc->path, "/Fixed") != NULL;
  c->pre_wrap = c->post_wrap = m->loops ? TRESS_WRAP_REPEAT : TRESS_WRAP_CLAMP;
  tress_curve_set_text (&c->path, fc->path);
  tress_curve_set_text (&c->kind, "Fake");
  tress_curve_set_text (&c->component, fc->component);
  tress_curve_set_text (&c->type_label, "u32 frames, 1/64 values");
  if (c->limits.value_kind == TRESS_VALUE_BOOL)
    tress_curve_set_text (&c->note, "Visibility: values are 0 or 1");
  c->frame_count = n > 0 ? g_array_index (fc->keys, TressKey, n - 1).frame : 0;
  c->fps = 30;
  c->loops = m->loops;
  return c;
}

static gboolean
fake_set_curve (gpointer model, guint index, const TressCurve *curve, double *max_error,
                GError **error)
{
  FakeModel *m = model;
  FakeCurve *fc;
  double worst = 0;

  if (index >= m->curves->len)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_FAILED, "no curve %u", index);
      return FALSE;
    }
  fc = g_ptr_array_index (m->curves, index);
  if (strstr (fc->path, "/Fixed") != NULL && tress_curve_get_n_keys (curve) != fc->keys->len)
    {
      g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                   "%s keeps %u keys: keys cannot be inserted or deleted in this curve", fc->path,
                   fc->keys->len);
      return FALSE;
    }
  for (guint i = 0; i < tress_curve_get_n_keys (curve); i++)
    {
      const TressKey *k = tress_curve_get_key (curve, i);
      if (k->frame != floor (k->frame) || k->frame < 0 || k->frame > 65535)
        {
          g_set_error (error, TRESS_ERROR, TRESS_ERROR_REFUSED,
                       "key %u: frame %g is not a whole frame from 0 to 65535", i, k->frame);
          return FALSE;
        }
    }
  g_array_set_size (fc->keys, 0);
  for (guint i = 0; i < tress_curve_get_n_keys (curve); i++)
    {
      TressKey k = *tress_curve_get_key (curve, i);
      double stored = lround (k.value * VALUE_UNIT) / VALUE_UNIT;

      worst = MAX (worst, fabs (stored - k.value));
      k.value = stored;
      k.in_slope = (float)k.in_slope;
      k.out_slope = (float)k.out_slope;
      g_array_append_val (fc->keys, k);
    }
  if (max_error != NULL)
    *max_error = worst;
  return TRUE;
}

static GBytes *
fake_save_state (gpointer model, guint index)
{
  FakeModel *m = model;
  GByteArray *out = g_byte_array_new ();

  write_curve (out, g_ptr_array_index (m->curves, index));
  return g_byte_array_free_to_bytes (out);
}

static void
fake_restore_state (gpointer model, guint index, GBytes *state)
{
  FakeModel *m = model;
  gsize size;
  const guint8 *data = g_bytes_get_data (state, &size);
  Cursor cur = { data, size, 0 };
  FakeCurve *c = read_curve (&cur, NULL);

  g_return_if_fail (c != NULL);
  fake_curve_free (g_ptr_array_index (m->curves, index));
  g_ptr_array_index (m->curves, index) = c;
}

static const TressCurveOps fake_curve_ops = {
  .n_curves = fake_n_curves,
  .get_curve = fake_get_curve,
  .set_curve = fake_set_curve,
  .save_state = fake_save_state,
  .restore_state = fake_restore_state,
};

static const char *const fake_extensions[] = { "fcrv", NULL };

const TressFormat tress_fake_curves_format = {
  .id = "fakecurves",
  .display_name = "Test curves",
  .extensions = fake_extensions,
  .mime_type = "application/x-tress-test-curves",
  .probe = fake_probe,
  .parse = fake_parse,
  .free = fake_free,
  .validate = fake_validate,
  .serialize = fake_serialize,
  .describe = fake_describe,
  .dump = fake_dump,
  .curves = &fake_curve_ops,
};

void
tress_fake_curves_register (void)
{
  tress_formats_register (&tress_fake_curves_format);
  tress_curve_document_register_format (tress_fake_curves_format.id);
}

GBytes *
tress_fake_curves_build (const TressFakeCurveSpec *specs, guint n_specs, gboolean loops)
{
  FakeModel m = { 0 };
  GBytes *bytes;

  m.curves = g_ptr_array_new_with_free_func ((GDestroyNotify)fake_curve_free);
  m.loops = loops;
  m.trailer = g_bytes_new_static ("TAIL", 4); /* unknown bytes the editor must keep */
  for (guint s = 0; s < n_specs; s++)
    {
      FakeCurve *c = g_new0 (FakeCurve, 1);

      c->path = g_strdup (specs[s].path);
      c->component = g_strdup (specs[s].component);
      c->keys = g_array_new (FALSE, TRUE, sizeof (TressKey));
      for (guint i = 0; i < specs[s].n_keys; i++)
        {
          TressKey k = { 0 };
          k.frame = specs[s].frames[i];
          k.value = specs[s].values[i];
          k.in_slope = k.out_slope = specs[s].slopes ? specs[s].slopes[i] : 0;
          k.interp = specs[s].interp;
          g_array_append_val (c->keys, k);
        }
      g_ptr_array_add (m.curves, c);
    }
  bytes = fake_serialize (&m, NULL);
  g_ptr_array_unref (m.curves);
  g_bytes_unref (m.trailer);
  return bytes;
}

GBytes *
tress_fake_curves_build_demo (void)
{
  static const double f[] = { 0, 10, 20, 30, 40 };
  static const double vx[] = { 0, 2, 1, 3, 0 };
  static const double vy[] = { 1, 0, -1, 0, 1 };
  static const double vz[] = { -2, -1, 0, 1, 2 };
  static const double sz[] = { 0.1, 0.1, 0.1, 0.1, 0.1 };
  static const double fw[] = { 0, 20, 40 };
  static const double vw[] = { 0.5, 1, 0.5 };
  static const double fv[] = { 0, 15, 30 };
  static const double vv[] = { 1, 0, 1 };
  static double fb[61], vb[61];
  TressFakeCurveSpec specs[] = {
    { "Walk/Hip/Translate X", "X", TRESS_INTERP_HERMITE, 5, f, vx, NULL },
    { "Walk/Hip/Translate Y", "Y", TRESS_INTERP_HERMITE, 5, f, vy, NULL },
    { "Walk/Hip/Translate Z", "Z", TRESS_INTERP_HERMITE, 5, f, vz, sz },
    { "Walk/Hip/Rotate W", "W", TRESS_INTERP_LINEAR, 3, fw, vw, NULL },
    { "Walk/Eye/Visible", "", TRESS_INTERP_STEP, 3, fv, vv, NULL },
    { "Walk/Tail/Baked X", "X", TRESS_INTERP_BAKED, 61, fb, vb, NULL },
    { "Walk/Tail/Fixed Y", "Y", TRESS_INTERP_LINEAR, 3, fw, vw, NULL },
  };

  for (guint i = 0; i < 61; i++)
    {
      fb[i] = i;
      vb[i] = round (sin (i / 60.0 * 2 * G_PI) * 64) / 64;
    }
  return tress_fake_curves_build (specs, G_N_ELEMENTS (specs), TRUE);
}
