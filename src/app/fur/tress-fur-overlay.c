/* tress-fur-overlay.c: legend, information line and brush over the preview
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fur-overlay.h"

#include <math.h>
#include <string.h>

#define MARGIN 8.0
#define PAD 5.0
#define SWATCH 10.0
#define GAP 6.0
#define ROW_GAP 2.0

struct _TressFurOverlay
{
  GtkWidget parent_instance;
  char *title;
  GArray *entries; /* TressFurLegendEntry */
  char *info;
  gboolean brush_visible;
  double brush_x, brush_y, brush_radius;
};

G_DEFINE_FINAL_TYPE (TressFurOverlay, tress_fur_overlay, GTK_TYPE_WIDGET)

static void
clear_entry (gpointer data)
{
  TressFurLegendEntry *e = data;

  g_free (e->label);
}

static PangoLayout *
make_layout (TressFurOverlay *self, const char *text, gboolean bold)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  PangoAttrList *attrs = pango_attr_list_new ();

  /* Small print: the picture matters more. */
  pango_attr_list_insert (attrs, pango_attr_scale_new (0.85));
  if (bold)
    pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  return layout;
}

/* The legend's layout: its box, and each row's top (the title first, when
 * there is one). */
typedef struct
{
  double x, y, width, height;
  double row_height;
  gboolean has_title;
} LegendBox;

static gboolean
legend_box (TressFurOverlay *self, LegendBox *box)
{
  double width = 0, text_height = 0;
  int w, h;
  guint rows = self->entries->len;

  if (rows == 0 && self->title == NULL)
    return FALSE;
  box->has_title = self->title != NULL;
  if (box->has_title)
    {
      g_autoptr (PangoLayout) layout = make_layout (self, self->title, TRUE);

      pango_layout_get_pixel_size (layout, &w, &h);
      width = w;
      text_height = h;
      rows++;
    }
  for (guint i = 0; i < self->entries->len; i++)
    {
      const TressFurLegendEntry *e = &g_array_index (self->entries, TressFurLegendEntry, i);
      g_autoptr (PangoLayout) layout = make_layout (self, e->label, FALSE);

      pango_layout_get_pixel_size (layout, &w, &h);
      width = MAX (width, SWATCH + GAP + w);
      text_height = MAX (text_height, h);
    }
  box->row_height = MAX (text_height, SWATCH) + ROW_GAP;
  box->width = width + 2 * PAD;
  box->height = rows * box->row_height - ROW_GAP + 2 * PAD;
  box->x = MARGIN;
  box->y = gtk_widget_get_height (GTK_WIDGET (self)) - MARGIN - box->height;
  return TRUE;
}

static void
snapshot_legend (TressFurOverlay *self, GtkSnapshot *snapshot)
{
  const GdkRGBA back = { 0.08f, 0.08f, 0.1f, 0.78f };
  const GdkRGBA text = { 0.95f, 0.95f, 0.95f, 1.f };
  LegendBox box;
  double y;

  if (!legend_box (self, &box))
    return;
  {
    GskRoundedRect rounded;

    gsk_rounded_rect_init_from_rect (
        &rounded,
        &GRAPHENE_RECT_INIT ((float)box.x, (float)box.y, (float)box.width, (float)box.height), 4);
    gtk_snapshot_push_rounded_clip (snapshot, &rounded);
    gtk_snapshot_append_color (snapshot, &back, &rounded.bounds);
    gtk_snapshot_pop (snapshot);
  }
  y = box.y + PAD;
  if (box.has_title)
    {
      g_autoptr (PangoLayout) layout = make_layout (self, self->title, TRUE);

      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float)(box.x + PAD), (float)y));
      gtk_snapshot_append_layout (snapshot, layout, &text);
      gtk_snapshot_restore (snapshot);
      y += box.row_height;
    }
  for (guint i = 0; i < self->entries->len; i++)
    {
      const TressFurLegendEntry *e = &g_array_index (self->entries, TressFurLegendEntry, i);
      g_autoptr (PangoLayout) layout = make_layout (self, e->label, FALSE);
      GdkRGBA c = { e->rgb[0] / 255.f, e->rgb[1] / 255.f, e->rgb[2] / 255.f, 1.f };
      int w, h;
      double mid = y + (box.row_height - ROW_GAP) / 2;

      pango_layout_get_pixel_size (layout, &w, &h);
      gtk_snapshot_append_color (snapshot, &c,
                                 &GRAPHENE_RECT_INIT ((float)(box.x + PAD),
                                                      (float)round (mid - SWATCH / 2),
                                                      (float)SWATCH, (float)SWATCH));
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT ((float)(box.x + PAD + SWATCH + GAP),
                                                              (float)round (mid - h / 2.0)));
      gtk_snapshot_append_layout (snapshot, layout, &text);
      gtk_snapshot_restore (snapshot);
      y += box.row_height;
    }
}

static void
snapshot_info (TressFurOverlay *self, GtkSnapshot *snapshot)
{
  const GdkRGBA back = { 0.08f, 0.08f, 0.1f, 0.78f };
  const GdkRGBA text = { 0.95f, 0.95f, 0.95f, 1.f };
  g_autoptr (PangoLayout) layout = NULL;
  int w, h, max = gtk_widget_get_width (GTK_WIDGET (self)) - 2 * (int)(MARGIN + PAD);

  if (self->info == NULL || *self->info == '\0' || max <= 0)
    return;
  layout = make_layout (self, self->info, FALSE);
  pango_layout_set_width (layout, max * PANGO_SCALE);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_get_pixel_size (layout, &w, &h);
  gtk_snapshot_append_color (snapshot, &back,
                             &GRAPHENE_RECT_INIT ((float)MARGIN, (float)MARGIN,
                                                  (float)(w + 2 * PAD), (float)(h + 2 * PAD)));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot,
                          &GRAPHENE_POINT_INIT ((float)(MARGIN + PAD), (float)(MARGIN + PAD)));
  gtk_snapshot_append_layout (snapshot, layout, &text);
  gtk_snapshot_restore (snapshot);
}

static void
snapshot_brush (TressFurOverlay *self, GtkSnapshot *snapshot)
{
  const GdkRGBA dark = { 0, 0, 0, 0.7f }, light = { 1, 1, 1, 0.95f };
  const GdkRGBA dark4[4] = { dark, dark, dark, dark }, light4[4] = { light, light, light, light };
  double r = self->brush_radius;
  GskRoundedRect ring;
  float outer = (float)(r + 1), inner = (float)r;

  if (!self->brush_visible || !(r > 0))
    return;
  /* A light ring with a dark edge outside: visible on any fur. */
  gsk_rounded_rect_init_from_rect (&ring,
                                   &GRAPHENE_RECT_INIT ((float)(self->brush_x - outer),
                                                        (float)(self->brush_y - outer), 2 * outer,
                                                        2 * outer),
                                   outer);
  gtk_snapshot_append_border (snapshot, &ring, (const float[4]){ 1, 1, 1, 1 }, dark4);
  gsk_rounded_rect_init_from_rect (&ring,
                                   &GRAPHENE_RECT_INIT ((float)(self->brush_x - inner),
                                                        (float)(self->brush_y - inner), 2 * inner,
                                                        2 * inner),
                                   inner);
  gtk_snapshot_append_border (snapshot, &ring, (const float[4]){ 1.5f, 1.5f, 1.5f, 1.5f }, light4);
}

static void
tress_fur_overlay_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  TressFurOverlay *self = TRESS_FUR_OVERLAY (widget);

  snapshot_legend (self, snapshot);
  snapshot_info (self, snapshot);
  snapshot_brush (self, snapshot);
}

static void
tress_fur_overlay_measure (GtkWidget *widget, GtkOrientation orientation, int for_size,
                           int *minimum, int *natural, int *minimum_baseline, int *natural_baseline)
{
  /* It fits whatever the preview is: nothing here asks for room. */
  *minimum = *natural = 0;
}

static void
tress_fur_overlay_finalize (GObject *object)
{
  TressFurOverlay *self = TRESS_FUR_OVERLAY (object);

  g_free (self->title);
  g_free (self->info);
  g_array_unref (self->entries);
  G_OBJECT_CLASS (tress_fur_overlay_parent_class)->finalize (object);
}

static void
tress_fur_overlay_class_init (TressFurOverlayClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = tress_fur_overlay_finalize;
  widget_class->snapshot = tress_fur_overlay_snapshot;
  widget_class->measure = tress_fur_overlay_measure;
  gtk_widget_class_set_css_name (widget_class, "furoverlay");
}

static void
tress_fur_overlay_init (TressFurOverlay *self)
{
  self->entries = g_array_new (FALSE, TRUE, sizeof (TressFurLegendEntry));
  g_array_set_clear_func (self->entries, clear_entry);
  gtk_widget_set_can_target (GTK_WIDGET (self), FALSE);
  gtk_widget_set_can_focus (GTK_WIDGET (self), FALSE);
}

GtkWidget *
tress_fur_overlay_new (void)
{
  return g_object_new (TRESS_TYPE_FUR_OVERLAY, NULL);
}

void
tress_fur_overlay_set_legend (TressFurOverlay *self, const char *title,
                              const TressFurLegendEntry *entries, guint n)
{
  g_free (self->title);
  self->title = g_strdup (title);
  g_array_set_size (self->entries, 0);
  for (guint i = 0; i < n; i++)
    {
      TressFurLegendEntry e = entries[i];

      e.label = g_strdup (entries[i].label);
      g_array_append_val (self->entries, e);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const char *
tress_fur_overlay_get_legend_title (TressFurOverlay *self)
{
  return self->title;
}

guint
tress_fur_overlay_get_legend_size (TressFurOverlay *self)
{
  return self->entries->len;
}

gboolean
tress_fur_overlay_get_legend_entry (TressFurOverlay *self, guint i, const char **label,
                                    guint8 rgb[3], graphene_rect_t *swatch)
{
  const TressFurLegendEntry *e;
  LegendBox box;
  double top;

  if (i >= self->entries->len || !legend_box (self, &box))
    return FALSE;
  e = &g_array_index (self->entries, TressFurLegendEntry, i);
  if (label != NULL)
    *label = e->label;
  if (rgb != NULL)
    memcpy (rgb, e->rgb, 3);
  top = box.y + PAD + (i + (box.has_title ? 1 : 0)) * box.row_height;
  if (swatch != NULL)
    *swatch = GRAPHENE_RECT_INIT ((float)(box.x + PAD),
                                  (float)round (top + (box.row_height - ROW_GAP) / 2 - SWATCH / 2),
                                  (float)SWATCH, (float)SWATCH);
  return TRUE;
}

void
tress_fur_overlay_set_info (TressFurOverlay *self, const char *text)
{
  if (g_strcmp0 (self->info, text) == 0)
    return;
  g_free (self->info);
  self->info = g_strdup (text);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const char *
tress_fur_overlay_get_info (TressFurOverlay *self)
{
  return self->info != NULL ? self->info : "";
}

void
tress_fur_overlay_set_brush (TressFurOverlay *self, gboolean visible, double x, double y,
                             double radius)
{
  if (self->brush_visible == visible && self->brush_x == x && self->brush_y == y
      && self->brush_radius == radius)
    return;
  self->brush_visible = visible;
  self->brush_x = x;
  self->brush_y = y;
  self->brush_radius = radius;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
tress_fur_overlay_get_brush (TressFurOverlay *self, double *x, double *y, double *radius)
{
  if (x != NULL)
    *x = self->brush_x;
  if (y != NULL)
    *y = self->brush_y;
  if (radius != NULL)
    *radius = self->brush_radius;
  return self->brush_visible;
}
