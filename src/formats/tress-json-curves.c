/* tress-json-curves.c: curve keys in the JSON of dump and build
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-json-curves.h"

void
tress_json_keys_member (TressJsonWriter *w, const TressCurve *curve,
                        void (*label) (TressJsonWriter *w, const TressKey *key, gpointer data),
                        gpointer data)
{
  tress_json_member (w, "keys");
  tress_json_begin_array (w);
  for (guint i = 0; i < tress_curve_get_n_keys (curve); i++)
    {
      const TressKey *k = tress_curve_get_key (curve, i);

      tress_json_begin_object_compact (w);
      tress_json_double_member (w, "frame", k->frame);
      tress_json_double_member (w, "value", k->value);
      tress_json_double_member (w, "in_slope", k->in_slope);
      tress_json_double_member (w, "out_slope", k->out_slope);
      tress_json_string_member (w, "interp", tress_interp_to_string (k->interp));
      if (label != NULL)
        label (w, k, data);
      tress_json_end_object (w);
    }
  tress_json_end_array (w);
}

void
tress_json_keys_free (GArray *keys)
{
  if (keys == NULL)
    return;
  for (guint i = 0; i < keys->len; i++)
    g_free (g_array_index (keys, TressJsonKey, i).extra);
  g_array_unref (keys);
}

GArray *
tress_json_read_keys (TressJsonReader *r, const char *extra_name)
{
  const char *names[] = { "frame", "value", "in_slope", "out_slope", "interp", extra_name, NULL };
  GArray *keys;

  if (!tress_json_reader_begin_array (r))
    return NULL;
  keys = g_array_new (FALSE, TRUE, sizeof (TressJsonKey));
  while (tress_json_reader_next_element (r))
    {
      TressJsonKey k = { 0 };
      guint64 seen = 0;
      int which;

      if (tress_json_reader_begin_object (r))
        while ((which = tress_json_reader_next_known (r, names, &seen)) != -2)
          switch (which)
            {
            case 0:
              k.has_frame = tress_json_reader_read_double (r, &k.frame);
              break;
            case 1:
              k.has_value = tress_json_reader_read_double (r, &k.value);
              break;
            case 2:
              k.has_in = tress_json_reader_read_double (r, &k.in_slope);
              break;
            case 3:
              k.has_out = tress_json_reader_read_double (r, &k.out_slope);
              break;
            case 4:
              {
                g_autofree char *s = tress_json_reader_read_string (r);

                if (s != NULL && !tress_interp_from_string (s, &k.interp))
                  tress_json_reader_refuse (
                      r, "expected step, linear, hermite or baked, found \"%s\"", s);
                else if (s != NULL)
                  k.has_interp = TRUE;
                break;
              }
            case 5:
              k.extra = tress_json_reader_read_string (r);
              break;
            default:
              tress_json_reader_keep_unknown (r);
              break;
            }
      g_array_append_val (keys, k);
    }
  return keys;
}

static gboolean
key_equal (const TressKey *k, const TressJsonKey *j)
{
  return (!j->has_frame || j->frame == k->frame) && (!j->has_value || j->value == k->value)
         && (!j->has_in || j->in_slope == k->in_slope)
         && (!j->has_out || j->out_slope == k->out_slope)
         && (!j->has_interp || j->interp == k->interp);
}

gboolean
tress_json_keys_equal (const TressCurve *curve, GArray *keys)
{
  if (keys->len != tress_curve_get_n_keys (curve))
    return FALSE;
  for (guint i = 0; i < keys->len; i++)
    if (!key_equal (tress_curve_get_key (curve, i), &g_array_index (keys, TressJsonKey, i)))
      return FALSE;
  return TRUE;
}

/* The JSON's members on a key, as set-key does: a slope given makes the
 * tangent manual; tied tangents follow the one given. */
static void
apply_key (TressKey *k, const TressJsonKey *j, gboolean tied)
{
  gboolean in = j->has_in && j->in_slope != k->in_slope;
  gboolean out = j->has_out && j->out_slope != k->out_slope;

  if (j->has_frame)
    k->frame = j->frame;
  if (j->has_value)
    k->value = j->value;
  if (in)
    k->in_slope = j->in_slope;
  if (out)
    k->out_slope = j->out_slope;
  if (tied && in && !out)
    k->out_slope = k->in_slope;
  else if (tied && out && !in)
    k->in_slope = k->out_slope;
  if (in || out)
    k->tangent = TRESS_TANGENT_MANUAL;
  if (j->has_interp)
    k->interp = j->interp;
}

gboolean
tress_json_apply_keys (TressJsonReader *r, const TressCurveOps *ops, gpointer model, guint index,
                       const char *keys_path, GArray *keys, TressJsonKeyHook hook, gpointer data,
                       const char *frame_count_path, gboolean *edited)
{
  g_autoptr (TressCurve) curve = ops->get_curve (model, index);
  g_autoptr (GError) error = NULL;
  guint n = tress_curve_get_n_keys (curve);
  gboolean changed = FALSE, ok = TRUE;
  double max_error = 0;
  guint nk;

  *edited = FALSE;
  if (keys->len == n)
    for (guint i = 0; i < n; i++)
      {
        TressJsonKey *j = &g_array_index (keys, TressJsonKey, i);
        TressKey *k = tress_curve_get_key (curve, i);

        if (hook != NULL)
          {
            g_autofree char *p = g_strdup_printf ("%s/%u", keys_path, i);
            ok &= hook (r, p, j, k, data);
          }
        if (!key_equal (k, j))
          {
            apply_key (k, j, curve->limits.tied_tangents);
            changed = TRUE;
          }
      }
  else
    {
      /* Keys added or removed: a JSON key stands for the file's key at the
       * same frame (each once); the others are new keys. */
      g_autoptr (GArray) out = g_array_sized_new (FALSE, TRUE, sizeof (TressKey), keys->len);
      g_autofree gboolean *used = g_new0 (gboolean, MAX (n, 1));

      if (curve->limits.fixed_key_count)
        return tress_json_reader_refuse_at (r, keys_path,
                                            "this curve has a fixed number of keys (%u)", n);
      for (guint i = 0; i < keys->len; i++)
        {
          TressJsonKey *j = &g_array_index (keys, TressJsonKey, i);
          g_autofree char *p = g_strdup_printf ("%s/%u", keys_path, i);
          TressKey k = { 0 };
          guint m = 0;

          if (!j->has_frame || !j->has_value)
            {
              ok = tress_json_reader_refuse_at (r, p,
                                                "a key added to a curve needs its \"frame\" and "
                                                "\"value\"");
              continue;
            }
          while (m < n && (used[m] || tress_curve_get_key (curve, m)->frame != j->frame))
            m++;
          if (m < n)
            {
              used[m] = TRUE;
              k = *tress_curve_get_key (curve, m);
            }
          else
            {
              k.interp = out->len > 0 ? g_array_index (out, TressKey, out->len - 1).interp
                         : n > 0      ? tress_curve_get_key (curve, 0)->interp
                                      : TRESS_INTERP_LINEAR;
              k.tangent = j->has_in || j->has_out ? TRESS_TANGENT_MANUAL : TRESS_TANGENT_AUTO;
            }
          if (hook != NULL)
            ok &= hook (r, p, j, m < n ? &k : NULL, data);
          apply_key (&k, j, curve->limits.tied_tangents);
          g_array_append_val (out, k);
        }
      if (out->len == 0)
        return tress_json_reader_refuse_at (r, keys_path, "a curve keeps at least one key");
      g_array_unref (curve->keys);
      curve->keys = g_steal_pointer (&out);
      changed = TRUE;
    }
  if (!ok)
    return FALSE;
  if (!changed)
    return TRUE;
  if (!tress_curve_sort (curve))
    return tress_json_reader_refuse_at (r, keys_path, "two keys share a frame");
  /* new keys without slopes take them from their neighbours */
  for (guint i = 0; i < tress_curve_get_n_keys (curve); i++)
    if (tress_curve_get_key (curve, i)->origin == 0
        && tress_curve_get_key (curve, i)->tangent == TRESS_TANGENT_AUTO)
      tress_curve_update_tangent (curve, i);
  nk = tress_curve_get_n_keys (curve);
  if (frame_count_path != NULL
      && tress_curve_get_key (curve, nk - 1)->frame > curve->limits.frame_max)
    return tress_json_reader_refuse_at (r, keys_path,
                                        "frame %g is past the end of the animation (frame %g): "
                                        "raise %s first",
                                        tress_curve_get_key (curve, nk - 1)->frame,
                                        curve->limits.frame_max, frame_count_path);
  if (!tress_curve_check_limits (curve, &error)
      || !ops->set_curve (model, index, curve, &max_error, &error))
    return tress_json_reader_refuse_at (r, keys_path, "%s", error->message);
  *edited = TRUE;
  if (max_error > 0)
    tress_json_reader_note_at (r, keys_path,
                               "stored in the curve's precision: the largest difference from the "
                               "values given is %g",
                               max_error);
  return TRUE;
}
