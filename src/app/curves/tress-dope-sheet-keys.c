/* tress-dope-sheet-keys.c: the dope sheet's key-time maths, without GTK
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-dope-sheet-keys.h"

#include <math.h>
#include <string.h>

/* ---------------------------------------------------------------- rows -- */

/* Appends the rows of the shown curves [first, end) at path @level. */
static void
layout_level (GArray *rows, const char *const *paths, const guint *indices, guint first, guint end,
              guint level, guint depth, TressCurveGroups *groups, gboolean fallback_open)
{
  guint i = first;

  while (i < end)
    {
      TressDopeRow r = { i, i + 1, depth, level, -1, FALSE };

      if (tress_curve_path_is_leaf (paths[i], level))
        {
          r.curve = (int)indices[i];
          g_array_append_val (rows, r);
          i++;
          continue;
        }
      while (r.end < end && !tress_curve_path_is_leaf (paths[r.end], level)
             && tress_curve_path_same_part (paths[i], paths[r.end], level))
        r.end++;
      if (groups != NULL)
        {
          g_autofree char *key = tress_curve_path_group_key (paths[i], level);

          r.open = tress_curve_groups_get_open (groups, key, fallback_open);
        }
      else
        r.open = fallback_open;
      g_array_append_val (rows, r);
      /* A closed group's rows are not made. */
      if (r.open)
        layout_level (rows, paths, indices, r.first, r.end, level + 1, depth + 1, groups,
                      fallback_open);
      i = r.end;
    }
}

GArray *
tress_dope_rows_layout (const char *const *paths, const guint *indices, guint n,
                        TressCurveGroups *groups, gboolean fallback_open)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (TressDopeRow));
  guint base = tress_curve_paths_common_levels (paths, n);
  TressDopeRow summary = { 0, n, 0, base, -1, TRUE };

  g_array_append_val (rows, summary);
  layout_level (rows, paths, indices, 0, n, base, 1, groups, fallback_open);
  return rows;
}

char *
tress_dope_row_dup_name (const TressDopeRow *row, const char *const *paths)
{
  gsize len = 0;
  const char *part;

  if (row->depth == 0 || row->first >= row->end)
    return NULL;
  part = tress_curve_path_part (paths[row->first], row->level, &len);
  if (part == NULL || *part == '\0')
    return g_strdup (paths[row->first] != NULL ? paths[row->first] : "");
  if (row->curve < 0)
    return g_strndup (part, len);
  /* A channel: the rest of its path ("RotateX/X" reads "RotateX X"). */
  return g_strdelimit (g_strdup (part), "/", ' ');
}

char *
tress_dope_row_dup_key (const TressDopeRow *row, const char *const *paths)
{
  if (row->depth == 0 || row->curve >= 0 || row->first >= row->end)
    return NULL;
  return tress_curve_path_group_key (paths[row->first], row->level);
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

double
tress_dope_scale_factor (const TressCurveViewport *vp, double pivot, double x0, double x,
                         gboolean snap)
{
  double px = tress_curve_viewport_frame_to_x (vp, pivot), factor;

  if (fabs (x0 - px) >= 10)
    {
      double f0 = tress_curve_viewport_x_to_frame (vp, x0);
      double f = tress_curve_viewport_x_to_frame (vp, x);

      if (snap && fabs (round (f0) - pivot) >= 1)
        factor = (round (f) - pivot) / (round (f0) - pivot);
      else
        factor = (f - pivot) / (f0 - pivot);
    }
  else
    {
      factor = 1 + (x - x0) / 100;
      if (snap)
        factor = round (factor * 10) / 10;
    }
  return isfinite (factor) ? MAX (factor, 0.001) : 1;
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
