/* tress-json-curves.c: curve keys in the JSON of dump and build
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-json-curves.h"

#include "tress-curve-commit.h"

#include "core/tress-curve-edit.h"

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
      if (k->in_gap != 0)
        /* where the segment before ends: it misses the key's value by a step */
        tress_json_double_member (w, "in_value", tress_key_in_value (k));
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
  const char *names[]
      = { "frame", "value", "in_slope", "out_slope", "interp", "in_value", extra_name, NULL };
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
        {
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
                    {
                      g_autofree char *q = tress_json_quote (s, -1);
                      tress_json_reader_refuse (
                          r, "expected step, linear, hermite or baked, found %s", q);
                    }
                  else if (s != NULL)
                    k.has_interp = TRUE;
                  break;
                }
              case 5:
                k.has_in_value = tress_json_reader_read_double (r, &k.in_value);
                break;
              case 6:
                k.extra = tress_json_reader_read_string (r);
                break;
              default:
                tress_json_reader_keep_unknown (r);
                break;
              }
          /* frame, value, slopes and interpolation: each one not given is
           * the file's key's (a new key's slopes follow from its neighbours);
           * (the object is left: the path is the key's again) */
          if ((seen & 0x1F) != 0x1F)
            {
              g_autofree char *path = tress_json_reader_path (r);

              tress_json_reader_note_missing (
                  r, names, 0x1F, seen, path,
                  "the key keeps the file's (a new key: its neighbours')");
            }
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

/* The key @k with the JSON's members on it (tangent and tied slopes are
 * the edit's own business: tress_curve_edit_set_key). */
static TressKey
with_members (const TressKey *k, const TressJsonKey *j)
{
  TressKey v = *k;

  if (j->has_frame)
    v.frame = j->frame;
  if (j->has_value)
    v.value = j->value;
  if (j->has_in)
    v.in_slope = j->in_slope;
  if (j->has_out)
    v.out_slope = j->out_slope;
  if (j->has_interp)
    v.interp = j->interp;
  return v;
}

/* The index in @curve of the key the format gave as @origin (1 + its index). */
static int
find_origin (const TressCurve *curve, guint32 origin)
{
  for (guint i = 0; i < tress_curve_get_n_keys (curve); i++)
    if (tress_curve_get_key (curve, i)->origin == origin)
      return (int)i;
  return -1;
}

/* Where the key arrives (in_value): derived from the segment before it.
 * Given with a key, it must be the file's (left as dumped), or have moved
 * with the value (moving a key moves both). */
static gboolean
check_in_value (TressJsonReader *r, const char *key_path, const TressJsonKey *j,
                const TressKey *was)
{
  double file_in = was != NULL ? tress_key_in_value (was) : 0;
  double value = j->has_value ? j->value : was != NULL ? was->value : 0;
  g_autofree char *p = NULL;

  if (!j->has_in_value)
    return TRUE;
  if (was != NULL && (j->in_value == file_in || (float)(j->in_value - value) == was->in_gap))
    return TRUE;
  if (was == NULL && j->in_value == value)
    return TRUE;
  p = g_strconcat (key_path, "/in_value", NULL);
  return tress_json_reader_refuse_at (r, p,
                                      "where the segment before reaches the key follows from "
                                      "the stored segment and moves with \"value\": edit the "
                                      "value instead");
}

gboolean
tress_json_apply_keys (TressJsonReader *r, const TressCurveOps *ops, gpointer model, guint index,
                       const char *keys_path, GArray *keys, TressJsonKeyHook hook, gpointer data,
                       const char *frame_count_path, gboolean *edited)
{
  g_autoptr (TressCurve) was = ops->get_curve (model, index);
  g_autoptr (TressCurve) curve = tress_curve_copy (was);
  g_autoptr (GArray) sel = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GError) error = NULL;
  g_autofree int *match = g_new (int, MAX (keys->len, 1)); /* JSON key → file key, or -1 */
  g_autofree gboolean *kept = NULL;
  guint n = tress_curve_get_n_keys (was);
  gboolean ok = TRUE;
  double max_error = 0;
  guint nk;

  *edited = FALSE;
  /* Which file key each JSON key stands for: by place when the count is the
   * same, otherwise the file's key at the same frame (each once). */
  kept = g_new0 (gboolean, MAX (n, 1));
  for (guint i = 0; i < keys->len; i++)
    {
      TressJsonKey *j = &g_array_index (keys, TressJsonKey, i);
      guint m = 0;

      if (keys->len == n)
        m = i;
      else
        {
          if (!j->has_frame || !j->has_value)
            {
              g_autofree char *p = g_strdup_printf ("%s/%u", keys_path, i);
              ok = tress_json_reader_refuse_at (r, p,
                                                "a key added to a curve needs its \"frame\" and "
                                                "\"value\"");
              match[i] = -1;
              continue;
            }
          while (m < n && (kept[m] || tress_curve_get_key (was, m)->frame != j->frame))
            m++;
        }
      match[i] = m < n ? (int)m : -1;
      if (m < n)
        kept[m] = TRUE;
    }
  for (guint i = 0; i < keys->len; i++)
    {
      TressJsonKey *j = &g_array_index (keys, TressJsonKey, i);
      const TressKey *w = match[i] >= 0 ? tress_curve_get_key (was, (guint)match[i]) : NULL;
      g_autofree char *p = g_strdup_printf ("%s/%u", keys_path, i);

      if (hook != NULL)
        ok &= hook (r, p, j, w, data);
      ok &= check_in_value (r, p, j, w);
    }
  if (!ok)
    return FALSE;
  if (tress_json_keys_equal (was, keys))
    return TRUE;
  if (keys->len == 0)
    return tress_json_reader_refuse_at (r, keys_path, "a curve keeps at least one key");
  if (keys->len != n && curve->limits.fixed_key_count)
    return tress_json_reader_refuse_at (r, keys_path, "this curve has a fixed number of keys (%u)",
                                        n);

  /* The editor's operations, one after the other: the keys gone are deleted,
   * the keys changed are set (tress-cli set-key), new keys are inserted on the
   * curve (tress-cli insert-key) and then set to what the JSON gives. */
  for (guint m = n; m-- > 0;)
    if (!kept[m])
      g_array_prepend_val (sel, m);
  if (sel->len > 0 && !tress_curve_edit_delete (curve, sel, &error))
    return tress_json_reader_refuse_at (r, keys_path, "%s", error->message);
  for (guint i = 0; i < keys->len; i++)
    {
      const TressJsonKey *j = &g_array_index (keys, TressJsonKey, i);
      const TressKey *w;
      TressKey v;
      int at;

      if (match[i] < 0)
        continue;
      w = tress_curve_get_key (was, (guint)match[i]);
      if (key_equal (w, j))
        continue;
      at = find_origin (curve, w->origin);
      if (at < 0 || w->origin == 0)
        {
          /* (keys the format gives without an origin: found by frame) */
          at = tress_curve_find_key (curve, w->frame, 0);
          if (at < 0)
            return tress_json_reader_refuse_at (
                r, keys_path, "the key at frame %g moved onto another one", w->frame);
        }
      v = with_members (tress_curve_get_key (curve, (guint)at), j);
      if (!tress_curve_edit_set_key (curve, sel, (guint)at, &v, &error))
        {
          g_autofree char *p = g_strdup_printf ("%s/%u", keys_path, i);
          return tress_json_reader_refuse_at (r, p, "%s", error->message);
        }
    }
  for (guint i = 0; i < keys->len; i++)
    {
      const TressJsonKey *j = &g_array_index (keys, TressJsonKey, i);
      g_autofree char *p = NULL;
      guint at;
      TressKey v;

      if (match[i] >= 0)
        continue;
      p = g_strdup_printf ("%s/%u", keys_path, i);
      if (!tress_curve_edit_insert (curve, sel, j->frame, &error))
        return tress_json_reader_refuse_at (r, p, "%s", error->message);
      at = g_array_index (sel, guint, 0);
      v = with_members (tress_curve_get_key (curve, at), j);
      if (!key_equal (tress_curve_get_key (curve, at), j)
          && !tress_curve_edit_set_key (curve, sel, at, &v, &error))
        return tress_json_reader_refuse_at (r, p, "%s", error->message);
    }
  if (tress_curve_same_keys (curve, was))
    return TRUE;

  nk = tress_curve_get_n_keys (curve);
  if (frame_count_path != NULL
      && tress_curve_get_key (curve, nk - 1)->frame > curve->limits.frame_max)
    return tress_json_reader_refuse_at (r, keys_path,
                                        "frame %g is past the end of the animation (frame %g): "
                                        "raise %s first",
                                        tress_curve_get_key (curve, nk - 1)->frame,
                                        curve->limits.frame_max, frame_count_path);
  if (!tress_curve_check_limits (curve, &error))
    return tress_json_reader_refuse_at (r, keys_path, "%s", error->message);
  /* Stored as the editor and the other commands store an edit: frames the
   * JSON gives are what it asks for; a coarser step or a wider value type
   * only when the build was told it may. */
  {
    TressCommitConsent consent
        = TRESS_COMMIT_WIDEN_FRAMES | (TressCommitConsent)tress_json_reader_get_consent (r);
    TressCommitPlan plan;
    g_autoptr (GBytes) before = ops->save_state (model, index);

    if (!tress_curve_commit_plan (ops, model, index, curve, &plan, &error))
      return tress_json_reader_refuse_at (r, keys_path, "%s", error->message);
    if ((plan.needs & TRESS_COMMIT_REQUANTIZE) && !(consent & TRESS_COMMIT_REQUANTIZE)
        && !((consent & TRESS_COMMIT_WIDEN_VALUES) && plan.store.wide_type != NULL))
      {
        g_autofree char *why = tress_store_cost_dup_refusal (&plan.store, "build with");

        tress_json_reader_refuse_at (r, keys_path, "%s", why);
        tress_commit_plan_clear (&plan);
        return FALSE;
      }
    tress_commit_plan_clear (&plan);
    if (!tress_curve_commit (ops, model, index, curve, consent, &max_error, &error))
      {
        ops->restore_state (model, index, before);
        return tress_json_reader_refuse_at (r, keys_path, "%s", error->message);
      }
  }
  *edited = TRUE;
  if (max_error > 0)
    tress_json_reader_note_at (r, keys_path,
                               "stored in the curve's precision: the largest difference from the "
                               "values given is %g",
                               max_error);
  return TRUE;
}
