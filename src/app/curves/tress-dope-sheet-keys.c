/* tress-dope-sheet-keys.c: the dope sheet's key-time maths, without GTK
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-dope-sheet-keys.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- rows -- */

static void
row_free (gpointer p)
{
  TressDopeRow *row = p;

  g_free (row->name);
  g_array_unref (row->curves);
  g_free (row);
}

static TressDopeRow *
row_new (const char *name, guint depth, int curve)
{
  TressDopeRow *row = g_new0 (TressDopeRow, 1);

  row->name = g_strdup (name);
  row->depth = depth;
  row->curve = curve;
  row->curves = g_array_new (FALSE, FALSE, sizeof (guint));
  return row;
}

/* How many leading levels every path shares (the last level never counts). */
static guint
common_levels (char ***levels, guint n)
{
  guint common = G_MAXUINT;

  for (guint i = 0; i < n; i++)
    {
      guint len = g_strv_length (levels[i]);
      guint same = 0;

      /* A channel keeps its own name: the last level is never shared. */
      len = len > 0 ? len - 1 : 0;
      if (i == 0)
        {
          common = len;
          continue;
        }
      while (same < common && same < len && g_strcmp0 (levels[0][same], levels[i][same]) == 0)
        same++;
      common = same;
    }
  return common == G_MAXUINT ? 0 : common;
}

GPtrArray *
tress_dope_rows_new (const char *const *paths, const guint *indices, guint n)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func (row_free);
  g_autofree char ***levels = g_new0 (char **, n + 1);
  /* The group row open at each depth, and the path levels it stands for. */
  g_autoptr (GPtrArray) open = g_ptr_array_new ();
  TressDopeRow *summary = row_new (NULL, 0, -1);
  guint common;

  g_ptr_array_add (rows, summary);
  for (guint i = 0; i < n; i++)
    levels[i] = g_strsplit (paths[i] != NULL ? paths[i] : "", "/", -1);
  common = common_levels (levels, n);
  for (guint i = 0; i < n; i++)
    {
      char **lv = levels[i] + common;
      guint len = g_strv_length (lv);
      guint depth = 0;

      g_array_append_val (summary->curves, indices[i]);
      /* The groups: the levels above the channel; a group stays open while
       * the next curves share its levels. */
      for (; depth + 1 < len; depth++)
        {
          TressDopeRow *group = depth < open->len ? g_ptr_array_index (open, depth) : NULL;

          if (group == NULL || g_strcmp0 (group->name, lv[depth]) != 0)
            {
              group = row_new (lv[depth], depth + 1, -1);
              g_ptr_array_add (rows, group);
              g_ptr_array_set_size (open, depth);
              g_ptr_array_add (open, group);
            }
          g_array_append_val (group->curves, indices[i]);
        }
      g_ptr_array_set_size (open, depth);
      {
        TressDopeRow *channel = row_new (len > 0            ? lv[len - 1]
                                         : paths[i] != NULL ? paths[i]
                                                            : "",
                                         depth + 1, (int)indices[i]);

        g_array_append_val (channel->curves, indices[i]);
        g_ptr_array_add (rows, channel);
      }
    }
  for (guint i = 0; i < n; i++)
    g_strfreev (levels[i]);
  return rows;
}

/* --------------------------------------------------------------- marks -- */

int
tress_dope_column_of (const TressCurveViewport *vp, double frame)
{
  double x = tress_curve_viewport_frame_to_x (vp, frame);

  if (x < G_MININT / 2)
    return G_MININT / 2;
  if (x > G_MAXINT / 2)
    return G_MAXINT / 2;
  return (int)floor (x);
}

/* The first key in [@from, n) at or after @frame. */
static guint
lower_bound_from (const TressCurve *curve, guint from, double frame)
{
  guint lo = from, hi = tress_curve_get_n_keys (curve);

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (tress_curve_get_key (curve, mid)->frame < frame)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

guint
tress_dope_lower_bound (const TressCurve *curve, double frame)
{
  g_return_val_if_fail (curve != NULL, 0);
  return lower_bound_from (curve, 0, frame);
}

guint
tress_dope_bin_curve (const TressCurve *curve, guint curve_index,
                      const TressCurveSelection *selection, const TressCurveViewport *vp,
                      guint8 *columns, guint n_columns)
{
  guint n, i, visited = 0;
  int last_col = G_MININT;
  gboolean any_selected;

  g_return_val_if_fail (curve != NULL && vp != NULL, 0);
  n = tress_curve_get_n_keys (curve);
  if (n_columns == 0 || n == 0)
    return 0;
  any_selected = selection != NULL && tress_curve_selection_has_curve (selection, curve_index);
  i = lower_bound_from (curve, 0, tress_curve_viewport_x_to_frame (vp, 0));
  while (i < n)
    {
      int col = tress_dope_column_of (vp, tress_curve_get_key (curve, i)->frame);
      guint end;

      /* A key a rounding error short of the column's end stays in it. */
      col = MAX (col, last_col);

      if (col >= (int)n_columns)
        break;
      /* Every key of this column at once: the next search starts past it. */
      end = lower_bound_from (curve, i + 1, tress_curve_viewport_x_to_frame (vp, col + 1));
      if (col >= 0)
        {
          guint n_selected = 0;

          for (guint k = i; any_selected && k < end; k++)
            n_selected
                += tress_curve_selection_contains (selection, curve_index, k, TRESS_CURVE_PART_KEY);
          columns[col] |= TRESS_DOPE_MARK_KEY;
          if (n_selected > 0)
            columns[col] |= TRESS_DOPE_MARK_SELECTED;
          if (n_selected < end - i)
            columns[col] |= TRESS_DOPE_MARK_PLAIN;
          visited += col != last_col;
        }
      last_col = col;
      i = end;
    }
  return visited;
}

/* ------------------------------------------------------------ picking -- */

gboolean
tress_dope_nearest_frame (const TressCurve *curve, double frame, double max_distance, double *out)
{
  guint n = tress_curve_get_n_keys (curve), at = lower_bound_from (curve, 0, frame);
  double best = G_MAXDOUBLE, best_frame = 0;

  /* The nearest is the first at or after @frame, or the one before it. */
  for (guint k = at > 0 ? at - 1 : 0; k < n && k <= at; k++)
    {
      double f = tress_curve_get_key (curve, k)->frame;

      if (fabs (f - frame) < best)
        {
          best = fabs (f - frame);
          best_frame = f;
        }
    }
  if (best > max_distance)
    return FALSE;
  if (out != NULL)
    *out = best_frame;
  return TRUE;
}

guint
tress_dope_keys_in (const TressCurve *curve, double first, double last, GArray *keys)
{
  guint n = tress_curve_get_n_keys (curve), k = lower_bound_from (curve, 0, first), added = 0;

  for (; k < n && tress_curve_get_key (curve, k)->frame <= last; k++, added++)
    g_array_append_val (keys, k);
  return added;
}

guint
tress_dope_keys_at (const TressCurve *curve, double frame, GArray *keys)
{
  double eps = 1e-6 * MAX (1.0, fabs (frame));

  return tress_dope_keys_in (curve, frame - eps, frame + eps, keys);
}

/* ---------------------------------------------------------------- time -- */

double
tress_dope_drag_frames (const TressCurveViewport *vp, double x0, double x, gboolean snap)
{
  double d = (x - x0) * tress_curve_viewport_frames_per_px (vp);

  return snap ? round (d) : d;
}

TressCurveEdit
tress_dope_move_edit (double d_frame)
{
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_MOVE, .d_frame = d_frame, .d_value = 0 };

  return e;
}

TressCurveEdit
tress_dope_scale_edit (double pivot, double factor)
{
  TressCurveEdit e = { .kind = TRESS_CURVE_EDIT_SCALE,
                       .pivot_frame = pivot,
                       .frame_factor = factor,
                       .value_factor = 1.0,
                       .value_at_pivot = FALSE };

  return e;
}
