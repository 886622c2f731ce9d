/* tress-fur-preview-private.h: what the GL ribbon preview's files share
 *
 * The preview is one widget in four files, by job: tress-fur-preview.c (the
 * model, controls and gestures, the public calls), tress-fur-preview-gl.c
 * (GL: programs, uploads, the two layers, drawing), tress-fur-preview-paint.c
 * (pointer, picking and painting), tress-fur-preview-legend.c (the legend
 * and the information line).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-fur-preview.h"

#include "core/tress-count.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include "app/gl/tress-gl-area.h"
#include "tress-fur-body-view.h"
#include "tress-fur-overlay.h"
#include "tress-fur-screen.h"

/* Ribbons drawn at most while the view moves, and the pause that ends a move. */
#define LOD_DEFAULT_LIMIT 3000
#define LOD_IDLE_MS 250
/* Selections larger than this are not outlined (the outline draws them eight
 * more times). */
#define OUTLINE_MAX_RIBBONS 20000
/* How far the others fade toward the background when the selection is isolated. */
#define ISOLATE_DIM 0.82f
/* How much the ribbon under the pointer is lightened. */
#define HOVER_TINT 0.55f
#define HOVER_DELAY_MS 30

struct _TressFurPreview
{
  GtkWidget parent_instance;
  TressChaDocument *doc;
  TressFurNames *names;

  GtkWidget *box;
  GtkWidget *stack; /* the picture, or why there is none */
  GtkWidget *area;
  GtkWidget *overlay; /* TressFurOverlay over the area */
  GtkWidget *morality_dropdown;
  GtkWidget *colour_dropdown;
  GtkWidget *part_dropdown;
  GtkWidget *isolate_button;
  GtkWidget *paint_button;
  GtkWidget *paint_bar;
  GtkWidget *tool_buttons[3];
  GtkWidget *radius_scale;
  GtkWidget *strength_scale;
  GtkWidget *morph_box;
  char *gl_error;
  GArray *parts; /* guint32: the body parts of the file, ascending */
  gboolean updating_controls;

  TressFurMesh *mesh;
  TressChaFile *mesh_file; /* the model the mesh was built from */
  guint morality;
  TressFurColourMode colour_mode;
  guint32 colour_part;
  float morph_weights[TRESS_FUR_MESH_MAX_MORPHS];

  TressGlCamera cam;
  TressFurBodyView *body_view; /* the fitted body under the ribbons */

  /* GL objects */
  gboolean gl_ready;
  GLuint program, vao, vbo_pos, vbo_pid, ebo, ebo_lod;
  GLuint disp_buffer, disp_texture, colour_buffer, colour_texture, sel_buffer, sel_texture;
  GLint u_mvp, u_disp, u_colours, u_selected, u_n_morphs, u_n_points, u_morph;
  GLint u_mode, u_flat, u_tint, u_dim, u_background, u_offset, u_viewport;
  gboolean geometry_dirty, colours_dirty, selection_dirty;
  GArray *changed_ribbons; /* guint: global ribbons whose points changed, to upload */
  GArray *recoloured;      /* guint: global ribbons whose colour changed, to upload and redraw */
  guint *recolour_stamp;   /* per ribbon: recolour_gen when listed in recoloured */
  guint n_recolour_stamp, recolour_gen;
  guint8 *colours; /* the colour buffer's bytes (4 per ribbon), as uploaded */
  gsize n_colours;
  guint n_uploads;
  guint n_mesh_builds;
  gsize n_indices_uploaded, n_lod_indices;
  guint n_lod_ribbons;

  /* the base layer, offscreen */
  GLuint base_fbo, base_colour, base_depth;
  int base_w, base_h;
  gboolean base_dirty, base_reduced;
  float base_key[16 + TRESS_FUR_MESH_MAX_MORPHS];
  guint n_base_draws;

  /* the selection, as strips drawn on top */
  GArray *sel_first; /* GLint */
  GArray *sel_count; /* GLsizei */
  guint n_selected;
  gboolean isolate;

  /* level of detail */
  guint lod_limit;
  gboolean interacting;
  gboolean first_frame_pending; /* a new file: its first frame is drawn reduced */
  gboolean full_frame_drawn;    /* of the current mesh */
  guint lod_timeout;
  guint n_ribbons_drawn; /* in the last frame */

  /* pointer */
  TressFurScreen *screen; /* the mesh as the view shows it, or NULL when stale */
  gboolean pointer_inside;
  double pointer_x, pointer_y;
  int hover; /* global ribbon under the pointer, or -1 */
  guint hover_timeout;

  /* painting */
  gboolean paint_mode;
  TressChaPaintMode tool;
  double brush_radius, brush_strength;
  TressChaPaintStroke *stroke;
  gboolean ending_stroke; /* its own change arriving: the status is about it */
  double dab_x, dab_y;
  guint n_dabs;
  GtkGesture *paint_drag;
  GArray *pending_dabs; /* double x, y: dabs not painted yet (painted a frame's worth at a time) */
  guint paint_tick;
  GArray *dab_lines, *dab_falloff, *dab_ribbons; /* reused by every dab */
  double drag_x, drag_y;
  char *paint_status;
};

static inline TressChaFile *
get_file (TressFurPreview *self)
{
  return self->doc != NULL ? tress_cha_document_get_cha (self->doc) : NULL;
}

static inline void
compute_mvp (TressFurPreview *self, float mvp[16])
{
  tress_gl_camera_mvp (&self->cam, gtk_widget_get_width (self->area),
                       gtk_widget_get_height (self->area), mvp);
}

static inline void
queue_render (TressFurPreview *self)
{
  gtk_gl_area_queue_render (GTK_GL_AREA (self->area));
}

/* A body part and its ribbons, for the legend. */
typedef struct
{
  guint32 part;
  guint count;
} PartCount;

/* Emits "frame-drawn". */
void fur_preview_emit_frame_drawn (TressFurPreview *self);

void fur_preview_add_recoloured (TressFurPreview *self, const guint *g, guint n);
void fur_preview_clear_recoloured (TressFurPreview *self);
void fur_preview_collect_selection (TressFurPreview *self);
int fur_preview_compare_part_counts (gconstpointer a, gconstpointer b);
void fur_preview_dab (TressFurPreview *self, double x, double y);
void fur_preview_frame (TressFurPreview *self, const guint *globals, guint n);
TressFurScreen *fur_preview_get_screen (TressFurPreview *self);
void fur_preview_on_leave (GtkEventControllerMotion *motion, TressFurPreview *self);
gboolean fur_preview_on_lod_idle (gpointer data);
void fur_preview_on_motion (GtkEventControllerMotion *motion, double x, double y,
                            TressFurPreview *self);
void fur_preview_on_paint_begin (GtkGestureDrag *gesture, double x, double y,
                                 TressFurPreview *self);
void fur_preview_on_paint_end (GtkGestureDrag *gesture, double dx, double dy,
                               TressFurPreview *self);
void fur_preview_on_paint_update (GtkGestureDrag *gesture, double dx, double dy,
                                  TressFurPreview *self);
void fur_preview_on_realize (GtkGLArea *area, TressFurPreview *self);
gboolean fur_preview_on_render (GtkGLArea *area, GdkGLContext *context, TressFurPreview *self);
void fur_preview_on_unrealize (GtkGLArea *area, TressFurPreview *self);
char *fur_preview_part_label (TressFurPreview *self, guint32 part);
guint8 *fur_preview_problem_marks (TressFurPreview *self);
void fur_preview_set_hover (TressFurPreview *self, int g);
void fur_preview_update_info (TressFurPreview *self);
void fur_preview_update_legend (TressFurPreview *self);
