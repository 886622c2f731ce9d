/* tress-fur-preview.c: the GL ribbon preview
 *
 * Per vertex the GPU holds a position and a point id (ribbon × 2 + side); per
 * ribbon a colour and a selected flag (texture buffers looked up by ribbon),
 * per point the morph displacements. Ribbons are triangle strips joined by
 * primitive restart; the index lists are written straight into mapped GL
 * buffers, so no CPU copy of them exists.
 *
 * A frame is two layers. The base (every ribbon in its colour, the others
 * dimmed when the selection is isolated) is drawn into an offscreen colour and
 * depth buffer, and only again when the view, the geometry or many colours
 * change; ribbons whose colour changed (a paint dab, an undo) are drawn again
 * into it in place (same vertices, same depth: they win where they were
 * visible). Each frame copies the base to the screen and draws on top: the
 * selected ribbons, first outlined (drawn offset around themselves in the
 * outline colour), then in the highlight colour, over everything else; the
 * ribbon under the pointer, lightened. So selecting, hovering and painting
 * cost what they touch, not the whole mesh. The legend, the information line
 * and the brush circle are GTK drawing over the GL area (TressFurOverlay).
 *
 * Level of detail: while the user orbits, pans or zooms a file of more than
 * lod_limit ribbons, only every k-th ribbon is drawn (a second, short index
 * list); LOD_IDLE_MS after the last movement the full mesh is drawn again.
 * Resizing counts as moving. The first frame of a newly opened file is drawn
 * the same way, and the full one right after it, so the picture appears before
 * the whole mesh is drawn.
 *
 * Picking, hovering and the brush use the mesh projected once per view
 * (TressFurScreen), so they are exact whatever was drawn, and cost what is
 * under the pointer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fur-preview-private.h"

G_DEFINE_FINAL_TYPE (TressFurPreview, tress_fur_preview, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_FRAME_DRAWN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

void
fur_preview_emit_frame_drawn (TressFurPreview *self)
{
  g_signal_emit (self, signals[SIGNAL_FRAME_DRAWN], 0);
}

/* ---- model ---------------------------------------------------------------- */

static void
drop_screen (TressFurPreview *self)
{
  g_clear_pointer (&self->screen, tress_fur_screen_free);
}

/* The mesh as the view shows it now (made when the view changed). */
TressFurScreen *
fur_preview_get_screen (TressFurPreview *self)
{
  float mvp[16];
  double w = gtk_widget_get_width (self->area), h = gtk_widget_get_height (self->area);

  if (self->mesh == NULL || w <= 0 || h <= 0)
    return NULL;
  compute_mvp (self, mvp);
  if (!tress_fur_screen_matches (self->screen, self->mesh, mvp, self->morph_weights, w, h))
    {
      drop_screen (self);
      self->screen = tress_fur_screen_new (self->mesh, mvp, self->morph_weights, w, h);
    }
  return self->screen;
}

static void
rebuild_mesh (TressFurPreview *self)
{
  TressChaFile *file = get_file (self);

  drop_screen (self);
  self->hover = -1;
  g_clear_pointer (&self->mesh, tress_fur_mesh_free);
  self->mesh = tress_fur_mesh_new (file, self->morality);
  self->n_mesh_builds++;
  if (file != self->mesh_file)
    {
      self->first_frame_pending = TRUE;
      self->full_frame_drawn = FALSE;
    }
  self->mesh_file = file;
  tress_fur_body_view_set_file (self->body_view, file);
  self->geometry_dirty = self->colours_dirty = self->selection_dirty = TRUE;
  self->base_dirty = TRUE;
  fur_preview_clear_recoloured (self);
  fur_preview_collect_selection (self);
  queue_render (self);
}

char *
fur_preview_part_label (TressFurPreview *self, guint32 part)
{
  return tress_fur_names_label (self->names, part);
}

static int
compare_u32 (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *)a, y = *(const guint32 *)b;

  return x < y ? -1 : x > y;
}

/* More ribbons first, then the lower part. */
int
fur_preview_compare_part_counts (gconstpointer a, gconstpointer b)
{
  const PartCount *x = a, *y = b;

  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return x->part < y->part ? -1 : x->part > y->part;
}

/* The body parts of the file (every applied list, every attachment), ascending. */
static void
collect_parts (TressFurPreview *self)
{
  TressChaFile *file = get_file (self);
  const TressChaRadeon *rad = file != NULL ? file->radeon : NULL;
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);

  g_array_set_size (self->parts, 0);
  for (guint mi = 0; rad != NULL && mi < rad->n_materials; mi++)
    {
      const TressChaMaterial *m = &rad->materials[mi];

      for (guint i = 0; i < m->n_applied; i++)
        if (g_hash_table_add (seen, GUINT_TO_POINTER (m->applied[i] + 1)))
          g_array_append_val (self->parts, m->applied[i]);
      for (guint r = 0; m->attach != NULL && r < m->n_ribbons; r++)
        if (g_hash_table_add (seen, GUINT_TO_POINTER (m->attach[r] + 1)))
          g_array_append_val (self->parts, m->attach[r]);
    }
  g_array_sort (self->parts, compare_u32);
}

/* The part drop-down: the file's body parts with their names. */
static void
fill_parts (TressFurPreview *self)
{
  g_autoptr (GtkStringList) list = gtk_string_list_new (NULL);
  guint selected = GTK_INVALID_LIST_POSITION;

  for (guint i = 0; i < self->parts->len; i++)
    {
      guint32 part = g_array_index (self->parts, guint32, i);
      g_autofree char *label = fur_preview_part_label (self, part);

      gtk_string_list_append (list, label);
      if (part == self->colour_part)
        selected = i;
    }
  self->updating_controls = TRUE;
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->part_dropdown), G_LIST_MODEL (list));
  if (selected == GTK_INVALID_LIST_POSITION && self->parts->len > 0)
    {
      selected = 0;
      self->colour_part = g_array_index (self->parts, guint32, 0);
    }
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->part_dropdown), selected);
  self->updating_controls = FALSE;
}

static void on_morph_changed (GtkRange *range, TressFurPreview *self);

static void
rebuild_controls (TressFurPreview *self)
{
  TressChaFile *file = get_file (self);
  const TressChaRadeon *rad = file != NULL ? file->radeon : NULL;
  g_autoptr (GtkStringList) moralities = gtk_string_list_new (NULL);
  GtkWidget *child;
  guint i;

  gtk_string_list_append (moralities, _ ("Base length"));
  for (i = 0; rad != NULL && i < rad->n_moralities; i++)
    {
      g_autofree char *name = g_strndup ((const char *)rad->morality_names[i], TRESS_CHA_NAME_SIZE);

      gtk_string_list_append (moralities, name);
    }
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->morality_dropdown), G_LIST_MODEL (moralities));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->morality_dropdown),
                              MIN (self->morality, rad != NULL ? rad->n_moralities : 0));

  while ((child = gtk_widget_get_first_child (self->morph_box)) != NULL)
    gtk_box_remove (GTK_BOX (self->morph_box), child);
  for (i = 0; rad != NULL && i < MIN (rad->n_morphs, TRESS_FUR_MESH_MAX_MORPHS); i++)
    {
      g_autofree char *name = g_strndup ((const char *)rad->morph_names[i], TRESS_CHA_NAME_SIZE);
      GtkWidget *label = gtk_label_new (name);
      GtkWidget *scale = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, 0, 1, 0.01);

      gtk_widget_set_hexpand (scale, TRUE);
      gtk_range_set_value (GTK_RANGE (scale), self->morph_weights[i]);
      g_object_set_data (G_OBJECT (scale), "morph", GUINT_TO_POINTER (i));
      gtk_widget_set_name (scale, name);
      g_signal_connect (scale, "value-changed", G_CALLBACK (on_morph_changed), self);
      gtk_box_append (GTK_BOX (self->morph_box), label);
      gtk_box_append (GTK_BOX (self->morph_box), scale);
    }
  collect_parts (self);
  fill_parts (self);
  fur_preview_update_legend (self);
}

/* An edit of a few ribbons that kept their section counts updates just their
 * points (a weight or a length changed, not the whole file). FALSE: rebuild. */
static gboolean
update_ribbons (TressFurPreview *self, const TressChaChange *change)
{
  guint i, g;

  if ((change->flags & (TRESS_CHA_CHANGE_STRUCTURE | TRESS_CHA_CHANGE_HEADER)) || self->mesh == NULL
      || get_file (self) != self->mesh_file || change->material < 0 || change->n_ribbons == 0
      || change->n_ribbons > self->mesh->n_ribbons / 4 + 16)
    return FALSE;
  for (i = 0; i < change->n_ribbons; i++)
    {
      g = tress_fur_mesh_global (self->mesh, (guint)change->material, change->ribbons[i]);
      /* Checks the ribbon still fits; the points go up with the next frame. */
      if (g == G_MAXUINT || tress_fur_mesh_update_ribbon (self->mesh, g, NULL) == 0)
        return FALSE;
      g_array_append_val (self->changed_ribbons, g);
    }
  /* Edits piling up while nothing is drawn (no GL): one upload of all. */
  if (self->changed_ribbons->len > self->mesh->n_ribbons / 4 + 16)
    {
      g_array_set_size (self->changed_ribbons, 0);
      self->geometry_dirty = TRUE;
    }
  drop_screen (self);
  return TRUE;
}

/* Ribbons whose colours may have changed: theirs again, or all when many. */
static void
recolour (TressFurPreview *self, int material, const guint *ribbons, guint n)
{
  if (self->mesh == NULL)
    return;
  if (material < 0 || n == 0 || self->recoloured->len + n > self->mesh->n_ribbons / 2
      || self->colour_mode == TRESS_FUR_COLOUR_PROBLEMS)
    self->colours_dirty = TRUE;
  else
    for (guint i = 0; i < n; i++)
      {
        guint g = tress_fur_mesh_global (self->mesh, (guint)material, ribbons[i]);

        if (g != G_MAXUINT)
          fur_preview_add_recoloured (self, &g, 1);
      }
  queue_render (self);
}

static void
on_fur_changed (TressChaDocument *doc, const TressChaChange *change, gboolean undo,
                TressFurPreview *self)
{
  /* Points and weights refit the body (drawn with the next full base). */
  tress_fur_body_view_invalidate (self->body_view);
  /* Weights alone move nothing: only colours change. */
  if (change->flags == (TRESS_CHA_CHANGE_LINES | TRESS_CHA_CHANGE_WEIGHTS)
      && get_file (self) == self->mesh_file)
    recolour (self, change->material, change->ribbons, change->n_ribbons);
  else if ((change->flags
            & (TRESS_CHA_CHANGE_LINES | TRESS_CHA_CHANGE_RIBBONS | TRESS_CHA_CHANGE_STRUCTURE))
           && !update_ribbons (self, change))
    rebuild_mesh (self);
  else
    {
      self->colours_dirty = TRUE;
      queue_render (self);
    }
  if (change->flags
      & (TRESS_CHA_CHANGE_MATERIAL | TRESS_CHA_CHANGE_RIBBONS | TRESS_CHA_CHANGE_STRUCTURE))
    {
      /* Applied lists and attachments: the parts offered and the legend. */
      collect_parts (self);
      fill_parts (self);
      fur_preview_update_legend (self);
    }
  /* "Painted 214 lines…" was about the last stroke; after an undo or another
   * edit it would be about something no longer there. */
  if (self->paint_status != NULL && !self->ending_stroke)
    {
      g_clear_pointer (&self->paint_status, g_free);
      fur_preview_update_info (self);
    }
}

static void
on_document_changed (TressDocument *doc, TressFurPreview *self)
{
  /* A replaced model (load, revert) arrives with a new pointer. */
  if (get_file (self) != self->mesh_file)
    {
      rebuild_mesh (self);
      rebuild_controls (self);
    }
  else if (self->colour_mode == TRESS_FUR_COLOUR_PROBLEMS)
    {
      /* The problems are the new model's. */
      self->colours_dirty = TRUE;
      fur_preview_update_legend (self);
      queue_render (self);
    }
}

static void
on_selection_changed (TressChaDocument *doc, gpointer origin, TressFurPreview *self)
{
  fur_preview_collect_selection (self);
  self->selection_dirty = TRUE;
  fur_preview_update_legend (self);
  queue_render (self);
}

static void
on_names_changed (TressFurNames *names, guint part, TressFurPreview *self)
{
  fill_parts (self);
  fur_preview_update_legend (self);
  fur_preview_update_info (self);
}

/* ---- controls and gestures ------------------------------------------------ */

gboolean
fur_preview_on_lod_idle (gpointer data)
{
  TressFurPreview *self = data;

  self->lod_timeout = 0;
  self->interacting = FALSE;
  queue_render (self);
  return G_SOURCE_REMOVE;
}

/* The view moves: draw the reduced mesh until it has rested LOD_IDLE_MS. */
static void
view_moving (TressFurPreview *self)
{
  self->interacting = TRUE;
  g_clear_handle_id (&self->lod_timeout, g_source_remove);
  self->lod_timeout = g_timeout_add (LOD_IDLE_MS, fur_preview_on_lod_idle, self);
}

static void
on_morph_changed (GtkRange *range, TressFurPreview *self)
{
  guint m = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (range), "morph"));

  tress_fur_preview_set_morph_weight (self, m, gtk_range_get_value (range));
}

static void
on_morality_selected (GtkDropDown *dd, GParamSpec *pspec, TressFurPreview *self)
{
  guint sel = gtk_drop_down_get_selected (dd);

  if (sel != GTK_INVALID_LIST_POSITION)
    tress_fur_preview_set_morality (self, sel);
}

static void
on_colour_selected (GtkWidget *widget, GParamSpec *pspec, TressFurPreview *self)
{
  guint sel = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->colour_dropdown));
  guint part = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->part_dropdown));

  if (sel == GTK_INVALID_LIST_POSITION || self->updating_controls)
    return;
  tress_fur_preview_set_colour_mode (
      self, (TressFurColourMode)sel,
      part < self->parts->len ? g_array_index (self->parts, guint32, part) : self->colour_part);
}

static void
on_camera_moved (gpointer data, TressGlCameraEvent event)
{
  TressFurPreview *self = data;

  /* A press without movement is a click: nothing was drawn reduced. */
  if (event == TRESS_GL_CAMERA_MOVED || self->interacting)
    view_moving (self);
  if (event == TRESS_GL_CAMERA_MOVED)
    fur_preview_set_hover (self, -1);
  queue_render (self);
}

static void
on_resize (GtkGLArea *area, int width, int height, TressFurPreview *self)
{
  /* Resizing the window or the panes moves the view too; not while the window
   * is first laid out, which would only delay the first full picture. */
  if (self->mesh != NULL && self->n_lod_indices > 0 && self->full_frame_drawn)
    view_moving (self);
}

static void
on_click (GtkGestureClick *gesture, int n_press, double x, double y, TressFurPreview *self)
{
  GdkModifierType mods
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  if (self->paint_mode)
    return;
  tress_fur_preview_pick (self, x, y, (mods & (GDK_CONTROL_MASK | GDK_SHIFT_MASK)) != 0);
}

static void
on_frame_all_clicked (GtkButton *button, TressFurPreview *self)
{
  tress_fur_preview_frame_all (self);
}

static void
on_frame_selection_clicked (GtkButton *button, TressFurPreview *self)
{
  tress_fur_preview_frame_selection (self);
}

static void
on_isolate_toggled (GtkToggleButton *button, TressFurPreview *self)
{
  tress_fur_preview_set_isolate (self, gtk_toggle_button_get_active (button));
}

static void
on_body_toggled (GtkToggleButton *button, GParamSpec *pspec, TressFurPreview *self)
{
  tress_fur_body_view_set_visible (self->body_view, gtk_toggle_button_get_active (button));
  self->base_dirty = TRUE;
  queue_render (self);
}

static void
on_paint_toggled (GtkToggleButton *button, TressFurPreview *self)
{
  tress_fur_preview_set_paint_mode (self, gtk_toggle_button_get_active (button));
}

static void
on_tool_toggled (GtkToggleButton *button, TressFurPreview *self)
{
  if (!gtk_toggle_button_get_active (button) || self->updating_controls)
    return;
  for (guint k = 0; k < 3; k++)
    if (self->tool_buttons[k] == GTK_WIDGET (button))
      tress_fur_preview_set_paint_tool (self, (TressChaPaintMode)k);
}

static void
on_brush_changed (GtkRange *range, TressFurPreview *self)
{
  if (self->updating_controls)
    return;
  tress_fur_preview_set_brush (self, gtk_range_get_value (GTK_RANGE (self->radius_scale)),
                               gtk_range_get_value (GTK_RANGE (self->strength_scale)));
}

/* ---- GObject -------------------------------------------------------------- */

static void
tress_fur_preview_dispose (GObject *object)
{
  TressFurPreview *self = TRESS_FUR_PREVIEW (object);

  if (self->stroke != NULL)
    tress_cha_paint_stroke_cancel (g_steal_pointer (&self->stroke));
  if (self->paint_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->paint_tick);
  self->paint_tick = 0;
  if (self->doc != NULL)
    g_signal_handlers_disconnect_by_data (self->doc, self);
  if (self->names != NULL)
    g_signal_handlers_disconnect_by_data (self->names, self);
  g_clear_object (&self->doc);
  g_clear_object (&self->names);
  g_clear_handle_id (&self->lod_timeout, g_source_remove);
  g_clear_handle_id (&self->hover_timeout, g_source_remove);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (tress_fur_preview_parent_class)->dispose (object);
}

static void
tress_fur_preview_finalize (GObject *object)
{
  TressFurPreview *self = TRESS_FUR_PREVIEW (object);

  drop_screen (self);
  g_clear_pointer (&self->mesh, tress_fur_mesh_free);
  tress_fur_body_view_free (self->body_view);
  g_array_unref (self->changed_ribbons);
  g_array_unref (self->recoloured);
  g_free (self->recolour_stamp);
  g_free (self->colours);
  g_array_unref (self->pending_dabs);
  g_array_unref (self->dab_lines);
  g_array_unref (self->dab_falloff);
  g_array_unref (self->dab_ribbons);
  g_array_unref (self->sel_first);
  g_array_unref (self->sel_count);
  g_array_unref (self->parts);
  g_free (self->gl_error);
  g_free (self->paint_status);
  G_OBJECT_CLASS (tress_fur_preview_parent_class)->finalize (object);
}

static void
tress_fur_preview_class_init (TressFurPreviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tress_fur_preview_dispose;
  object_class->finalize = tress_fur_preview_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "furpreview");

  signals[SIGNAL_FRAME_DRAWN]
      = g_signal_new ("frame-drawn", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 0);
}

static GtkWidget *
icon_button (const char *icon, const char *tooltip, gboolean toggle)
{
  GtkWidget *button = toggle ? gtk_toggle_button_new () : gtk_button_new ();

  gtk_button_set_icon_name (GTK_BUTTON (button), icon);
  gtk_widget_set_tooltip_text (button, tooltip);
  return button;
}

/* Labels that give up characters in the button, not in the list. */
static void
setup_label (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer ellipsize)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (ellipsize)
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 10);
      gtk_label_set_width_chars (GTK_LABEL (label), 4);
    }
  gtk_list_item_set_child (item, label);
}

static void
bind_label (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkStringObject *s = gtk_list_item_get_item (item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)),
                      s != NULL ? gtk_string_object_get_string (s) : "");
}

static GtkListItemFactory *
label_factory (gboolean ellipsize)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup_label), GINT_TO_POINTER (ellipsize));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_label), NULL);
  return factory;
}

static void
tress_fur_preview_init (TressFurPreview *self)
{
  GtkWidget *view_bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *tool_bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *frame_all = icon_button ("zoom-fit-best-symbolic", _ ("Frame all (Ctrl+Home)"), FALSE);
  GtkWidget *frame_sel
      = icon_button ("zoom-in-symbolic", _ ("Frame the selection (Ctrl+Shift+F)"), FALSE);
  GtkWidget *gl_overlay = gtk_overlay_new ();
  const char *modes[]
      = { _ ("Body part"), _ ("Weight of part"), _ ("Quality"), _ ("Problems"), NULL };
  static const char *const tool_labels[] = { "+", "−", "≈" };
  const char *tool_tips[] = { _ ("Add: move weight toward the part (Ctrl: subtract)"),
                              _ ("Subtract: move weight away from the part (Ctrl: add)"),
                              _ ("Smooth: average with the neighbouring lines (Shift)") };
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *motion = gtk_event_controller_motion_new ();
  g_autoptr (GtkListItemFactory) short_labels = label_factory (TRUE);
  g_autoptr (GtkListItemFactory) long_labels = label_factory (FALSE);

  self->lod_limit = LOD_DEFAULT_LIMIT;
  self->body_view = tress_fur_body_view_new ();
  self->changed_ribbons = g_array_new (FALSE, FALSE, sizeof (guint));
  self->recoloured = g_array_new (FALSE, FALSE, sizeof (guint));
  self->pending_dabs = g_array_new (FALSE, FALSE, sizeof (double));
  self->dab_lines = g_array_new (FALSE, FALSE, sizeof (TressChaLineId));
  self->dab_falloff = g_array_new (FALSE, FALSE, sizeof (float));
  self->dab_ribbons = g_array_new (FALSE, FALSE, sizeof (guint));
  self->sel_first = g_array_new (FALSE, FALSE, sizeof (GLint));
  self->sel_count = g_array_new (FALSE, FALSE, sizeof (GLsizei));
  self->parts = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->hover = -1;
  self->tool = TRESS_CHA_PAINT_ADD;
  self->brush_radius = 24;
  self->brush_strength = 0.5;
  tress_gl_camera_init (&self->cam, 3, 35, 20);
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  /* What is shown: morality, colouring, the body part for weights. */
  self->morality_dropdown = gtk_drop_down_new (NULL, NULL);
  gtk_widget_set_tooltip_text (self->morality_dropdown, _ ("Length from"));
  self->colour_dropdown = gtk_drop_down_new_from_strings (modes);
  gtk_widget_set_tooltip_text (self->colour_dropdown, _ ("Colour by"));
  self->part_dropdown = gtk_drop_down_new (NULL, NULL);
  gtk_drop_down_set_factory (GTK_DROP_DOWN (self->part_dropdown), short_labels);
  gtk_drop_down_set_list_factory (GTK_DROP_DOWN (self->part_dropdown), long_labels);
  gtk_widget_set_name (self->part_dropdown, "body part");
  gtk_widget_set_tooltip_text (self->part_dropdown,
                               _ ("Body part for weight colouring and painting"));
  gtk_box_append (GTK_BOX (view_bar), self->morality_dropdown);
  gtk_box_append (GTK_BOX (view_bar), self->colour_dropdown);
  gtk_box_append (GTK_BOX (view_bar), self->part_dropdown);
  gtk_box_append (GTK_BOX (self->box), view_bar);
  g_signal_connect (self->morality_dropdown, "notify::selected", G_CALLBACK (on_morality_selected),
                    self);
  g_signal_connect (self->colour_dropdown, "notify::selected", G_CALLBACK (on_colour_selected),
                    self);
  g_signal_connect (self->part_dropdown, "notify::selected", G_CALLBACK (on_colour_selected), self);

  /* The view and the tools: framing, isolate, paint. */
  self->isolate_button
      = icon_button ("view-reveal-symbolic", _ ("Isolate: dim all but the selection"), TRUE);
  self->paint_button = gtk_toggle_button_new_with_label (_ ("Paint weights"));
  gtk_widget_set_tooltip_text (self->paint_button,
                               _ ("Paint weights: drag over the fur (right button orbits, middle "
                                  "button pans)"));
  g_signal_connect (frame_all, "clicked", G_CALLBACK (on_frame_all_clicked), self);
  g_signal_connect (frame_sel, "clicked", G_CALLBACK (on_frame_selection_clicked), self);
  g_signal_connect (self->isolate_button, "toggled", G_CALLBACK (on_isolate_toggled), self);
  g_signal_connect (self->paint_button, "toggled", G_CALLBACK (on_paint_toggled), self);
  gtk_box_append (GTK_BOX (tool_bar), frame_all);
  gtk_box_append (GTK_BOX (tool_bar), frame_sel);
  gtk_box_append (GTK_BOX (tool_bar), self->isolate_button);
  {
    GtkWidget *body_toggle = tress_fur_body_view_toggle_new ();

    tress_fur_body_view_set_visible (
        self->body_view, gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (body_toggle)));
    g_signal_connect (body_toggle, "notify::active", G_CALLBACK (on_body_toggled), self);
    gtk_box_append (GTK_BOX (tool_bar), body_toggle);
  }
  gtk_box_append (GTK_BOX (tool_bar), self->paint_button);

  /* The brush, beside the tools while painting. */
  self->paint_bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  {
    GtkWidget *linked = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
    GtkWidget *radius = gtk_label_new (_ ("Size"));
    GtkWidget *strength = gtk_label_new (_ ("Strength"));

    gtk_widget_add_css_class (linked, "linked");
    for (guint k = 0; k < 3; k++)
      {
        self->tool_buttons[k] = gtk_toggle_button_new_with_label (tool_labels[k]);
        gtk_widget_set_tooltip_text (self->tool_buttons[k], tool_tips[k]);
        if (k > 0)
          gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (self->tool_buttons[k]),
                                       GTK_TOGGLE_BUTTON (self->tool_buttons[0]));
        g_signal_connect (self->tool_buttons[k], "toggled", G_CALLBACK (on_tool_toggled), self);
        gtk_box_append (GTK_BOX (linked), self->tool_buttons[k]);
      }
    self->updating_controls = TRUE;
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->tool_buttons[0]), TRUE);
    self->updating_controls = FALSE;
    self->radius_scale = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, 4, 200, 1);
    gtk_range_set_value (GTK_RANGE (self->radius_scale), self->brush_radius);
    gtk_scale_set_draw_value (GTK_SCALE (self->radius_scale), FALSE);
    gtk_widget_set_size_request (self->radius_scale, 64, -1);
    gtk_widget_set_tooltip_text (self->radius_scale, _ ("Brush radius in pixels"));
    self->strength_scale = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, 0.02, 1, 0.01);
    gtk_range_set_value (GTK_RANGE (self->strength_scale), self->brush_strength);
    gtk_scale_set_draw_value (GTK_SCALE (self->strength_scale), FALSE);
    gtk_widget_set_size_request (self->strength_scale, 64, -1);
    gtk_widget_set_tooltip_text (self->strength_scale, _ ("How much of the weight one dab moves"));
    g_signal_connect (self->radius_scale, "value-changed", G_CALLBACK (on_brush_changed), self);
    g_signal_connect (self->strength_scale, "value-changed", G_CALLBACK (on_brush_changed), self);
    gtk_box_append (GTK_BOX (self->paint_bar), linked);
    gtk_box_append (GTK_BOX (self->paint_bar), radius);
    gtk_box_append (GTK_BOX (self->paint_bar), self->radius_scale);
    gtk_box_append (GTK_BOX (self->paint_bar), strength);
    gtk_box_append (GTK_BOX (self->paint_bar), self->strength_scale);
    gtk_widget_set_visible (self->paint_bar, FALSE);
  }
  gtk_box_append (GTK_BOX (self->box), tool_bar);
  gtk_box_append (GTK_BOX (self->box), self->paint_bar);

  self->area = tress_gl_area_new ();
  g_signal_connect (self->area, "realize", G_CALLBACK (fur_preview_on_realize), self);
  g_signal_connect (self->area, "unrealize", G_CALLBACK (fur_preview_on_unrealize), self);
  g_signal_connect (self->area, "render", G_CALLBACK (fur_preview_on_render), self);
  g_signal_connect (self->area, "resize", G_CALLBACK (on_resize), self);
  self->stack = tress_gl_fallback_new (self->area);
  self->overlay = tress_fur_overlay_new ();
  gtk_overlay_set_child (GTK_OVERLAY (gl_overlay), self->stack);
  gtk_overlay_add_overlay (GTK_OVERLAY (gl_overlay), self->overlay);
  gtk_widget_set_vexpand (gl_overlay, TRUE);
  gtk_box_append (GTK_BOX (self->box), gl_overlay);

  self->morph_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  gtk_box_append (GTK_BOX (self->box), self->morph_box);

  /* The paint drag runs first and takes the primary button in paint mode;
   * the shared camera gestures and the pick click get everything else. */
  self->paint_drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (self->paint_drag), GDK_BUTTON_PRIMARY);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (self->paint_drag),
                                              GTK_PHASE_CAPTURE);
  g_signal_connect (self->paint_drag, "drag-begin", G_CALLBACK (fur_preview_on_paint_begin), self);
  g_signal_connect (self->paint_drag, "drag-update", G_CALLBACK (fur_preview_on_paint_update),
                    self);
  g_signal_connect (self->paint_drag, "drag-end", G_CALLBACK (fur_preview_on_paint_end), self);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (self->paint_drag));
  tress_gl_camera_attach (&self->cam, self->area, on_camera_moved, self);
  g_signal_connect (click, "released", G_CALLBACK (on_click), self);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (click));
  g_signal_connect (motion, "motion", G_CALLBACK (fur_preview_on_motion), self);
  g_signal_connect (motion, "enter", G_CALLBACK (fur_preview_on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (fur_preview_on_leave), self);
  gtk_widget_add_controller (self->area, motion);
}

GtkWidget *
tress_fur_preview_new (TressChaDocument *doc)
{
  TressFurPreview *self = g_object_new (TRESS_TYPE_FUR_PREVIEW, NULL);

  self->doc = g_object_ref (doc);
  g_signal_connect (doc, "fur-changed", G_CALLBACK (on_fur_changed), self);
  g_signal_connect (doc, "selection-changed", G_CALLBACK (on_selection_changed), self);
  g_signal_connect (doc, "changed", G_CALLBACK (on_document_changed), self);
  rebuild_mesh (self);
  rebuild_controls (self);
  gtk_widget_set_sensitive (self->part_dropdown, FALSE);
  tress_fur_preview_frame_all (self);
  return GTK_WIDGET (self);
}

/* ---- public --------------------------------------------------------------- */

void
tress_fur_preview_set_names (TressFurPreview *self, TressFurNames *names)
{
  if (self->names == names)
    return;
  if (self->names != NULL)
    g_signal_handlers_disconnect_by_data (self->names, self);
  g_set_object (&self->names, names);
  if (names != NULL)
    g_signal_connect (names, "changed", G_CALLBACK (on_names_changed), self);
  fill_parts (self);
  fur_preview_update_legend (self);
  fur_preview_update_info (self);
}

gboolean
tress_fur_preview_get_gl_ready (TressFurPreview *self)
{
  return self->gl_ready;
}

const char *
tress_fur_preview_get_gl_error (TressFurPreview *self)
{
  return self->gl_error;
}

void
tress_fur_preview_set_morph_weight (TressFurPreview *self, guint morph, double weight)
{
  if (morph >= TRESS_FUR_MESH_MAX_MORPHS || self->morph_weights[morph] == (float)weight)
    return;
  self->morph_weights[morph] = (float)weight;
  /* Uniforms only: nothing is uploaded. */
  queue_render (self);
}

void
tress_fur_preview_set_morality (TressFurPreview *self, guint morality)
{
  if (self->morality == morality)
    return;
  self->morality = morality;
  rebuild_mesh (self);
}

void
tress_fur_preview_set_colour_mode (TressFurPreview *self, TressFurColourMode mode, guint32 part)
{
  guint index = GTK_INVALID_LIST_POSITION;

  self->colour_mode = mode;
  self->colour_part = part;
  self->updating_controls = TRUE;
  if (gtk_drop_down_get_selected (GTK_DROP_DOWN (self->colour_dropdown)) != (guint)mode)
    gtk_drop_down_set_selected (GTK_DROP_DOWN (self->colour_dropdown), (guint)mode);
  for (guint i = 0; i < self->parts->len; i++)
    if (g_array_index (self->parts, guint32, i) == part)
      index = i;
  if (index != GTK_INVALID_LIST_POSITION
      && gtk_drop_down_get_selected (GTK_DROP_DOWN (self->part_dropdown)) != index)
    gtk_drop_down_set_selected (GTK_DROP_DOWN (self->part_dropdown), index);
  self->updating_controls = FALSE;
  gtk_widget_set_sensitive (self->part_dropdown,
                            mode == TRESS_FUR_COLOUR_WEIGHT || self->paint_mode);
  self->colours_dirty = TRUE;
  fur_preview_update_legend (self);
  fur_preview_update_info (self);
  queue_render (self);
}

TressFurColourMode
tress_fur_preview_get_colour_mode (TressFurPreview *self, guint32 *part)
{
  if (part != NULL)
    *part = self->colour_part;
  return self->colour_mode;
}

void
fur_preview_frame (TressFurPreview *self, const guint *globals, guint n)
{
  float lo[3], hi[3];

  if (self->mesh == NULL
      || !tress_fur_mesh_bounds (self->mesh, globals, n, self->morph_weights, lo, hi))
    return;
  tress_gl_camera_frame (&self->cam, lo, hi);
  queue_render (self);
}

void
tress_fur_preview_frame_all (TressFurPreview *self)
{
  fur_preview_frame (self, NULL, 0);
}

void
tress_fur_preview_frame_selection (TressFurPreview *self)
{
  const TressChaRibbonId *ids;
  g_autofree guint *globals = NULL;
  guint n, i, k = 0;

  if (self->mesh == NULL)
    return;
  ids = tress_cha_document_get_selection (self->doc, &n);
  globals = g_new (guint, n + 1);
  for (i = 0; i < n; i++)
    {
      guint g = tress_fur_mesh_global (self->mesh, ids[i].material, ids[i].ribbon);

      if (g != G_MAXUINT)
        globals[k++] = g;
    }
  /* Nothing selected: the whole creature. */
  fur_preview_frame (self, globals, k);
}

void
tress_fur_preview_orbit (TressFurPreview *self, double yaw, double pitch)
{
  tress_gl_camera_orbit (&self->cam, yaw, pitch);
  queue_render (self);
}

void
tress_fur_preview_zoom (TressFurPreview *self, double factor)
{
  tress_gl_camera_zoom (&self->cam, factor);
  queue_render (self);
}

void
tress_fur_preview_set_isolate (TressFurPreview *self, gboolean isolate)
{
  isolate = !!isolate;
  if (self->isolate == isolate)
    return;
  self->isolate = isolate;
  if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->isolate_button)) != isolate)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->isolate_button), isolate);
  self->base_dirty = TRUE;
  fur_preview_update_legend (self);
  queue_render (self);
}

gboolean
tress_fur_preview_get_isolate (TressFurPreview *self)
{
  return self->isolate;
}

int
tress_fur_preview_hover (TressFurPreview *self, double x, double y)
{
  TressFurScreen *screen = fur_preview_get_screen (self);

  fur_preview_set_hover (self, screen != NULL ? tress_fur_screen_pick (screen, x, y) : -1);
  return self->hover;
}

int
tress_fur_preview_get_hover (TressFurPreview *self)
{
  return self->hover;
}

TressFurOverlay *
tress_fur_preview_get_overlay (TressFurPreview *self)
{
  return TRESS_FUR_OVERLAY (self->overlay);
}

const TressFurMesh *
tress_fur_preview_get_mesh (TressFurPreview *self)
{
  return self->mesh;
}

void
tress_fur_preview_set_interacting (TressFurPreview *self, gboolean interacting)
{
  g_clear_handle_id (&self->lod_timeout, g_source_remove);
  if (self->interacting == !!interacting)
    return;
  self->interacting = !!interacting;
  queue_render (self);
}

gboolean
tress_fur_preview_get_interacting (TressFurPreview *self)
{
  return self->interacting;
}

void
tress_fur_preview_set_lod_limit (TressFurPreview *self, guint max_ribbons)
{
  if (self->lod_limit == max_ribbons)
    return;
  self->lod_limit = max_ribbons;
  self->geometry_dirty = TRUE;
  queue_render (self);
}

guint
tress_fur_preview_get_n_ribbons_drawn (TressFurPreview *self)
{
  return self->n_ribbons_drawn;
}

guint
tress_fur_preview_get_n_mesh_builds (TressFurPreview *self)
{
  return self->n_mesh_builds;
}
