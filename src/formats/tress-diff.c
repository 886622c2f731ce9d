/* tress-diff.c: what differs between two files of one format
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-diff.h"

#include <math.h>
#include <string.h>

/* At most this many keys are named in a curve's line (the JSON has them all). */
#define TEXT_KEYS_MAX 6
/* Whole frames compared per curve; a longer curve is sampled on a coarser grid. */
#define SAMPLES_MAX 200000

struct _TressDiff
{
  guint keep; /* items kept per kind */
  gboolean details;
  TressDiffFunc func;
  gpointer func_data;
  GPtrArray *items; /* TressDiffItem kept */
  GPtrArray *kinds; /* the kinds found, in order (owned strings) */
  GArray *counts;   /* guint per kind */
  GArray *kept;     /* guint per kind */
  guint n_items;
  /* the largest difference of a curve's played values */
  gboolean has_largest;
  double largest, at_frame;
  char *largest_curve;
};

static void
item_free (gpointer p)
{
  TressDiffItem *item = p;

  g_free (item->path);
  g_free (item->kind);
  g_free (item->text);
  g_clear_pointer (&item->detail, json_object_unref);
  g_free (item);
}

TressDiff *
tress_diff_new (void)
{
  TressDiff *diff = g_new0 (TressDiff, 1);

  diff->keep = G_MAXUINT;
  diff->details = TRUE;
  diff->items = g_ptr_array_new_with_free_func (item_free);
  diff->kinds = g_ptr_array_new_with_free_func (g_free);
  diff->counts = g_array_new (FALSE, TRUE, sizeof (guint));
  diff->kept = g_array_new (FALSE, TRUE, sizeof (guint));
  return diff;
}

void
tress_diff_free (TressDiff *diff)
{
  if (diff == NULL)
    return;
  g_ptr_array_unref (diff->items);
  g_ptr_array_unref (diff->kinds);
  g_array_unref (diff->counts);
  g_array_unref (diff->kept);
  g_free (diff->largest_curve);
  g_free (diff);
}

void
tress_diff_set_keep (TressDiff *diff, guint per_kind)
{
  diff->keep = per_kind;
}

void
tress_diff_set_details (TressDiff *diff, gboolean details)
{
  diff->details = details;
}

void
tress_diff_set_func (TressDiff *diff, TressDiffFunc func, gpointer user_data)
{
  diff->func = func;
  diff->func_data = user_data;
}

/* The index of @kind among the kinds found, or -1. */
static int
kind_index (const TressDiff *diff, const char *kind)
{
  for (guint k = 0; k < diff->kinds->len; k++)
    if (strcmp (diff->kinds->pdata[k], kind) == 0)
      return (int)k;
  return -1;
}

gboolean
tress_diff_wants (const TressDiff *diff, const char *kind)
{
  int k;

  if (diff->func != NULL || diff->keep == G_MAXUINT)
    return TRUE;
  k = kind_index (diff, kind);
  return k < 0 ? diff->keep > 0 : g_array_index (diff->kept, guint, k) < diff->keep;
}

gboolean
tress_diff_wants_details (const TressDiff *diff)
{
  return diff->details;
}

/* Counts an item of @kind; TRUE when it is to be kept. */
static gboolean
count_item (TressDiff *diff, const char *kind)
{
  int k = kind_index (diff, kind);
  guint zero = 0, *kept;

  if (k < 0)
    {
      g_ptr_array_add (diff->kinds, g_strdup (kind));
      g_array_append_val (diff->counts, zero);
      g_array_append_val (diff->kept, zero);
      k = (int)diff->kinds->len - 1;
    }
  g_array_index (diff->counts, guint, k)++;
  diff->n_items++;
  kept = &g_array_index (diff->kept, guint, k);
  if (*kept >= diff->keep)
    return FALSE;
  (*kept)++;
  return TRUE;
}

/* Adds an item whose text is @text (taken). */
static void
add_item (TressDiff *diff, const char *path, const char *kind, JsonObject *detail, char *text)
{
  TressDiffItem *item = g_new0 (TressDiffItem, 1);
  gboolean keep = count_item (diff, kind);

  item->path = g_strdup (path);
  item->kind = g_strdup (kind);
  item->text = text;
  item->detail = diff->details ? detail : NULL;
  if (!diff->details && detail != NULL)
    json_object_unref (detail);
  if (diff->func != NULL)
    diff->func (item, diff->func_data);
  if (keep)
    g_ptr_array_add (diff->items, item);
  else
    item_free (item);
}

void
tress_diff_add (TressDiff *diff, const char *path, const char *kind, JsonObject *detail,
                const char *format, ...)
{
  va_list args;

  if (!tress_diff_wants (diff, kind))
    {
      count_item (diff, kind);
      if (detail != NULL)
        json_object_unref (detail);
      return;
    }
  va_start (args, format);
  add_item (diff, path, kind, detail, g_strdup_vprintf (format, args));
  va_end (args);
}

/* A curve's largest difference, for the summary. */
static void
note_largest (TressDiff *diff, const char *curve, double largest, double at_frame)
{
  if (!isfinite (largest) || !(largest > 0) || (diff->has_largest && !(largest > diff->largest)))
    return;
  diff->has_largest = TRUE;
  diff->largest = largest;
  diff->at_frame = at_frame;
  g_free (diff->largest_curve);
  diff->largest_curve = g_strdup (curve);
}

guint
tress_diff_get_n_items (const TressDiff *diff)
{
  return diff->n_items;
}

guint
tress_diff_get_n_kinds (const TressDiff *diff)
{
  return diff->kinds->len;
}

const char *
tress_diff_get_kind (const TressDiff *diff, guint index, guint *count)
{
  g_return_val_if_fail (index < diff->kinds->len, NULL);
  if (count != NULL)
    *count = g_array_index (diff->counts, guint, index);
  return diff->kinds->pdata[index];
}

guint
tress_diff_get_n_kept (const TressDiff *diff)
{
  return diff->items->len;
}

const TressDiffItem *
tress_diff_get_item (const TressDiff *diff, guint index)
{
  g_return_val_if_fail (index < diff->items->len, NULL);
  return diff->items->pdata[index];
}

gboolean
tress_diff_get_largest (const TressDiff *diff, double *largest, const char **curve,
                        double *at_frame)
{
  if (largest != NULL)
    *largest = diff->has_largest ? diff->largest : 0;
  if (curve != NULL)
    *curve = diff->largest_curve;
  if (at_frame != NULL)
    *at_frame = diff->has_largest ? diff->at_frame : 0;
  return diff->has_largest;
}

/* A number for people: as short as it reads well, exact when it is whole. */
static void
append_number (GString *s, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isfinite (v) && v == floor (v) && fabs (v) < 1e15)
    g_string_append_printf (s, "%.0f", v);
  else
    g_string_append (s, g_ascii_formatd (buf, sizeof buf, "%.7g", v));
}

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
      append_number (s, a->frame);
      g_string_append (s, " → ");
      append_number (s, b->frame);
      sep = ", ";
    }
  if (a->value != b->value)
    {
      g_string_append_printf (s, "%svalue ", sep);
      append_number (s, a->value);
      g_string_append (s, " → ");
      append_number (s, b->value);
      sep = ", ";
    }
  /* the value it is reached with, where that moved apart from the value */
  if (a->in_gap != b->in_gap)
    {
      g_string_append_printf (s, "%sin_value ", sep);
      append_number (s, tress_key_in_value (a));
      g_string_append (s, " → ");
      append_number (s, tress_key_in_value (b));
      sep = ", ";
    }
  if (a->in_slope != b->in_slope)
    {
      g_string_append_printf (s, "%sin_slope ", sep);
      append_number (s, a->in_slope);
      g_string_append (s, " → ");
      append_number (s, b->in_slope);
      sep = ", ";
    }
  if (a->out_slope != b->out_slope)
    {
      g_string_append_printf (s, "%sout_slope ", sep);
      append_number (s, a->out_slope);
      g_string_append (s, " → ");
      append_number (s, b->out_slope);
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
            append_number (text, k->frame);
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
              append_number (text, kb->frame);
              g_string_append (text, " added, value ");
              append_number (text, kb->value);
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
      note_largest (out, label, largest, at);
      if (largest > 0)
        {
          g_string_append (text, " (largest difference ");
          append_number (text, largest);
          g_string_append (text, " at frame ");
          append_number (text, at);
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
static void
diff_curves (const TressCurveOps *ops, gpointer a, gpointer b, TressDiff *out)
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

/* ---- JSON trees ------------------------------------------------------------ */

static gboolean
skipped (const char *name, const char *const *skip)
{
  for (guint i = 0; skip != NULL && skip[i] != NULL; i++)
    if (strcmp (name, skip[i]) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
is_base64_member (const char *name)
{
  return name != NULL && g_str_has_suffix (name, "base64");
}

static gboolean
scalar_array (JsonNode *n)
{
  JsonArray *a;

  if (!JSON_NODE_HOLDS_ARRAY (n))
    return FALSE;
  a = json_node_get_array (n);
  for (guint i = 0; i < json_array_get_length (a); i++)
    if (!JSON_NODE_HOLDS_VALUE (json_array_get_element (a, i))
        && !JSON_NODE_HOLDS_NULL (json_array_get_element (a, i)))
      return FALSE;
  return TRUE;
}

static gboolean
leaf (JsonNode *n)
{
  return JSON_NODE_HOLDS_VALUE (n) || JSON_NODE_HOLDS_NULL (n) || scalar_array (n);
}

static gboolean
value_equal (JsonNode *a, JsonNode *b)
{
  if (JSON_NODE_TYPE (a) != JSON_NODE_TYPE (b))
    return FALSE;
  if (JSON_NODE_HOLDS_NULL (a))
    return TRUE;
  if (JSON_NODE_HOLDS_ARRAY (a))
    {
      JsonArray *x = json_node_get_array (a), *y = json_node_get_array (b);
      if (json_array_get_length (x) != json_array_get_length (y))
        return FALSE;
      for (guint i = 0; i < json_array_get_length (x); i++)
        if (!value_equal (json_array_get_element (x, i), json_array_get_element (y, i)))
          return FALSE;
      return TRUE;
    }
  if (json_node_get_value_type (a) == G_TYPE_STRING
      || json_node_get_value_type (b) == G_TYPE_STRING)
    return json_node_get_value_type (a) == json_node_get_value_type (b)
           && g_strcmp0 (json_node_get_string (a), json_node_get_string (b)) == 0;
  if (json_node_get_value_type (a) == G_TYPE_BOOLEAN
      || json_node_get_value_type (b) == G_TYPE_BOOLEAN)
    return json_node_get_value_type (a) == json_node_get_value_type (b)
           && json_node_get_boolean (a) == json_node_get_boolean (b);
  if (json_node_get_value_type (a) == G_TYPE_INT64 && json_node_get_value_type (b) == G_TYPE_INT64)
    return json_node_get_int (a) == json_node_get_int (b);
  return json_node_get_double (a) == json_node_get_double (b);
}

#define LEAF_TEXT_MAX 12

static void
append_leaf (GString *s, JsonNode *n)
{
  if (JSON_NODE_HOLDS_NULL (n))
    g_string_append (s, "null");
  else if (JSON_NODE_HOLDS_OBJECT (n))
    g_string_append (s, "{…}");
  else if (JSON_NODE_HOLDS_ARRAY (n))
    {
      JsonArray *a = json_node_get_array (n);
      guint len = json_array_get_length (a);

      g_string_append_c (s, '[');
      for (guint i = 0; i < len && i < LEAF_TEXT_MAX; i++)
        {
          if (i > 0)
            g_string_append (s, ", ");
          append_leaf (s, json_array_get_element (a, i));
        }
      if (len > LEAF_TEXT_MAX)
        g_string_append_printf (s, ", … (%u)", len);
      g_string_append_c (s, ']');
    }
  else if (json_node_get_value_type (n) == G_TYPE_STRING)
    {
      const char *v = json_node_get_string (n);
      if (strlen (v) > 40)
        g_string_append_printf (s, "\"%.37s…\"", v);
      else
        g_string_append_printf (s, "\"%s\"", v);
    }
  else if (json_node_get_value_type (n) == G_TYPE_BOOLEAN)
    g_string_append (s, json_node_get_boolean (n) ? "true" : "false");
  else if (json_node_get_value_type (n) == G_TYPE_INT64)
    g_string_append_printf (s, "%" G_GINT64_FORMAT, json_node_get_int (n));
  else
    append_number (s, json_node_get_double (n));
}

static char *
pointer_append (const char *path, const char *token)
{
  g_autoptr (GString) s = g_string_new (path);

  g_string_append_c (s, '/');
  for (const char *p = token; *p; p++)
    if (*p == '~')
      g_string_append (s, "~0");
    else if (*p == '/')
      g_string_append (s, "~1");
    else
      g_string_append_c (s, *p);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* Two base64 members: which bytes differ (at @base, the object's "offset"). */
static void
diff_bytes (const char *path, JsonNode *a, JsonNode *b, gint64 base, TressDiff *out)
{
  gsize la = 0, lb = 0, n_diff = 0, first = 0, last = 0;
  g_autofree guchar *x = NULL, *y = NULL;
  g_autoptr (GString) text = g_string_new (NULL);
  JsonObject *d;

  if (json_node_get_value_type (a) != G_TYPE_STRING
      || json_node_get_value_type (b) != G_TYPE_STRING)
    return;
  x = g_base64_decode (json_node_get_string (a), &la);
  y = g_base64_decode (json_node_get_string (b), &lb);
  for (gsize i = 0; i < MIN (la, lb); i++)
    if (x[i] != y[i])
      {
        if (n_diff++ == 0)
          first = i;
        last = i;
      }
  if (n_diff == 0 && la == lb)
    return;
  d = json_object_new ();
  json_object_set_int_member (d, "size_a", (gint64)la);
  json_object_set_int_member (d, "size_b", (gint64)lb);
  json_object_set_int_member (d, "bytes_differing", (gint64)n_diff);
  if (n_diff > 0)
    {
      json_object_set_int_member (d, "first", base + (gint64)first);
      json_object_set_int_member (d, "last", base + (gint64)last);
      g_string_append_printf (text, "%" G_GSIZE_FORMAT " byte%s differ%s", n_diff,
                              n_diff == 1 ? "" : "s", n_diff == 1 ? "s" : "");
      if (n_diff == 1)
        g_string_append_printf (text, " at 0x%" G_GINT64_MODIFIER "x", base + (gint64)first);
      else
        g_string_append_printf (text,
                                " from 0x%" G_GINT64_MODIFIER "x to 0x%" G_GINT64_MODIFIER "x",
                                base + (gint64)first, base + (gint64)last);
    }
  if (la != lb)
    g_string_append_printf (text, "%s%" G_GSIZE_FORMAT " → %" G_GSIZE_FORMAT " bytes",
                            n_diff > 0 ? "; " : "", la, lb);
  tress_diff_add (out, path, "bytes", d, "bytes outside the model: %s", text->str);
}

static const char *
kind_of (const char *path)
{
  return strstr (path, "/records/") != NULL ? "record" : "member";
}

static void diff_node (JsonNode *a, JsonNode *b, const char *path, const char *const *skip,
                       TressDiff *out);

static void
diff_object (JsonObject *a, JsonObject *b, const char *path, const char *const *skip,
             TressDiff *out)
{
  g_autoptr (GList) ma = json_object_get_members (a);
  g_autoptr (GList) mb = json_object_get_members (b);
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GPtrArray) deeper = g_ptr_array_new_with_free_func (g_free);
  JsonObject *detail = json_object_new ();
  gint64 base
      = json_object_has_member (a, "offset")
                && JSON_NODE_HOLDS_VALUE (json_object_get_member (a, "offset"))
                && json_node_get_value_type (json_object_get_member (a, "offset")) == G_TYPE_INT64
            ? json_object_get_int_member (a, "offset")
            : 0;
  gboolean root = path[0] == '\0';

  for (GList *l = ma; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonNode *x = json_object_get_member (a, name), *y;
      g_autofree char *p = pointer_append (path, name);

      if (skipped (name, skip))
        continue;
      y = json_object_get_member (b, name);
      if (y == NULL)
        {
          tress_diff_add (out, p, kind_of (p), NULL, "only A has this member");
          continue;
        }
      if (is_base64_member (name))
        {
          diff_bytes (p, x, y, base, out);
          continue;
        }
      if (leaf (x) && leaf (y))
        {
          JsonObject *ab;

          if (value_equal (x, y))
            continue;
          if (root)
            {
              g_autoptr (GString) t = g_string_new (NULL);
              JsonObject *d = json_object_new ();

              append_leaf (t, x);
              g_string_append (t, " → ");
              append_leaf (t, y);
              json_object_set_member (d, "a", json_node_copy (x));
              json_object_set_member (d, "b", json_node_copy (y));
              tress_diff_add (out, p, kind_of (p), d, "%s %s", name, t->str);
              continue;
            }
          if (text->len > 0)
            g_string_append (text, ", ");
          g_string_append_printf (text, "%s ", name);
          append_leaf (text, x);
          g_string_append (text, " → ");
          append_leaf (text, y);
          ab = json_object_new ();
          json_object_set_member (ab, "a", json_node_copy (x));
          json_object_set_member (ab, "b", json_node_copy (y));
          json_object_set_object_member (detail, name, ab);
          continue;
        }
      g_ptr_array_add (deeper, g_strdup (name));
    }
  for (GList *l = mb; l != NULL; l = l->next)
    if (!skipped (l->data, skip) && !json_object_has_member (a, l->data))
      {
        g_autofree char *p = pointer_append (path, l->data);
        tress_diff_add (out, p, kind_of (p), NULL, "only B has this member");
      }
  if (text->len > 0)
    {
      JsonObject *d = json_object_new ();
      json_object_set_object_member (d, "members", json_object_ref (detail));
      tress_diff_add (out, path, kind_of (path), d, "%s", text->str);
    }
  json_object_unref (detail);
  for (guint i = 0; i < deeper->len; i++)
    {
      const char *name = deeper->pdata[i];
      g_autofree char *p = pointer_append (path, name);
      diff_node (json_object_get_member (a, name), json_object_get_member (b, name), p, skip, out);
    }
}

static void
diff_node (JsonNode *a, JsonNode *b, const char *path, const char *const *skip, TressDiff *out)
{
  if (JSON_NODE_HOLDS_OBJECT (a) && JSON_NODE_HOLDS_OBJECT (b))
    diff_object (json_node_get_object (a), json_node_get_object (b), path, skip, out);
  else if (JSON_NODE_HOLDS_ARRAY (a) && JSON_NODE_HOLDS_ARRAY (b) && (!leaf (a) || !leaf (b)))
    {
      JsonArray *x = json_node_get_array (a), *y = json_node_get_array (b);
      guint nx = json_array_get_length (x), ny = json_array_get_length (y);

      if (nx != ny)
        {
          JsonObject *d = json_object_new ();
          json_object_set_int_member (d, "count_a", nx);
          json_object_set_int_member (d, "count_b", ny);
          tress_diff_add (out, path, kind_of (path), d, "%u → %u elements (%s)", nx, ny,
                          nx < ny ? "added at the end" : "removed at the end");
        }
      for (guint i = 0; i < MIN (nx, ny); i++)
        {
          char token[16];
          g_autofree char *p = NULL;

          g_snprintf (token, sizeof token, "%u", i);
          p = pointer_append (path, token);
          diff_node (json_array_get_element (x, i), json_array_get_element (y, i), p, skip, out);
        }
    }
  else if (!value_equal (a, b))
    {
      g_autoptr (GString) t = g_string_new (NULL);
      JsonObject *d = json_object_new ();

      append_leaf (t, a);
      g_string_append (t, " → ");
      append_leaf (t, b);
      json_object_set_member (d, "a", json_node_copy (a));
      json_object_set_member (d, "b", json_node_copy (b));
      tress_diff_add (out, path, kind_of (path), d, "%s", t->str);
    }
}

void
tress_diff_json (JsonNode *a, JsonNode *b, const char *path, const char *const *skip,
                 TressDiff *out)
{
  diff_node (a, b, path, skip, out);
}

/* ---- dumps, a piece at a time ---------------------------------------------- */

/* The dumps of two models are compared as trees, but two whole trees cost
 * some ten times the files. First each dump is written once into digests
 * (a Shape: every object and array, in order, with the SHA-256 of its text);
 * then the pieces whose digests differ are captured and compared a batch at
 * a time, a large piece as its own members (the ones below it captured
 * empty) and each member that differs on its own. Identical files cost two
 * digest passes; unrelated ones a few passes, each holding a bounded part. */

/* The smallest batch of text (both dumps) captured at once. */
#define BATCH_MIN (256 * 1024)
/* A batch holds at most this part of the two dumps' text (and their trees
 * some five times as much). */
#define BATCH_PARTS 8

typedef struct
{
  const char *name; /* the member it is the value of, NULL in an array and at the top */
  guint index;      /* in its array */
  guint end;        /* one past its last descendant */
  guint count;      /* values */
  gboolean array;
  gboolean nested; /* an object or array is among its values */
  gsize size;      /* bytes of text */
  guint8 digest[16];
} Piece;

typedef struct
{
  GArray *pieces; /* Piece, in the order they begin */
  GArray *open;   /* guint: begun, not ended */
  GStringChunk *names;
} Shape;

static void
shape_begin (gpointer data, const char *member, guint index, gboolean array)
{
  Shape *shape = data;
  Piece p = { 0 };
  guint i = shape->pieces->len;

  p.name = member != NULL ? g_string_chunk_insert_const (shape->names, member) : NULL;
  p.index = index;
  p.array = array;
  g_array_append_val (shape->pieces, p);
  g_array_append_val (shape->open, i);
}

static void
shape_end (gpointer data, const guint8 *digest, gsize size, gboolean nested, guint count)
{
  Shape *shape = data;
  guint i = g_array_index (shape->open, guint, shape->open->len - 1);
  Piece *p = &g_array_index (shape->pieces, Piece, i);

  g_array_set_size (shape->open, shape->open->len - 1);
  memcpy (p->digest, digest, sizeof p->digest);
  p->size = size;
  p->nested = nested;
  p->count = count;
  p->end = shape->pieces->len;
}

static void
shape_init (Shape *shape, const TressFormat *format, gpointer model, const char *const *skip)
{
  static const TressJsonDigestFuncs funcs = { shape_begin, shape_end };
  g_autoptr (TressJsonWriter) w = tress_json_writer_new_digest (&funcs, shape);

  shape->pieces = g_array_new (FALSE, FALSE, sizeof (Piece));
  shape->open = g_array_new (FALSE, FALSE, sizeof (guint));
  shape->names = g_string_chunk_new (1024);
  tress_json_writer_capture_skip (w, skip);
  format->dump (model, w);
}

static void
shape_clear (Shape *shape)
{
  g_array_unref (shape->pieces);
  g_array_unref (shape->open);
  g_string_chunk_free (shape->names);
}

static const Piece *
piece (const Shape *shape, guint i)
{
  return &g_array_index (shape->pieces, Piece, i);
}

/* Whether piece @p can be compared on its own: not an array of plain values,
 * which is one leaf of its object (an empty array is either). */
static gboolean
piece_prunable (const Piece *p)
{
  return !p->array || p->nested || p->count == 0;
}

typedef struct
{
  char *path;
  gsize weight; /* text of both dumps it captures */
} Task;

static void
task_free (gpointer p)
{
  Task *t = p;

  g_free (t->path);
  g_free (t);
}

typedef struct
{
  const Shape *a, *b;
  GPtrArray *tasks;    /* Task, in the order of the dumps */
  GHashTable *prune_a; /* pointers captured empty in A's pieces */
  GHashTable *prune_b; /* and in B's */
  gsize unit;          /* the largest piece captured whole */
} Plan;

static Task *
plan_add (Plan *plan, const char *path, gsize weight)
{
  Task *t = g_new (Task, 1);

  t->path = g_strdup (path);
  t->weight = weight;
  g_ptr_array_add (plan->tasks, t);
  return t;
}

/* The child of piece @parent of @shape that is element @index or member @name, or -1. */
static int
child_of (const Shape *shape, guint parent, GHashTable *by_name, const char *name, guint index)
{
  const Piece *p = piece (shape, parent);

  if (by_name != NULL)
    {
      gpointer found;
      return g_hash_table_lookup_extended (by_name, name, NULL, &found)
                 ? (int)GPOINTER_TO_UINT (found)
                 : -1;
    }
  for (guint j = parent + 1; j < p->end; j = piece (shape, j)->end)
    {
      const Piece *c = piece (shape, j);
      if (p->array ? c->index == index : strcmp (c->name, name) == 0)
        return (int)j;
      if (p->array && c->index > index)
        break;
    }
  return -1;
}

static char *
child_path (const char *path, const Piece *p)
{
  char token[16];

  if (p->name != NULL)
    return pointer_append (path, p->name);
  g_snprintf (token, sizeof token, "%u", p->index);
  return pointer_append (path, token);
}

/* Tasks for pieces @ia of A and @ib of B at @path: none when the same, one
 * capture of both when small, else a capture without the pieces below and
 * their tasks. */
static void
plan_pieces (Plan *plan, guint ia, guint ib, const char *path)
{
  const Piece *pa = piece (plan->a, ia), *pb = piece (plan->b, ib);
  g_autoptr (GHashTable) by_name = NULL;
  gsize weight = pa->size + pb->size;
  Task *task;

  if (pa->size == pb->size && memcmp (pa->digest, pb->digest, sizeof pa->digest) == 0)
    return;
  if (pa->array != pb->array || (!pa->nested && !pb->nested) || weight <= plan->unit)
    {
      plan_add (plan, path, weight);
      return;
    }
  task = plan_add (plan, path, weight);
  if (!pb->array && pb->end - ib > 32)
    {
      by_name = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint j = ib + 1; j < pb->end; j = piece (plan->b, j)->end)
        g_hash_table_insert (by_name, (gpointer)piece (plan->b, j)->name, GUINT_TO_POINTER (j));
    }
  for (guint j = ia + 1; j < pa->end; j = piece (plan->a, j)->end)
    {
      const Piece *ca = piece (plan->a, j);
      int k = child_of (plan->b, ib, by_name, ca->name, ca->index);
      g_autofree char *p = child_path (path, ca);

      if (k < 0)
        {
          /* An element past B's last is only counted: captured empty. (A
           * member B lacks, or holds as a plain value, is captured.) */
          if (pa->array && ca->index >= pb->count && piece_prunable (ca))
            {
              g_hash_table_add (plan->prune_a, g_steal_pointer (&p));
              task->weight -= ca->size;
            }
          continue;
        }
      if (ca->array == piece (plan->b, k)->array && piece_prunable (ca)
          && piece_prunable (piece (plan->b, k)))
        {
          g_hash_table_add (plan->prune_a, g_strdup (p));
          g_hash_table_add (plan->prune_b, g_strdup (p));
          task->weight -= ca->size + piece (plan->b, k)->size;
          plan_pieces (plan, j, (guint)k, p);
        }
    }
  if (pb->array)
    for (guint j = ib + 1; j < pb->end; j = piece (plan->b, j)->end)
      {
        const Piece *cb = piece (plan->b, j);

        if (cb->index >= pa->count && piece_prunable (cb))
          {
            g_hash_table_add (plan->prune_b, child_path (path, cb));
            task->weight -= cb->size;
          }
      }
}

/* Captures the tasks [@from, @to) of both dumps and compares them in order. */
static void
diff_batch (const TressFormat *format, gpointer a, gpointer b, const Plan *plan, guint from,
            guint to, const char *const *skip, TressDiff *out)
{
  g_autoptr (GHashTable) wanted = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (TressJsonWriter) wa = NULL;
  g_autoptr (TressJsonWriter) wb = NULL;

  for (guint i = from; i < to; i++)
    g_hash_table_add (wanted, ((Task *)plan->tasks->pdata[i])->path);
  wa = tress_json_writer_new_capture (wanted);
  tress_json_writer_capture_skip (wa, skip);
  tress_json_writer_capture_prune (wa, plan->prune_a);
  format->dump (a, wa);
  wb = tress_json_writer_new_capture (wanted);
  tress_json_writer_capture_skip (wb, skip);
  tress_json_writer_capture_prune (wb, plan->prune_b);
  format->dump (b, wb);
  for (guint i = from; i < to; i++)
    {
      const char *path = ((Task *)plan->tasks->pdata[i])->path;
      JsonNode *x = tress_json_writer_get_captured (wa, path);
      JsonNode *y = tress_json_writer_get_captured (wb, path);

      if (x != NULL && y != NULL)
        diff_node (x, y, path, skip, out);
    }
}

static void
diff_dumps (const TressFormat *format, gpointer a, gpointer b, const char *const *skip,
            TressDiff *out)
{
  Shape sa, sb;
  Plan plan = { &sa, &sb, NULL, NULL, NULL, 0 };
  gsize batch, weight = 0;
  guint from = 0;

  shape_init (&sa, format, a, skip);
  shape_init (&sb, format, b, skip);
  if (sa.pieces->len > 0 && sb.pieces->len > 0)
    {
      batch = MAX (BATCH_MIN, (piece (&sa, 0)->size + piece (&sb, 0)->size) / BATCH_PARTS);
      plan.unit = batch / 4;
      plan.tasks = g_ptr_array_new_with_free_func (task_free);
      plan.prune_a = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      plan.prune_b = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      plan_pieces (&plan, 0, 0, "");
      shape_clear (&sa);
      shape_clear (&sb);
      for (guint i = 0; i < plan.tasks->len; i++)
        {
          gsize w = ((Task *)plan.tasks->pdata[i])->weight;

          if (i > from && weight + w > batch)
            {
              diff_batch (format, a, b, &plan, from, i, skip, out);
              from = i;
              weight = 0;
            }
          weight += w;
        }
      if (from < plan.tasks->len)
        diff_batch (format, a, b, &plan, from, plan.tasks->len, skip, out);
      g_ptr_array_unref (plan.tasks);
      g_hash_table_unref (plan.prune_a);
      g_hash_table_unref (plan.prune_b);
    }
  else
    {
      shape_clear (&sa);
      shape_clear (&sb);
    }
}

/* ---- models ---------------------------------------------------------------- */

void
tress_diff_models (const TressFormat *format, gpointer a, gpointer b, TressDiff *out)
{
  /* What the dump derives from other members (or the curves' keys say
   * better): left out of the member-by-member comparison. */
  static const char *const skip[] = {
    "stored_digest", "problems", "models",   "scene",      "objects",
    "groups",        "keys",     "raw_keys", "raw_frames", NULL,
  };

  if (format->curves != NULL)
    diff_curves (format->curves, a, b, out);
  if (format->diff != NULL)
    format->diff (a, b, out);
  else if (format->dump != NULL)
    diff_dumps (format, a, b, skip, out);
}

/* ---- output ---------------------------------------------------------------- */

/* @n items of @kind in a summary: "3 curves", "1 byte range". */
static void
append_count (GString *s, const char *kind, guint n)
{
  if (g_str_equal (kind, "bytes"))
    g_string_append_printf (s, "%u byte range%s", n, n == 1 ? "" : "s");
  else
    g_string_append_printf (s, "%u %s%s", n, kind, n == 1 ? "" : "s");
}

char *
tress_diff_summary (const TressDiff *diff)
{
  GString *s = g_string_new (NULL);

  if (diff->n_items == 0)
    return g_string_free (s, FALSE);
  g_string_append_printf (s, "%u difference%s: ", diff->n_items, diff->n_items == 1 ? "" : "s");
  for (guint k = 0; k < diff->kinds->len; k++)
    {
      if (k > 0)
        g_string_append (s, ", ");
      append_count (s, diff->kinds->pdata[k], g_array_index (diff->counts, guint, k));
    }
  if (diff->has_largest)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append_printf (s, "; the largest curve difference is %s, in %s",
                              g_ascii_formatd (buf, sizeof buf, "%.6g", diff->largest),
                              diff->largest_curve ? diff->largest_curve : "?");
      g_string_append_printf (s, " at frame %s",
                              g_ascii_formatd (buf, sizeof buf, "%g", diff->at_frame));
    }
  return g_string_free (s, FALSE);
}

char *
tress_diff_item_to_text (const TressDiffItem *item)
{
  return g_strdup_printf ("%s: %s", item->path[0] ? item->path : "/", item->text);
}

char *
tress_diff_to_text (const TressDiff *diff)
{
  GString *s = g_string_new (NULL);
  g_autofree char *summary = tress_diff_summary (diff);

  if (diff->n_items == 0)
    return g_string_free (s, FALSE);
  g_string_append_printf (s, "%s\n", summary);
  for (guint i = 0; i < diff->items->len; i++)
    {
      g_autofree char *line = tress_diff_item_to_text (diff->items->pdata[i]);
      g_string_append_printf (s, "%s\n", line);
    }
  for (guint k = 0; k < diff->kinds->len; k++)
    {
      guint n = g_array_index (diff->counts, guint, k);
      guint kept = g_array_index (diff->kept, guint, k);

      if (n > kept)
        g_string_append_printf (s, "… and %u more of kind %s (--all lists every one)\n", n - kept,
                                (const char *)diff->kinds->pdata[k]);
    }
  return g_string_free (s, FALSE);
}

static JsonObject *
item_object (const TressDiffItem *item)
{
  JsonObject *o = json_object_new ();

  json_object_set_string_member (o, "path", item->path);
  json_object_set_string_member (o, "kind", item->kind);
  json_object_set_string_member (o, "text", item->text);
  if (item->detail != NULL)
    {
      g_autoptr (GList) members = json_object_get_members (item->detail);
      for (GList *l = members; l != NULL; l = l->next)
        json_object_set_member (o, l->data,
                                json_node_copy (json_object_get_member (item->detail, l->data)));
    }
  return o;
}

JsonNode *
tress_diff_to_json (const char *format_id, const TressDiff *diff)
{
  JsonObject *root = json_object_new ();
  JsonArray *items = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_string_member (root, "format", format_id);
  json_object_set_boolean_member (root, "same", diff->n_items == 0);
  for (guint i = 0; i < diff->items->len; i++)
    json_array_add_object_element (items, item_object (diff->items->pdata[i]));
  json_object_set_array_member (root, "differences", items);
  json_node_take_object (node, root);
  return node;
}

void
tress_diff_item_write_json (const TressDiffItem *item, TressJsonWriter *w)
{
  tress_json_begin_object (w);
  tress_json_string_member (w, "path", item->path);
  tress_json_string_member (w, "kind", item->kind);
  tress_json_string_member (w, "text", item->text);
  if (item->detail != NULL)
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      json_object_iter_init_ordered (&iter, item->detail);
      while (json_object_iter_next_ordered (&iter, &name, &member))
        {
          tress_json_member (w, name);
          tress_json_add_node (w, member);
        }
    }
  tress_json_end_object (w);
}
