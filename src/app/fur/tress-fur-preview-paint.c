/* tress-fur-preview-paint.c: the GL ribbon preview's pointer: hovering, picking, painting
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fur-preview-private.h"

/* ---- pointer -------------------------------------------------------------- */

void
fur_preview_set_hover (TressFurPreview *self, int g)
{
  if (self->hover == g)
    return;
  self->hover = g;
  fur_preview_update_info (self);
  queue_render (self);
}

static gboolean
on_hover_timeout (gpointer data)
{
  TressFurPreview *self = data;
  TressFurScreen *screen;

  self->hover_timeout = 0;
  /* Not while the view moves (the projection would be made for every step). */
  if (!self->pointer_inside || self->interacting || self->paint_mode)
    return G_SOURCE_REMOVE;
  screen = fur_preview_get_screen (self);
  fur_preview_set_hover (
      self, screen != NULL ? tress_fur_screen_pick (screen, self->pointer_x, self->pointer_y) : -1);
  return G_SOURCE_REMOVE;
}

void
fur_preview_on_motion (GtkEventControllerMotion *motion, double x, double y, TressFurPreview *self)
{
  self->pointer_inside = TRUE;
  self->pointer_x = x;
  self->pointer_y = y;
  if (self->paint_mode)
    {
      tress_fur_overlay_set_brush (TRESS_FUR_OVERLAY (self->overlay), TRUE, x, y,
                                   self->brush_radius);
      return;
    }
  if (self->hover_timeout == 0)
    self->hover_timeout = g_timeout_add (HOVER_DELAY_MS, on_hover_timeout, self);
}

void
fur_preview_on_leave (GtkEventControllerMotion *motion, TressFurPreview *self)
{
  self->pointer_inside = FALSE;
  g_clear_handle_id (&self->hover_timeout, g_source_remove);
  tress_fur_overlay_set_brush (TRESS_FUR_OVERLAY (self->overlay), FALSE, 0, 0, 0);
  fur_preview_set_hover (self, -1);
}

/* ---- painting ------------------------------------------------------------- */

/* One dab at (@x, @y): the lines under the brush, their new colours. Costs
 * what is under the brush: the screen grid finds the lines, the stroke looks
 * each up directly, and only the touched ribbons are recoloured. */
void
fur_preview_dab (TressFurPreview *self, double x, double y)
{
  TressFurScreen *screen = fur_preview_get_screen (self);
  GArray *lines = self->dab_lines, *falloff = self->dab_falloff, *ribbons = self->dab_ribbons;
  guint n;

  g_array_set_size (lines, 0);
  g_array_set_size (falloff, 0);
  g_array_set_size (ribbons, 0);

  self->dab_x = x;
  self->dab_y = y;
  self->n_dabs++;
  if (screen == NULL || self->stroke == NULL)
    return;
  n = tress_fur_screen_brush (screen, x, y, self->brush_radius, lines, falloff, ribbons);
  for (guint i = 0; i < n; i++)
    g_array_index (falloff, float, i) *= (float)self->brush_strength;
  if (n == 0
      || tress_cha_paint_stroke_dab (self->stroke, (const TressChaLineId *)(gpointer)lines->data,
                                     (const float *)(gpointer)falloff->data, n, NULL)
             == 0)
    return;
  /* Live: the touched ribbons take their new colours in the next frame. */
  fur_preview_add_recoloured (self, (const guint *)(gpointer)ribbons->data, ribbons->len);
  queue_render (self);
}

/* Paints pending dabs, oldest first, for about @budget_us (at least one;
 * all of them when @budget_us is negative). */
static void
run_pending_dabs (TressFurPreview *self, gint64 budget_us)
{
  gint64 start = g_get_monotonic_time ();
  guint done = 0;

  while (2 * done < self->pending_dabs->len)
    {
      const double *p = &g_array_index (self->pending_dabs, double, 2 * done);

      fur_preview_dab (self, p[0], p[1]);
      done++;
      if (budget_us >= 0 && g_get_monotonic_time () - start >= budget_us)
        break;
    }
  g_array_remove_range (self->pending_dabs, 0, 2 * done);
}

/* Each frame paints what fits in its budget, so the colouring follows the
 * brush and the window keeps answering however many lines are under it. */
#define PAINT_FRAME_BUDGET_US 10000

static gboolean
on_paint_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  TressFurPreview *self = data;

  run_pending_dabs (self, PAINT_FRAME_BUDGET_US);
  if (self->pending_dabs->len > 0)
    return G_SOURCE_CONTINUE;
  self->paint_tick = 0;
  return G_SOURCE_REMOVE;
}

gboolean
tress_fur_preview_paint_begin (TressFurPreview *self, double x, double y, TressChaPaintMode tool)
{
  TressChaFile *file = get_file (self);

  if (self->stroke != NULL)
    tress_fur_preview_paint_end (self);
  if (file == NULL || file->radeon == NULL || self->mesh == NULL)
    return FALSE;
  g_clear_pointer (&self->paint_status, g_free);
  self->stroke = tress_cha_paint_stroke_new (file, tool, self->colour_part);
  self->n_dabs = 0;
  fur_preview_set_hover (self, -1);
  fur_preview_dab (self, x, y);
  return TRUE;
}

void
tress_fur_preview_paint_to (TressFurPreview *self, double x, double y)
{
  double dx, dy, dist, spacing;
  guint steps;

  if (self->stroke == NULL)
    return;
  /* Dabs along the way, a quarter of the brush apart, painted by the frame
   * clock (see on_paint_tick). */
  if (self->pending_dabs->len > 0)
    {
      self->dab_x = g_array_index (self->pending_dabs, double, self->pending_dabs->len - 2);
      self->dab_y = g_array_index (self->pending_dabs, double, self->pending_dabs->len - 1);
    }
  dx = x - self->dab_x;
  dy = y - self->dab_y;
  dist = hypot (dx, dy);
  spacing = MAX (self->brush_radius / 4, 1);
  if (dist < spacing)
    return;
  steps = (guint)MIN (floor (dist / spacing), 256);
  {
    double x0 = self->dab_x, y0 = self->dab_y;

    for (guint i = 1; i <= steps; i++)
      {
        double p[2] = { x0 + dx * i / steps, y0 + dy * i / steps };

        g_array_append_vals (self->pending_dabs, p, 2);
      }
  }
  if (self->paint_tick == 0)
    self->paint_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), on_paint_tick, self, NULL);
}

void
tress_fur_preview_paint_frame (TressFurPreview *self)
{
  run_pending_dabs (self, PAINT_FRAME_BUDGET_US);
}

guint
tress_fur_preview_get_n_pending_dabs (TressFurPreview *self)
{
  return self->pending_dabs->len / 2;
}

guint
tress_fur_preview_paint_end (TressFurPreview *self)
{
  TressChaPaintStroke *stroke = self->stroke;
  TressChaPaintMode tool;
  guint32 target;
  guint skipped, n;

  if (stroke == NULL)
    return 0;
  /* The stroke ends where the pointer was let go. */
  run_pending_dabs (self, -1);
  if (self->paint_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->paint_tick);
  self->paint_tick = 0;
  self->stroke = NULL;
  tool = tress_cha_paint_stroke_get_mode (stroke);
  target = tress_cha_paint_stroke_get_target (stroke);
  skipped = tress_cha_paint_stroke_get_n_skipped (stroke);
  /* One undo step for the whole stroke; the document tells every view. */
  self->ending_stroke = TRUE;
  n = tress_cha_paint_stroke_finish (stroke,
                                     tress_document_get_history (TRESS_DOCUMENT (self->doc)));
  self->ending_stroke = FALSE;
  g_free (self->paint_status);
  {
    g_autofree char *part = fur_preview_part_label (self, target);
    g_autofree char *count = tress_format_count (n);
    g_autofree char *n_skipped = tress_format_count (skipped);
    g_autofree char *changed
        = tool == TRESS_CHA_PAINT_SMOOTH
              ? g_strdup_printf (ngettext ("Smoothed the weights of %s line",
                                           "Smoothed the weights of %s lines", n),
                                 count)
              /* Translators: "Painted 214 lines toward 5 · left leg". */
              : g_strdup_printf (
                  tool == TRESS_CHA_PAINT_ADD
                      ? ngettext ("Painted %s line toward %s", "Painted %s lines toward %s", n)
                      : ngettext ("Painted %s line away from %s", "Painted %s lines away from %s",
                                  n),
                  count, part);

    if (skipped > 0)
      /* Translators: "Painted 214 lines toward 5; 37 lines without that part were left alone". */
      self->paint_status
          = g_strdup_printf (ngettext ("%s; %s line without that part was left alone",
                                       "%s; %s lines without that part were left alone", skipped),
                             changed, n_skipped);
    else
      self->paint_status = g_steal_pointer (&changed);
  }
  fur_preview_update_info (self);
  return n;
}

static TressChaPaintMode
tool_for (TressFurPreview *self, GdkModifierType mods)
{
  /* As in modellers' weight painting: Shift smooths, Ctrl inverts. */
  if (mods & GDK_SHIFT_MASK)
    return TRESS_CHA_PAINT_SMOOTH;
  if ((mods & GDK_CONTROL_MASK) && self->tool == TRESS_CHA_PAINT_ADD)
    return TRESS_CHA_PAINT_SUBTRACT;
  if ((mods & GDK_CONTROL_MASK) && self->tool == TRESS_CHA_PAINT_SUBTRACT)
    return TRESS_CHA_PAINT_ADD;
  return self->tool;
}

void
fur_preview_on_paint_begin (GtkGestureDrag *gesture, double x, double y, TressFurPreview *self)
{
  GdkModifierType mods;

  if (!self->paint_mode)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  /* The primary button paints: the camera's drag and the pick click yield. */
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  self->drag_x = x;
  self->drag_y = y;
  tress_fur_preview_paint_begin (self, x, y, tool_for (self, mods));
}

void
fur_preview_on_paint_update (GtkGestureDrag *gesture, double dx, double dy, TressFurPreview *self)
{
  double x = self->drag_x + dx, y = self->drag_y + dy;

  tress_fur_overlay_set_brush (TRESS_FUR_OVERLAY (self->overlay), TRUE, x, y, self->brush_radius);
  tress_fur_preview_paint_to (self, x, y);
}

void
fur_preview_on_paint_end (GtkGestureDrag *gesture, double dx, double dy, TressFurPreview *self)
{
  tress_fur_preview_paint_end (self);
}

void
tress_fur_preview_set_paint_mode (TressFurPreview *self, gboolean paint)
{
  paint = !!paint;
  if (self->paint_mode == paint)
    return;
  if (!paint && self->stroke != NULL)
    tress_fur_preview_paint_end (self);
  self->paint_mode = paint;
  if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->paint_button)) != paint)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->paint_button), paint);
  gtk_widget_set_visible (self->paint_bar, paint);
  g_clear_pointer (&self->paint_status, g_free);
  fur_preview_set_hover (self, -1);
  tress_fur_overlay_set_brush (TRESS_FUR_OVERLAY (self->overlay), paint && self->pointer_inside,
                               self->pointer_x, self->pointer_y, self->brush_radius);
  /* Painting shows the weights it paints, live. */
  if (paint)
    tress_fur_preview_set_colour_mode (self, TRESS_FUR_COLOUR_WEIGHT, self->colour_part);
  else
    gtk_widget_set_sensitive (self->part_dropdown, self->colour_mode == TRESS_FUR_COLOUR_WEIGHT);
  fur_preview_update_info (self);
}

gboolean
tress_fur_preview_get_paint_mode (TressFurPreview *self)
{
  return self->paint_mode;
}

void
tress_fur_preview_set_paint_tool (TressFurPreview *self, TressChaPaintMode tool)
{
  if (tool > TRESS_CHA_PAINT_SMOOTH)
    return;
  self->tool = tool;
  self->updating_controls = TRUE;
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->tool_buttons[tool]), TRUE);
  self->updating_controls = FALSE;
  g_clear_pointer (&self->paint_status, g_free);
  fur_preview_update_info (self);
}

void
tress_fur_preview_set_paint_target (TressFurPreview *self, guint32 part)
{
  tress_fur_preview_set_colour_mode (
      self, self->paint_mode ? TRESS_FUR_COLOUR_WEIGHT : self->colour_mode, part);
}

void
tress_fur_preview_set_brush (TressFurPreview *self, double radius, double strength)
{
  self->brush_radius = CLAMP (radius, 1, 1000);
  self->brush_strength = CLAMP (strength, 0, 1);
  self->updating_controls = TRUE;
  gtk_range_set_value (GTK_RANGE (self->radius_scale), self->brush_radius);
  gtk_range_set_value (GTK_RANGE (self->strength_scale), self->brush_strength);
  self->updating_controls = FALSE;
  if (self->paint_mode && self->pointer_inside)
    tress_fur_overlay_set_brush (TRESS_FUR_OVERLAY (self->overlay), TRUE, self->pointer_x,
                                 self->pointer_y, self->brush_radius);
}

guint
tress_fur_preview_lines_under (TressFurPreview *self, double x, double y, double radius,
                               GArray *lines)
{
  TressFurScreen *screen = fur_preview_get_screen (self);
  g_autoptr (GArray) falloff = g_array_new (FALSE, FALSE, sizeof (float));

  return screen != NULL ? tress_fur_screen_brush (screen, x, y, radius, lines, falloff, NULL) : 0;
}

const char *
tress_fur_preview_get_paint_status (TressFurPreview *self)
{
  return tress_fur_overlay_get_info (TRESS_FUR_OVERLAY (self->overlay));
}

int
tress_fur_preview_pick (TressFurPreview *self, double x, double y, gboolean extend)
{
  TressFurScreen *screen = fur_preview_get_screen (self);
  int g;
  guint material, ribbon;

  if (screen == NULL)
    return -1;
  g = tress_fur_screen_pick (screen, x, y);
  if (g < 0)
    {
      if (!extend)
        tress_cha_document_set_selection (self->doc, NULL, 0, self);
      return -1;
    }
  tress_fur_mesh_ribbon_id (self->mesh, (guint)g, &material, &ribbon);
  if (extend)
    {
      const TressChaRibbonId *ids;
      guint n, i, k = 0;
      gboolean was = FALSE;
      g_autofree TressChaRibbonId *next = NULL;

      /* Ctrl or Shift toggles the ribbon in the selection. */
      ids = tress_cha_document_get_selection (self->doc, &n);
      next = g_new (TressChaRibbonId, n + 1);
      for (i = 0; i < n; i++)
        if (ids[i].material == material && ids[i].ribbon == ribbon)
          was = TRUE;
        else
          next[k++] = ids[i];
      if (!was)
        next[k++] = (TressChaRibbonId){ material, ribbon };
      tress_cha_document_set_selection (self->doc, next, k, self);
    }
  else
    {
      TressChaRibbonId id = { material, ribbon };

      tress_cha_document_set_selection (self->doc, &id, 1, self);
    }
  return g;
}

gboolean
tress_fur_preview_ribbon_position (TressFurPreview *self, guint global, double *x, double *y)
{
  float mvp[16], pts[2 * (TRESS_CHA_MAX_SECTIONS + 1) * 3], mid[3];
  double out[3];
  guint n, k;

  if (self->mesh == NULL || global >= self->mesh->n_ribbons)
    return FALSE;
  n = tress_fur_mesh_ribbon_points (self->mesh, global, self->morph_weights, pts);
  if (n < 4)
    return FALSE;
  for (k = 0; k < 3; k++)
    mid[k] = (pts[k] + pts[3 + k] + pts[6 + k] + pts[9 + k]) / 4;
  compute_mvp (self, mvp);
  if (!tress_gl_project (mvp, mid, gtk_widget_get_width (self->area),
                         gtk_widget_get_height (self->area), out))
    return FALSE;
  *x = out[0];
  *y = out[1];
  return TRUE;
}
