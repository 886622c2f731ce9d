/* tress-diff-curves.c: what differs between two models' curves
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-diff-private.h"

#include <math.h>
#include <string.h>

/* ---- curves ---------------------------------------------------------------- */

static gboolean
key_same (const TressKey *a, const TressKey *b)
{
  return a->frame == b->frame && a->value == b->value && a->in_slope == b->in_slope
         && a->out_slope == b->out_slope && a->interp == b->interp && a->in_gap == b->in_gap;
}

/* Notes |@va − @vb| at frame @f. */
static void
note (double va, double vb, double f, double *largest, double *at, gboolean *any)
{
  double d = fabs (va - vb);

  if (f == 0)
    f = 0; /* frame -0 (ceil (-0.5), a key stored at -0) is said "0", never "-0" */
  if (isnan (d))
    d = INFINITY; /* a NaN on one side only: as different as it gets */
  if (!*any || d > *largest)
    {
      *largest = d;
      *at = f;
    }
  else if (d == *largest && f < *at)
    *at = f;
  *any = TRUE;
}

/* The value @c is reached with at frame @f: at a key, where the segment
 * before it ends (BFRES keeps each segment's own end, which the game plays
 * just before the key); elsewhere the value there. */
static double
arrival (const TressCurve *c, double f)
{
  int k = tress_curve_find_key (c, f, 0);

  return k > 0 ? tress_key_in_value (tress_curve_get_key (c, (guint)k))
               : tress_curve_evaluate (c, f);
}

static void
sample (const TressCurve *a, const TressCurve *b, double f, double *largest, double *at,
        gboolean *any)
{
  note (tress_curve_evaluate (a, f), tress_curve_evaluate (b, f), f, largest, at, any);
}

/* At each key of @c: the values both curves leave it with and reach it with,
 * and the middle of the segment that starts there (a segment shorter than
 * two frames holds no whole frame). */
static void
sample_keys (const TressCurve *c, const TressCurve *a, const TressCurve *b, double *first,
             double *last, double *largest, double *at, gboolean *any)
{
  guint n = tress_curve_get_n_keys (c);

  for (guint i = 0; i < n; i++)
    {
      double f = tress_curve_get_key (c, i)->frame;

      *first = MIN (*first, f);
      *last = MAX (*last, f);
      sample (a, b, f, largest, at, any);
      note (arrival (a, f), arrival (b, f), f, largest, at, any);
      if (i + 1 < n)
        sample (a, b, (f + tress_curve_get_key (c, i + 1)->frame) / 2, largest, at, any);
    }
}

gboolean
tress_diff_curve_values (const TressCurve *a, const TressCurve *b, double *largest,
                         double *at_frame)
{
  double first = G_MAXDOUBLE, last = -G_MAXDOUBLE, step = 1;
  gboolean any = FALSE;

  *largest = 0;
  *at_frame = 0;
  if (tress_curve_get_n_keys (a) == 0 && tress_curve_get_n_keys (b) == 0)
    return FALSE;
  sample_keys (a, a, b, &first, &last, largest, at_frame, &any);
  sample_keys (b, a, b, &first, &last, largest, at_frame, &any);
  if (!isfinite (first) || !isfinite (last))
    return any;
  if ((last - first) / step > SAMPLES_MAX)
    step = ceil ((last - first) / SAMPLES_MAX);
  for (double f = ceil (first); f <= last; f += step)
    sample (a, b, f, largest, at_frame, &any);
  return any;
}

static JsonObject *
key_object (const TressKey *k)
{
  JsonObject *o = json_object_new ();

  json_object_set_double_member (o, "frame", k->frame);
  json_object_set_double_member (o, "value", k->value);
  if (k->in_gap != 0)
    json_object_set_double_member (o, "in_value", tress_key_in_value (k));
  json_object_set_double_member (o, "in_slope", k->in_slope);
  json_object_set_double_member (o, "out_slope", k->out_slope);
  json_object_set_string_member (o, "interp", tress_interp_to_string (k->interp));
  return o;
}

/* "value 0.5 → 0.25, out_slope 0 → 1" */
static void
append_key_change (GString *s, const TressKey *a, const TressKey *b)
{
  const char *sep = "";

  if (a->frame != b->frame)
    {
      g_string_append (s, "frame ");
      _tress_diff_append_number (s, a->frame);
      g_string_append (s, " → ");
      _tress_diff_append_number (s, b->frame);
      sep = ", ";
    }
  if (a->value != b->value)
    {
      g_string_append_printf (s, "%svalue ", sep);
      _tress_diff_append_number (s, a->value);
      g_string_append (s, " → ");
      _tress_diff_append_number (s, b->value);
      sep = ", ";
    }
  /* the value it is reached with, where that moved apart from the value */
  if (a->in_gap != b->in_gap)
    {
      g_string_append_printf (s, "%sin_value ", sep);
      _tress_diff_append_number (s, tress_key_in_value (a));
      g_string_append (s, " → ");
      _tress_diff_append_number (s, tress_key_in_value (b));
      sep = ", ";
    }
  if (a->in_slope != b->in_slope)
    {
      g_string_append_printf (s, "%sin_slope ", sep);
      _tress_diff_append_number (s, a->in_slope);
      g_string_append (s, " → ");
      _tress_diff_append_number (s, b->in_slope);
      sep = ", ";
    }
  if (a->out_slope != b->out_slope)
    {
      g_string_append_printf (s, "%sout_slope ", sep);
      _tress_diff_append_number (s, a->out_slope);
      g_string_append (s, " → ");
      _tress_diff_append_number (s, b->out_slope);
      sep = ", ";
    }
  if (a->interp != b->interp)
    g_string_append_printf (s, "%sinterp %s → %s", sep, tress_interp_to_string (a->interp),
                            tress_interp_to_string (b->interp));
}

gboolean
tress_diff_curve (const TressCurve *a, const TressCurve *b, const char *path, const char *label,
                  TressDiff *out)
{
  guint na = tress_curve_get_n_keys (a), nb = tress_curve_get_n_keys (b);
  g_autofree int *match_b = g_new (int, MAX (nb, 1)); /* key of b → key of a, or -1 */
  g_autofree gboolean *used_a = g_new0 (gboolean, MAX (na, 1));
  g_autoptr (GString) text = g_string_new (NULL);
  gboolean details = tress_diff_wants_details (out);
  JsonArray *added = NULL, *removed = NULL, *moved = NULL, *changed = NULL;
  JsonObject *detail = NULL;
  guint n_text = 0, n_items = 0;
  double largest = 0, at = 0;
  gboolean sampled, stored_same = g_strcmp0 (a->type_label, b->type_label) == 0;

  if (details)
    {
      added = json_array_new ();
      removed = json_array_new ();
      moved = json_array_new ();
      changed = json_array_new ();
    }
  /* Which key of @a each key of @b is: by place when the count is the same,
   * otherwise the key at the same frame. */
  for (guint i = 0; i < nb; i++)
    {
      match_b[i] = -1;
      if (na == nb)
        match_b[i] = (int)i;
      else
        for (guint j = 0; j < na; j++)
          if (!used_a[j] && tress_curve_get_key (a, j)->frame == tress_curve_get_key (b, i)->frame)
            {
              match_b[i] = (int)j;
              break;
            }
      if (match_b[i] >= 0)
        used_a[match_b[i]] = TRUE;
    }

  for (guint j = 0; j < na; j++)
    if (!used_a[j])
      {
        const TressKey *k = tress_curve_get_key (a, j);
        if (details)
          json_array_add_object_element (removed, key_object (k));
        if (n_text++ < TEXT_KEYS_MAX)
          {
            g_string_append_printf (text, "%skey %u at frame ", n_items++ ? "; " : "", j);
            _tress_diff_append_number (text, k->frame);
            g_string_append (text, " removed");
          }
      }
  for (guint i = 0; i < nb; i++)
    {
      const TressKey *kb = tress_curve_get_key (b, i);
      const TressKey *ka;

      if (match_b[i] < 0)
        {
          if (details)
            json_array_add_object_element (added, key_object (kb));
          if (n_text++ < TEXT_KEYS_MAX)
            {
              g_string_append_printf (text, "%skey %u at frame ", n_items++ ? "; " : "", i);
              _tress_diff_append_number (text, kb->frame);
              g_string_append (text, " added, value ");
              _tress_diff_append_number (text, kb->value);
            }
          continue;
        }
      ka = tress_curve_get_key (a, (guint)match_b[i]);
      if (key_same (ka, kb))
        continue;
      if (details)
        {
          JsonObject *o = json_object_new ();

          json_object_set_int_member (o, "key", i);
          json_object_set_int_member (o, "key_a", match_b[i]);
          json_object_set_object_member (o, "a", key_object (ka));
          json_object_set_object_member (o, "b", key_object (kb));
          if (ka->frame != kb->frame)
            {
              JsonObject *m = json_object_new ();
              json_object_set_int_member (m, "key", i);
              json_object_set_double_member (m, "from", ka->frame);
              json_object_set_double_member (m, "to", kb->frame);
              json_array_add_object_element (moved, m);
            }
          json_array_add_object_element (changed, o);
        }
      if (n_text++ < TEXT_KEYS_MAX)
        {
          g_string_append_printf (text, "%skey %u ", n_items++ ? "; " : "", i);
          if (ka->frame != kb->frame)
            g_string_append (text, "moved: ");
          append_key_change (text, ka, kb);
        }
    }
  if (n_text == 0 && stored_same)
    {
      g_clear_pointer (&added, json_array_unref);
      g_clear_pointer (&removed, json_array_unref);
      g_clear_pointer (&moved, json_array_unref);
      g_clear_pointer (&changed, json_array_unref);
      return FALSE;
    }
  if (n_text > TEXT_KEYS_MAX)
    g_string_append_printf (text, "; and %u more", n_text - TEXT_KEYS_MAX);
  if (!stored_same)
    g_string_append_printf (text, "%sstored as %s → %s", n_items++ ? "; " : "",
                            a->type_label ? a->type_label : "?",
                            b->type_label ? b->type_label : "?");

  sampled = tress_diff_curve_values (a, b, &largest, &at);
  if (sampled)
    {
      _tress_diff_note_largest (out, label, largest, at);
      if (largest > 0)
        {
          g_string_append (text, " (largest difference ");
          _tress_diff_append_number (text, largest);
          g_string_append (text, " at frame ");
          _tress_diff_append_number (text, at);
          g_string_append (text, ")");
        }
    }
  if (details)
    {
      detail = json_object_new ();
      json_object_set_string_member (detail, "curve_path", label);
      if (sampled)
        {
          if (isfinite (largest))
            json_object_set_double_member (detail, "largest_difference", largest);
          else
            json_object_set_string_member (detail, "largest_difference", "NaN");
          json_object_set_double_member (detail, "at_frame", at);
        }
      json_object_set_int_member (detail, "keys_a", na);
      json_object_set_int_member (detail, "keys_b", nb);
      json_object_set_array_member (detail, "keys_added", added);
      json_object_set_array_member (detail, "keys_removed", removed);
      json_object_set_array_member (detail, "keys_moved", moved);
      json_object_set_array_member (detail, "keys_changed", changed);
      if (!stored_same)
        {
          json_object_set_string_member (detail, "stored_as_a", a->type_label);
          json_object_set_string_member (detail, "stored_as_b", b->type_label);
        }
    }
  tress_diff_add (out, path, "curve", detail, "%s: %s", label, text->str);
  return TRUE;
}

/* Where two curves have the same keys: whether their stored @what ("frames"
 * or "keys": the arrays @x and @y) differ all the same, where no key shows it. */
static void
diff_stored_array (const char *what, GBytes *x, GBytes *y, const char *path, const char *label,
                   TressDiff *out)
{
  gsize la, lb, n_diff = 0, first = 0, last = 0;
  const guint8 *p = g_bytes_get_data (x, &la), *q = g_bytes_get_data (y, &lb);
  g_autoptr (GString) text = g_string_new (NULL);
  JsonObject *d = NULL;

  for (gsize i = 0; i < MIN (la, lb); i++)
    if (p[i] != q[i])
      {
        if (n_diff++ == 0)
          first = i;
        last = i;
      }
  if (n_diff == 0 && la == lb)
    return;
  if (n_diff > 0)
    {
      g_string_append_printf (text, "%" G_GSIZE_FORMAT " byte%s of the %s differ%s, ", n_diff,
                              n_diff == 1 ? "" : "s", what, n_diff == 1 ? "s" : "");
      if (n_diff == 1)
        g_string_append_printf (text, "at offset %" G_GSIZE_FORMAT, first);
      else
        g_string_append_printf (text, "from offset %" G_GSIZE_FORMAT " to %" G_GSIZE_FORMAT, first,
                                last);
      g_string_append_printf (text, " of %" G_GSIZE_FORMAT " bytes", la);
    }
  if (la != lb)
    g_string_append_printf (text, "%sthe %s %" G_GSIZE_FORMAT " → %" G_GSIZE_FORMAT " bytes",
                            n_diff > 0 ? "; " : "", what, la, lb);
  if (tress_diff_wants_details (out))
    {
      d = json_object_new ();
      json_object_set_string_member (d, "curve_path", label);
      json_object_set_string_member (d, "stored", what);
      json_object_set_int_member (d, "size_a", (gint64)la);
      json_object_set_int_member (d, "size_b", (gint64)lb);
      json_object_set_int_member (d, "bytes_differing", (gint64)n_diff);
      if (n_diff > 0)
        {
          json_object_set_int_member (d, "first", (gint64)first);
          json_object_set_int_member (d, "last", (gint64)last);
        }
      json_object_set_array_member (d, "keys_added", json_array_new ());
      json_object_set_array_member (d, "keys_removed", json_array_new ());
      json_object_set_array_member (d, "keys_moved", json_array_new ());
      json_object_set_array_member (d, "keys_changed", json_array_new ());
    }
  tress_diff_add (out, path, "curve", d,
                  "%s: the same keys, stored otherwise where no key shows it: %s", label,
                  text->str);
}

/* Curves @ia of @a and @ib of @b, whose keys are the same: their stored arrays. */
static void
diff_stored (const TressCurveOps *ops, gpointer a, guint ia, gpointer b, guint ib, const char *path,
             const char *label, TressDiff *out)
{
  g_autoptr (GBytes) fa = NULL;
  g_autoptr (GBytes) ka = NULL;
  g_autoptr (GBytes) fb = NULL;
  g_autoptr (GBytes) kb = NULL;

  ops->get_stored (a, ia, &fa, &ka);
  ops->get_stored (b, ib, &fb, &kb);
  diff_stored_array ("frames", fa, fb, path, label, out);
  diff_stored_array ("keys", ka, kb, path, label, out);
}

static char *
curve_key (const TressCurve *c)
{
  return g_strconcat (c->kind ? c->kind : "", "\n", c->path ? c->path : "", NULL);
}

/* "kind\npath" of every curve of @model: what matches curves by name. */
static GPtrArray *
curve_keys (const TressCurveOps *ops, gpointer model)
{
  guint n = ops->n_curves (model);
  GPtrArray *keys = g_ptr_array_new_full (n, g_free);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (TressCurve) c = ops->get_curve (model, i);
      g_ptr_array_add (keys, curve_key (c));
    }
  return keys;
}

/* The curves are decoded a pair at a time: the keys of two large files
 * together are some 15 times their size. */
void
_tress_diff_diff_curves (const TressCurveOps *ops, gpointer a, gpointer b, TressDiff *out)
{
  guint na = ops->n_curves (a), nb = ops->n_curves (b);
  g_autoptr (GPtrArray) ka = curve_keys (ops, a);
  g_autoptr (GPtrArray) kb = curve_keys (ops, b);
  g_autoptr (GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree gboolean *used_a = g_new0 (gboolean, MAX (na, 1));
  gboolean by_place = na == nb;

  for (guint i = 0; by_place && i < na; i++)
    by_place = strcmp (ka->pdata[i], kb->pdata[i]) == 0;
  if (!by_place)
    for (guint i = na; i-- > 0;) /* the first of a name wins */
      g_hash_table_insert (by_name, ka->pdata[i], GUINT_TO_POINTER (i + 1));

  for (guint i = 0; i < nb; i++)
    {
      g_autoptr (TressCurve) c = ops->get_curve (b, i);
      g_autoptr (TressCurve) ca = NULL;
      g_autofree char *path = g_strdup_printf ("/curves/%u", i);
      guint j = i + 1;

      if (!by_place)
        {
          j = GPOINTER_TO_UINT (g_hash_table_lookup (by_name, kb->pdata[i]));
          if (j > 0 && used_a[j - 1])
            j = 0;
        }
      if (j == 0)
        {
          JsonObject *d = NULL;

          if (tress_diff_wants_details (out))
            {
              d = json_object_new ();
              json_object_set_string_member (d, "curve_path", c->path);
              json_object_set_int_member (d, "keys_b", tress_curve_get_n_keys (c));
            }
          tress_diff_add (out, path, "curve-added", d, "%s: a curve only B has (%u keys)",
                          c->path ? c->path : "?", tress_curve_get_n_keys (c));
          continue;
        }
      used_a[j - 1] = TRUE;
      ca = ops->get_curve (a, j - 1);
      if (!tress_diff_curve (ca, c, path, c->path ? c->path : "?", out) && ops->get_stored != NULL)
        diff_stored (ops, a, j - 1, b, i, path, c->path ? c->path : "?", out);
    }
  for (guint j = 0; j < na; j++)
    if (!used_a[j])
      {
        g_autoptr (TressCurve) c = ops->get_curve (a, j);
        g_autofree char *path = g_strdup_printf ("/curves/%u", j);
        JsonObject *d = NULL;

        if (tress_diff_wants_details (out))
          {
            d = json_object_new ();
            json_object_set_string_member (d, "curve_path", c->path);
            json_object_set_int_member (d, "keys_a", tress_curve_get_n_keys (c));
          }
        tress_diff_add (out, path, "curve-removed", d, "%s: a curve only A has (%u keys)",
                        c->path ? c->path : "?", tress_curve_get_n_keys (c));
      }
}
