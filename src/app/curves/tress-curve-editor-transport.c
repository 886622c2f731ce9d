/* tress-curve-editor-transport.c: the curve editor's timeline: playhead, play button, frame and
 * rate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-curve-editor-private.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

/* ----------------------------------------------------------- timeline -- */

void
update_timeline (TressCurveEditor *self)
{
  double frame = tress_curve_view_get_playhead (self->view);
  double first, last;
  GString *text = g_string_new (NULL);
  GString *markup = g_string_new (NULL);
  guint named = 0, more = 0;

  tress_curve_view_get_frame_range (self->view, &first, &last);
  self->syncing = TRUE;
  gtk_adjustment_configure (self->timeline_adj, frame, MIN (first, frame), MAX (last, frame), 1, 10,
                            0);
  if (gtk_spin_button_get_value (self->frame_spin) != frame)
    gtk_spin_button_set_value (self->frame_spin, frame);
  self->syncing = FALSE;

  /* The frame is in the field beside it; the text keeps it too. */
  g_string_append_printf (text, _ ("Frame %.2f"), frame);
  /* The first few shown curves by name; the others are counted. */
  for (guint i = 0; i < tress_curve_view_get_n_curves (self->view); i++)
    {
      guint index = tress_curve_view_get_curve_index (self->view, i);
      const TressCurve *c = tress_curve_view_get_shown_curve (self->view, index);
      g_autofree char *name = NULL;
      GdkRGBA rgba;
      double v;
      g_autofree char *esc = NULL;

      if (c == NULL || tress_curve_get_n_keys (c) == 0
          || !tress_curve_view_get_curve_shown (self->view, index))
        continue;
      if (named == TIMELINE_MAX_CURVES)
        {
          more++;
          continue;
        }
      named++;
      v = tress_curve_evaluate (c, frame) * tress_curve_view_get_display_scale (self->view, index);
      name = short_name (c);
      tress_curve_view_get_curve_color (self->view, index, &rgba);
      g_string_append_printf (text, "  %s %.4g", name, v);
      esc = g_markup_escape_text (name, -1);
      g_string_append_printf (markup, "%s<span foreground=\"#%02x%02x%02x\">%s</span> %.4g",
                              markup->len > 0 ? "   " : "", (int)(rgba.red * 255),
                              (int)(rgba.green * 255), (int)(rgba.blue * 255), esc, v);
    }
  if (more > 0)
    {
      g_autofree char *m
          = g_strdup_printf (ngettext ("and %u more curve", "and %u more curves", more), more);
      g_autofree char *esc = g_markup_escape_text (m, -1);

      g_string_append_printf (text, "  %s", m);
      g_string_append_printf (markup, "   <span alpha=\"60%%\">%s</span>", esc);
    }
  g_free (self->timeline_text);
  self->timeline_text = g_string_free (text, FALSE);
  gtk_label_set_markup (self->timeline_label, markup->str);
  g_string_free (markup, TRUE);
}

void
on_timeline_value (GtkAdjustment *adj, TressCurveEditor *self)
{
  if (self->syncing)
    return;
  tress_curve_view_set_playhead (self->view, gtk_adjustment_get_value (adj));
}

void
on_playhead (TressCurveView *view, GParamSpec *pspec, TressCurveEditor *self)
{
  update_timeline (self);
}

void
on_frame_spin (GtkAdjustment *adj, TressCurveEditor *self)
{
  if (self->syncing)
    return;
  tress_curve_view_set_playhead (self->view, gtk_adjustment_get_value (adj));
}

/* Play turns into Pause while the animation plays. */
void
on_playing (TressCurveView *view, GParamSpec *pspec, TressCurveEditor *self)
{
  gboolean playing = FALSE;

  g_object_get (view, "playing", &playing, NULL);
  gtk_button_set_icon_name (GTK_BUTTON (self->play_button), playing
                                                                ? "media-playback-pause-symbolic"
                                                                : "media-playback-start-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->play_button),
                               playing ? _ ("Pause (Space)") : _ ("Play (Space)"));
}

/* The rate: the file's, shown and fixed, where it stores one (NIFF); else the
 * default the user sets (kept in GSettings), 30 to begin with. */
void
update_fps (TressCurveEditor *self)
{
  double file = tress_curve_view_get_file_fps (self->view);
  double rate = 30;

  g_object_get (self->view, "default-fps", &rate, NULL);
  self->syncing = TRUE;
  gtk_spin_button_set_value (self->fps_spin, file > 0 ? file : rate);
  self->syncing = FALSE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->fps_spin), file <= 0);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->fps_spin),
                               file > 0
                                   ? _ ("Frames per second, as the file stores them")
                                   : _ ("Frames per second to play at: the file stores no rate"));
}

void
on_fps_spin (GtkAdjustment *adj, TressCurveEditor *self)
{
  double rate = gtk_adjustment_get_value (adj);

  if (self->syncing || tress_curve_view_get_file_fps (self->view) > 0)
    return;
  g_object_set (self->view, "default-fps", rate, NULL);
  if (self->settings != NULL)
    g_settings_set_double (self->settings, "default-fps", rate);
}
