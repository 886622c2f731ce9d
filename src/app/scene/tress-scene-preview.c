/* tress-scene-preview.c: the 3D preview of a TressScene (GtkGLArea, GL 3.3)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-scene-preview.h"

#include <glib/gi18n-lib.h>

#include "app/gl/tress-gl-area.h"
#include "tress-scene-renderer.h"
#include "tress-scene-sticks.h"
#include "tress-tooltip.h"

struct _TressScenePreview
{
  GtkWidget parent_instance;

  GtkWidget *box;
  GtkWidget *toolbar;
  GtkWidget *mesh_toggle, *bones_toggle;
  GtkWidget *pages;    /* "picture" or "message" */
  GtkWidget *fallback; /* the GL area, or why there is none */
  GtkWidget *area;
  GtkWidget *message_label;
  GtkWidget *note_label;
  GtkWidget *status; /* the note and the status tools */
  char *gl_error;
  char *message;

  TressScene *scene;
  TressSceneRenderer *renderer;
  TressGlCamera cam;
  GArray *highlight; /* guint8 per node */
  int hover;
  guint n_frames;
  gboolean framed; /* the camera was pointed at the current scene */
  TressScenePreviewOverlayFunc overlay_func;
  gpointer overlay_data;
  GArray *overlay; /* TressStickVertex */
};

G_DEFINE_FINAL_TYPE (TressScenePreview, tress_scene_preview, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SHOW_MESH,
  PROP_SHOW_BONES,
  N_PROPS
};

enum
{
  SIGNAL_NODE_CLICKED,
  N_SIGNALS
};

static GParamSpec *props[N_PROPS];

static void tress_scene_preview_set_scene_full (TressScenePreview *self, TressScene *scene,
                                                gboolean frame);
static guint signals[N_SIGNALS];

static void
queue_draw (TressScenePreview *self)
{
  gtk_gl_area_queue_render (GTK_GL_AREA (self->area));
}

static void
compute_mvp (TressScenePreview *self, float mvp[16])
{
  tress_gl_camera_mvp (&self->cam, gtk_widget_get_width (self->area),
                       gtk_widget_get_height (self->area), mvp);
}

static void
draw (TressScenePreview *self)
{
  TressSceneDrawOptions options = { 0 };
  int scale = gtk_widget_get_scale_factor (self->area);
  int w = gtk_widget_get_width (self->area), h = gtk_widget_get_height (self->area);

  options.show_mesh = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->mesh_toggle));
  options.show_bones = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->bones_toggle));
  if (self->scene != NULL && self->highlight->len >= tress_scene_get_n_nodes (self->scene))
    options.highlight = (const guint8 *)self->highlight->data;
  options.hover = self->hover;
  options.background[0] = TRESS_SCENE_BACKGROUND_R / 255.f;
  options.background[1] = TRESS_SCENE_BACKGROUND_G / 255.f;
  options.background[2] = TRESS_SCENE_BACKGROUND_B / 255.f;
  g_array_set_size (self->overlay, 0);
  if (self->overlay_func != NULL && self->scene != NULL)
    {
      float mvp[16];

      compute_mvp (self, mvp);
      self->overlay_func (self->overlay_data, mvp, w, h, self->overlay);
      options.overlay = self->overlay;
    }
  tress_scene_renderer_draw (self->renderer, self->scene, &self->cam, w * scale, h * scale, w, h,
                             &options);
  self->n_frames++;
}

static gboolean
on_render (GtkGLArea *area, GdkGLContext *context, TressScenePreview *self)
{
  if (self->renderer != NULL)
    draw (self);
  return TRUE;
}

static void
show_gl_error (TressScenePreview *self, const char *message)
{
  g_free (self->gl_error);
  self->gl_error = tress_gl_fallback_show (self->fallback, message);
}

static void
on_realize (GtkGLArea *area, TressScenePreview *self)
{
  g_autoptr (GError) error = NULL;

  if (!tress_gl_area_begin (area, &error))
    {
      show_gl_error (self, error->message);
      return;
    }
  self->renderer = tress_scene_renderer_new (&error);
  if (self->renderer == NULL)
    {
      gtk_gl_area_set_error (area, error);
      show_gl_error (self, error->message);
    }
}

static void
on_unrealize (GtkGLArea *area, TressScenePreview *self)
{
  gtk_gl_area_make_current (area);
  if (self->renderer != NULL && gtk_gl_area_get_error (area) == NULL)
    tress_scene_renderer_free (self->renderer);
  self->renderer = NULL;
}

/* ---- pointer -------------------------------------------------------------- */

static void
on_camera_moved (gpointer data, TressGlCameraEvent event)
{
  TressScenePreview *self = data;

  if (event == TRESS_GL_CAMERA_MOVED)
    queue_draw (self);
}

static void
on_click (GtkGestureClick *gesture, int n_press, double x, double y, TressScenePreview *self)
{
  GdkModifierType mods
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  int node = tress_scene_preview_pick (self, x, y);

  g_signal_emit (self, signals[SIGNAL_NODE_CLICKED], 0, node, mods);
}

static void
set_hover (TressScenePreview *self, int node)
{
  if (self->hover == node)
    return;
  self->hover = node;
  gtk_widget_set_tooltip_text (self->area,
                               node >= 0 && self->scene != NULL
                                   ? tress_scene_get_node (self->scene, (guint)node)->name
                                   : NULL);
  queue_draw (self);
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, TressScenePreview *self)
{
  GdkModifierType mods
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (motion));

  /* No picking while a button is down (the view is being dragged). */
  if (mods & (GDK_BUTTON1_MASK | GDK_BUTTON2_MASK | GDK_BUTTON3_MASK))
    return;
  set_hover (self, tress_scene_preview_pick (self, x, y));
}

static void
on_leave (GtkEventControllerMotion *motion, TressScenePreview *self)
{
  set_hover (self, -1);
}

static void
on_toggled (GtkToggleButton *button, TressScenePreview *self)
{
  g_object_notify_by_pspec (
      G_OBJECT (self),
      props[button == GTK_TOGGLE_BUTTON (self->mesh_toggle) ? PROP_SHOW_MESH : PROP_SHOW_BONES]);
  queue_draw (self);
}

static void
on_frame_clicked (GtkButton *button, TressScenePreview *self)
{
  tress_scene_preview_frame_all (self);
}

static void
on_resize (GtkGLArea *area, int width, int height, TressScenePreview *self)
{
  if (!self->framed && self->scene != NULL && width > 0)
    tress_scene_preview_frame_all (self);
}

/* ---- GObject -------------------------------------------------------------- */

static void
tress_scene_preview_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  TressScenePreview *self = TRESS_SCENE_PREVIEW (object);

  switch (prop_id)
    {
    case PROP_SHOW_MESH:
      g_value_set_boolean (value, tress_scene_preview_get_show_mesh (self));
      break;
    case PROP_SHOW_BONES:
      g_value_set_boolean (value, tress_scene_preview_get_show_bones (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tress_scene_preview_set_property (GObject *object, guint prop_id, const GValue *value,
                                  GParamSpec *pspec)
{
  TressScenePreview *self = TRESS_SCENE_PREVIEW (object);

  switch (prop_id)
    {
    case PROP_SHOW_MESH:
      tress_scene_preview_set_show_mesh (self, g_value_get_boolean (value));
      break;
    case PROP_SHOW_BONES:
      tress_scene_preview_set_show_bones (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tress_scene_preview_dispose (GObject *object)
{
  TressScenePreview *self = TRESS_SCENE_PREVIEW (object);

  self->scene = NULL;
  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (tress_scene_preview_parent_class)->dispose (object);
}

static void
tress_scene_preview_finalize (GObject *object)
{
  TressScenePreview *self = TRESS_SCENE_PREVIEW (object);

  g_array_unref (self->highlight);
  g_array_unref (self->overlay);
  g_free (self->gl_error);
  g_free (self->message);
  G_OBJECT_CLASS (tress_scene_preview_parent_class)->finalize (object);
}

static void
tress_scene_preview_class_init (TressScenePreviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = tress_scene_preview_get_property;
  object_class->set_property = tress_scene_preview_set_property;
  object_class->dispose = tress_scene_preview_dispose;
  object_class->finalize = tress_scene_preview_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "scenepreview");

  props[PROP_SHOW_MESH]
      = g_param_spec_boolean ("show-mesh", NULL, NULL, TRUE,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  props[PROP_SHOW_BONES]
      = g_param_spec_boolean ("show-bones", NULL, NULL, TRUE,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);

  signals[SIGNAL_NODE_CLICKED]
      = g_signal_new ("node-clicked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 2, G_TYPE_INT, GDK_TYPE_MODIFIER_TYPE);
}

static GtkWidget *
toggle_new (const char *icon, const char *tooltip)
{
  GtkWidget *button = gtk_toggle_button_new ();

  gtk_button_set_icon_name (GTK_BUTTON (button), icon);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), TRUE);
  return button;
}

static void
tress_scene_preview_init (TressScenePreview *self)
{
  GtkWidget *frame = gtk_button_new_from_icon_name ("zoom-fit-best-symbolic");
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkWidget *scroller;

  self->highlight = g_array_new (FALSE, TRUE, sizeof (guint8));
  self->overlay = g_array_new (FALSE, FALSE, sizeof (TressStickVertex));
  self->hover = -1;
  tress_gl_camera_init (&self->cam, 3, 35, 20);
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->toolbar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->mesh_toggle = toggle_new ("view-reveal-symbolic", _ ("Show the mesh"));
  gtk_button_set_label (GTK_BUTTON (self->mesh_toggle), _ ("Mesh"));
  self->bones_toggle = toggle_new ("view-reveal-symbolic", _ ("Show the bones"));
  gtk_button_set_label (GTK_BUTTON (self->bones_toggle), _ ("Bones"));
  gtk_widget_set_tooltip_text (frame, _ ("Frame the whole model"));
  gtk_box_append (GTK_BOX (self->toolbar), self->mesh_toggle);
  gtk_box_append (GTK_BOX (self->toolbar), self->bones_toggle);
  gtk_box_append (GTK_BOX (self->toolbar), frame);
  gtk_box_append (GTK_BOX (self->box), self->toolbar);
  g_signal_connect (self->mesh_toggle, "toggled", G_CALLBACK (on_toggled), self);
  g_signal_connect (self->bones_toggle, "toggled", G_CALLBACK (on_toggled), self);
  g_signal_connect (frame, "clicked", G_CALLBACK (on_frame_clicked), self);

  self->area = tress_gl_area_new ();
  g_signal_connect (self->area, "realize", G_CALLBACK (on_realize), self);
  g_signal_connect (self->area, "unrealize", G_CALLBACK (on_unrealize), self);
  g_signal_connect (self->area, "render", G_CALLBACK (on_render), self);
  g_signal_connect (self->area, "resize", G_CALLBACK (on_resize), self);
  self->fallback = tress_gl_fallback_new (self->area);
  /* Wrapped text sits in a scrolled window so that the page's height does not
   * depend on its width. */
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  self->message_label = gtk_label_new ("");
  gtk_label_set_wrap (GTK_LABEL (self->message_label), TRUE);
  gtk_label_set_selectable (GTK_LABEL (self->message_label), TRUE);
  gtk_widget_set_margin_start (self->message_label, 12);
  gtk_widget_set_margin_end (self->message_label, 12);
  gtk_widget_set_valign (self->message_label, GTK_ALIGN_CENTER);
  gtk_widget_set_vexpand (self->message_label, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->message_label);
  self->pages = gtk_stack_new ();
  gtk_widget_set_vexpand (self->pages, TRUE);
  gtk_widget_set_hexpand (self->pages, TRUE);
  gtk_stack_add_named (GTK_STACK (self->pages), self->fallback, "picture");
  gtk_stack_add_named (GTK_STACK (self->pages), scroller, "message");
  gtk_box_append (GTK_BOX (self->box), self->pages);
  /* One line (the whole of it in the tooltip). */
  self->note_label = gtk_label_new ("");
  gtk_label_set_ellipsize (GTK_LABEL (self->note_label), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (self->note_label), 0);
  gtk_widget_add_css_class (self->note_label, "dim-label");
  gtk_widget_set_visible (self->note_label, FALSE);
  gtk_widget_set_hexpand (self->note_label, TRUE);
  /* Tools at the end of the note's line, where they do not widen the preview. */
  self->status = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  gtk_box_append (GTK_BOX (self->status), self->note_label);
  gtk_box_append (GTK_BOX (self->box), self->status);

  tress_gl_camera_attach (&self->cam, self->area, on_camera_moved, self);
  g_signal_connect (click, "released", G_CALLBACK (on_click), self);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (click));
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (self->area, motion);
}

/* ---- public --------------------------------------------------------------- */

GtkWidget *
tress_scene_preview_new (void)
{
  return g_object_new (TRESS_TYPE_SCENE_PREVIEW, NULL);
}

static void
tress_scene_preview_set_scene_full (TressScenePreview *self, TressScene *scene, gboolean frame)
{
  self->scene = scene;
  self->hover = -1;
  g_array_set_size (self->highlight, 0);
  if (scene != NULL)
    g_array_set_size (self->highlight, tress_scene_get_n_nodes (scene));
  if (self->renderer != NULL)
    tress_scene_renderer_forget (self->renderer);
  if (frame)
    {
      self->framed = FALSE;
      if (scene != NULL && gtk_widget_get_width (self->area) > 0)
        tress_scene_preview_frame_all (self);
    }
  queue_draw (self);
}

void
tress_scene_preview_set_scene (TressScenePreview *self, TressScene *scene)
{
  tress_scene_preview_set_scene_full (self, scene, TRUE);
}

void
tress_scene_preview_replace_scene (TressScenePreview *self, TressScene *scene)
{
  tress_scene_preview_set_scene_full (self, scene, FALSE);
}

TressScene *
tress_scene_preview_get_scene (TressScenePreview *self)
{
  return self->scene;
}

void
tress_scene_preview_pose_changed (TressScenePreview *self)
{
  queue_draw (self);
}

void
tress_scene_preview_set_message (TressScenePreview *self, const char *message)
{
  if (g_strcmp0 (self->message, message) == 0)
    return;
  g_free (self->message);
  self->message = g_strdup (message);
  gtk_label_set_text (GTK_LABEL (self->message_label), message != NULL ? message : "");
  gtk_stack_set_visible_child_name (GTK_STACK (self->pages),
                                    message != NULL ? "message" : "picture");
}

const char *
tress_scene_preview_get_message (TressScenePreview *self)
{
  return self->message;
}

void
tress_scene_preview_set_note (TressScenePreview *self, const char *note)
{
  gtk_label_set_text (GTK_LABEL (self->note_label), note != NULL ? note : "");
  tress_set_tooltip (self->note_label, note);
  gtk_widget_set_visible (self->note_label, note != NULL && *note != '\0');
}

void
tress_scene_preview_set_highlight (TressScenePreview *self, const guint *nodes, guint n)
{
  gboolean changed = FALSE;
  g_autofree guint8 *want = NULL;

  if (self->scene == NULL)
    return;
  want = g_new0 (guint8, self->highlight->len + 1);
  for (guint i = 0; i < n; i++)
    if (nodes[i] < self->highlight->len)
      want[nodes[i]] = 1;
  for (guint i = 0; i < self->highlight->len; i++)
    if (g_array_index (self->highlight, guint8, i) != want[i])
      {
        g_array_index (self->highlight, guint8, i) = want[i];
        changed = TRUE;
      }
  if (changed)
    queue_draw (self);
}

gboolean
tress_scene_preview_is_highlighted (TressScenePreview *self, guint node)
{
  return node < self->highlight->len && g_array_index (self->highlight, guint8, node) != 0;
}

void
tress_scene_preview_add_tool (TressScenePreview *self, GtkWidget *widget)
{
  gtk_box_append (GTK_BOX (self->toolbar), widget);
}

void
tress_scene_preview_add_status_tool (TressScenePreview *self, GtkWidget *widget)
{
  gtk_box_append (GTK_BOX (self->status), widget);
}

void
tress_scene_preview_set_show_mesh (TressScenePreview *self, gboolean show)
{
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->mesh_toggle), show);
}

gboolean
tress_scene_preview_get_show_mesh (TressScenePreview *self)
{
  return gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->mesh_toggle));
}

void
tress_scene_preview_set_show_bones (TressScenePreview *self, gboolean show)
{
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->bones_toggle), show);
}

gboolean
tress_scene_preview_get_show_bones (TressScenePreview *self)
{
  return gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->bones_toggle));
}

void
tress_scene_preview_frame_all (TressScenePreview *self)
{
  float lo[3], hi[3];

  if (self->scene == NULL || !tress_scene_bounds (self->scene, lo, hi))
    return;
  tress_gl_camera_frame (&self->cam, lo, hi);
  self->framed = TRUE;
  queue_draw (self);
}

void
tress_scene_preview_orbit (TressScenePreview *self, double yaw, double pitch)
{
  tress_gl_camera_orbit (&self->cam, yaw, pitch);
  queue_draw (self);
}

void
tress_scene_preview_zoom (TressScenePreview *self, double factor)
{
  tress_gl_camera_zoom (&self->cam, factor);
  queue_draw (self);
}

int
tress_scene_preview_pick (TressScenePreview *self, double x, double y)
{
  float mvp[16];
  int node = -1;

  if (self->scene == NULL)
    return -1;
  compute_mvp (self, mvp);
  /* The skeleton first (it is drawn over the meshes), then what is under the pointer. */
  if (tress_scene_preview_get_show_bones (self))
    node = tress_scene_sticks_pick (self->scene, mvp, gtk_widget_get_width (self->area),
                                    gtk_widget_get_height (self->area), x, y);
  if (node < 0 && tress_scene_preview_get_show_mesh (self))
    node = tress_scene_mesh_pick (self->scene, mvp, gtk_widget_get_width (self->area),
                                  gtk_widget_get_height (self->area), x, y);
  return node;
}

gboolean
tress_scene_preview_node_position (TressScenePreview *self, guint node, double *x, double *y)
{
  float mvp[16];

  if (self->scene == NULL)
    return FALSE;
  compute_mvp (self, mvp);
  return tress_scene_node_screen_position (self->scene, node, mvp,
                                           gtk_widget_get_width (self->area),
                                           gtk_widget_get_height (self->area), x, y);
}

gboolean
tress_scene_preview_get_gl_ready (TressScenePreview *self)
{
  return self->renderer != NULL;
}

const char *
tress_scene_preview_get_gl_error (TressScenePreview *self)
{
  return self->gl_error;
}

GBytes *
tress_scene_preview_grab (TressScenePreview *self, int *width, int *height)
{
  if (self->renderer == NULL || !gtk_widget_get_realized (self->area)
      || gtk_widget_get_width (self->area) <= 0 || gtk_widget_get_height (self->area) <= 0)
    return NULL;
  gtk_gl_area_make_current (GTK_GL_AREA (self->area));
  gtk_gl_area_attach_buffers (GTK_GL_AREA (self->area));
  draw (self);
  return tress_gl_area_read_pixels (GTK_GL_AREA (self->area), width, height);
}

double
tress_scene_preview_time_frames (TressScenePreview *self, guint n,
                                 TressScenePreviewFrameFunc before_each, gpointer user_data)
{
  gint64 start;

  if (self->renderer == NULL || !gtk_widget_get_realized (self->area) || n == 0)
    return -1;
  gtk_gl_area_make_current (GTK_GL_AREA (self->area));
  gtk_gl_area_attach_buffers (GTK_GL_AREA (self->area));
  draw (self); /* uploads, outside the timing */
  glFinish ();
  start = g_get_monotonic_time ();
  for (guint i = 0; i < n; i++)
    {
      self->cam.yaw += 360.0 / n;
      if (before_each != NULL)
        before_each (user_data, i);
      draw (self);
      glFinish ();
    }
  return (g_get_monotonic_time () - start) / 1e6 / n;
}

guint
tress_scene_preview_get_n_frames (TressScenePreview *self)
{
  return self->n_frames;
}

GtkWidget *
tress_scene_preview_get_area (TressScenePreview *self)
{
  return self->area;
}

void
tress_scene_preview_get_mvp (TressScenePreview *self, float mvp[16], double *width, double *height)
{
  compute_mvp (self, mvp);
  *width = gtk_widget_get_width (self->area);
  *height = gtk_widget_get_height (self->area);
}

void
tress_scene_preview_set_overlay (TressScenePreview *self, TressScenePreviewOverlayFunc func,
                                 gpointer user_data)
{
  self->overlay_func = func;
  self->overlay_data = user_data;
  queue_draw (self);
}
