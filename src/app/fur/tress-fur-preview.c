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

G_DEFINE_FINAL_TYPE (TressFurPreview, tress_fur_preview, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_FRAME_DRAWN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char *vertex_source
    = "#version 330 core\n"
      "layout(location = 0) in vec3 a_pos;\n"
      "layout(location = 1) in uint a_pid;\n"
      "uniform mat4 u_mvp;\n"
      "uniform samplerBuffer u_disp;\n"
      "uniform samplerBuffer u_colours;\n"
      "uniform samplerBuffer u_selected;\n"
      "uniform int u_n_morphs;\n"
      "uniform int u_n_points;\n"
      "uniform float u_morph[16];\n"
      /* 0: the ribbon's colour (the unselected dimmed by u_dim), 1: u_flat,
       * 2: the ribbon's colour toward white by u_tint. */
      "uniform int u_mode;\n"
      "uniform vec4 u_flat;\n"
      "uniform float u_tint;\n"
      "uniform float u_dim;\n"
      "uniform vec4 u_background;\n"
      "uniform vec2 u_offset;\n" /* in pixels, for outlines */
      "uniform vec2 u_viewport;\n"
      "flat out vec4 v_colour;\n"
      /* Drawn again in place into the base, a ribbon must land on the very
       * depths it had. */
      "invariant gl_Position;\n"
      "void main () {\n"
      "  vec3 p = a_pos;\n"
      "  for (int m = 0; m < u_n_morphs; m++) {\n"
      "    if (u_morph[m] != 0.0) {\n"
      "      int b = (m * u_n_points + int (a_pid)) * 3;\n"
      "      p += u_morph[m] * vec3 (texelFetch (u_disp, b).r, texelFetch (u_disp, b + 1).r,\n"
      "                              texelFetch (u_disp, b + 2).r);\n"
      "    }\n"
      "  }\n"
      "  vec4 pos = u_mvp * vec4 (p, 1.0);\n"
      "  pos.xy += u_offset * 2.0 / u_viewport * pos.w;\n"
      "  gl_Position = pos;\n"
      "  int ribbon = int (a_pid / 2u);\n"
      "  vec4 c = texelFetch (u_colours, ribbon);\n"
      "  if (u_mode == 1)\n"
      "    c = u_flat;\n"
      "  else if (u_mode == 2)\n"
      "    c = vec4 (mix (c.rgb, vec3 (1.0), u_tint), 1.0);\n"
      "  else if (u_dim > 0.0 && texelFetch (u_selected, ribbon).r < 0.5)\n"
      "    c = vec4 (mix (c.rgb, u_background.rgb, u_dim), 1.0);\n"
      "  v_colour = c;\n"
      "}\n";

static const char *fragment_source = "#version 330 core\n"
                                     "flat in vec4 v_colour;\n"
                                     "out vec4 out_colour;\n"
                                     "void main () {\n"
                                     "  out_colour = v_colour;\n"
                                     "}\n";

static TressChaFile *
get_file (TressFurPreview *self)
{
  return self->doc != NULL ? tress_cha_document_get_cha (self->doc) : NULL;
}

static void
compute_mvp (TressFurPreview *self, float mvp[16])
{
  tress_gl_camera_mvp (&self->cam, gtk_widget_get_width (self->area),
                       gtk_widget_get_height (self->area), mvp);
}

static void
queue_render (TressFurPreview *self)
{
  gtk_gl_area_queue_render (GTK_GL_AREA (self->area));
}

/* Empties the list of recoloured ribbons. */
static void
clear_recoloured (TressFurPreview *self)
{
  g_array_set_size (self->recoloured, 0);
  if (++self->recolour_gen == 0)
    {
      if (self->recolour_stamp != NULL)
        memset (self->recolour_stamp, 0, sizeof (guint) * self->n_recolour_stamp);
      self->recolour_gen = 1;
    }
}

/* Lists global ribbons @g (n of them) as recoloured, each once. */
static void
add_recoloured (TressFurPreview *self, const guint *g, guint n)
{
  guint n_ribbons = self->mesh != NULL ? self->mesh->n_ribbons : 0;

  if (self->n_recolour_stamp != n_ribbons)
    {
      g_free (self->recolour_stamp);
      self->recolour_stamp = g_new0 (guint, n_ribbons + 1);
      self->n_recolour_stamp = n_ribbons;
      self->recolour_gen = 1;
    }
  for (guint i = 0; i < n; i++)
    if (g[i] < n_ribbons && self->recolour_stamp[g[i]] != self->recolour_gen)
      {
        self->recolour_stamp[g[i]] = self->recolour_gen;
        g_array_append_val (self->recoloured, g[i]);
      }
}

/* ---- GL ------------------------------------------------------------------- */

static gboolean
create_program (TressFurPreview *self, GError **error)
{
  self->program = tress_gl_program_new (vertex_source, fragment_source, error);
  if (self->program == 0)
    return FALSE;
#define UNIFORM(name) self->name = glGetUniformLocation (self->program, #name)
  UNIFORM (u_mvp);
  UNIFORM (u_disp);
  UNIFORM (u_colours);
  UNIFORM (u_selected);
  UNIFORM (u_n_morphs);
  UNIFORM (u_n_points);
  UNIFORM (u_morph);
  UNIFORM (u_mode);
  UNIFORM (u_flat);
  UNIFORM (u_tint);
  UNIFORM (u_dim);
  UNIFORM (u_background);
  UNIFORM (u_offset);
  UNIFORM (u_viewport);
#undef UNIFORM
  return TRUE;
}

/* Writes the strips of every @stride-th ribbon into @buffer (bound as the
 * element array), mapped: no copy of the list is made in memory of ours. */
static gsize
upload_strips (TressFurPreview *self, GLuint buffer, guint stride, guint *n_ribbons)
{
  gsize n = tress_fur_mesh_strip_indices (self->mesh, stride, NULL, n_ribbons);
  gpointer out;

  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, buffer);
  glBufferData (GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(sizeof (guint32) * MAX (n, 1)), NULL,
                GL_STATIC_DRAW);
  if (n == 0)
    return 0;
  out = glMapBufferRange (GL_ELEMENT_ARRAY_BUFFER, 0, (GLsizeiptr)(sizeof (guint32) * n),
                          GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
  if (out == NULL)
    {
      /* Mapping refused: upload from a temporary list instead. */
      g_autofree guint32 *list = g_new (guint32, n);

      tress_fur_mesh_strip_indices (self->mesh, stride, list, NULL);
      glBufferSubData (GL_ELEMENT_ARRAY_BUFFER, 0, (GLsizeiptr)(sizeof (guint32) * n), list);
      return n;
    }
  tress_fur_mesh_strip_indices (self->mesh, stride, out, NULL);
  glUnmapBuffer (GL_ELEMENT_ARRAY_BUFFER);
  return n;
}

static void
upload_geometry (TressFurPreview *self)
{
  const TressFurMesh *m = self->mesh;
  guint stride, n_full;
  gsize pos_size = 3 * sizeof (float) * MAX (m->n_vertices, 1);
  gsize pid_size = sizeof (guint32) * MAX (m->n_vertices, 1);
  float *positions;
  guint32 *ids;

  /* Positions and point ids are computed straight into the mapped buffers
   * (both mapped at once: one pass over the ribbons). */
  glBindVertexArray (self->vao);
  glBindBuffer (GL_ARRAY_BUFFER, self->vbo_pos);
  glBufferData (GL_ARRAY_BUFFER, (GLsizeiptr)pos_size, NULL, GL_STATIC_DRAW);
  positions = glMapBufferRange (GL_ARRAY_BUFFER, 0, (GLsizeiptr)pos_size,
                                GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
  glBindBuffer (GL_ARRAY_BUFFER, self->vbo_pid);
  glBufferData (GL_ARRAY_BUFFER, (GLsizeiptr)pid_size, NULL, GL_STATIC_DRAW);
  ids = glMapBufferRange (GL_ARRAY_BUFFER, 0, (GLsizeiptr)pid_size,
                          GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
  if (positions != NULL && ids != NULL)
    {
      tress_fur_mesh_fill (self->mesh, positions, ids);
      glUnmapBuffer (GL_ARRAY_BUFFER);
      glBindBuffer (GL_ARRAY_BUFFER, self->vbo_pos);
      glUnmapBuffer (GL_ARRAY_BUFFER);
    }
  else
    {
      /* Mapping refused: upload from temporary copies instead. */
      g_autofree float *pos_copy = g_new0 (float, pos_size / sizeof (float));
      g_autofree guint32 *pid_copy = g_new0 (guint32, pid_size / sizeof (guint32));

      if (ids != NULL)
        glUnmapBuffer (GL_ARRAY_BUFFER);
      glBindBuffer (GL_ARRAY_BUFFER, self->vbo_pos);
      if (positions != NULL)
        glUnmapBuffer (GL_ARRAY_BUFFER);
      tress_fur_mesh_fill (self->mesh, pos_copy, pid_copy);
      glBufferSubData (GL_ARRAY_BUFFER, 0, (GLsizeiptr)pos_size, pos_copy);
      glBindBuffer (GL_ARRAY_BUFFER, self->vbo_pid);
      glBufferSubData (GL_ARRAY_BUFFER, 0, (GLsizeiptr)pid_size, pid_copy);
    }
  glBindBuffer (GL_ARRAY_BUFFER, self->vbo_pos);
  glVertexAttribPointer (0, 3, GL_FLOAT, GL_FALSE, 0, NULL);
  glEnableVertexAttribArray (0);
  glBindBuffer (GL_ARRAY_BUFFER, self->vbo_pid);
  glVertexAttribIPointer (1, 1, GL_UNSIGNED_INT, 0, NULL);
  glEnableVertexAttribArray (1);
  self->n_indices_uploaded = upload_strips (self, self->ebo, 1, &n_full);
  /* The reduced list, only for files large enough to need it. */
  stride = self->lod_limit > 0 && m->n_ribbons > self->lod_limit
               ? (m->n_ribbons + self->lod_limit - 1) / self->lod_limit
               : 0;
  if (stride > 1)
    self->n_lod_indices = upload_strips (self, self->ebo_lod, stride, &self->n_lod_ribbons);
  else
    {
      self->n_lod_indices = 0;
      self->n_lod_ribbons = n_full;
    }
  glBindVertexArray (0);
  glBindBuffer (GL_TEXTURE_BUFFER, self->disp_buffer);
  glBufferData (GL_TEXTURE_BUFFER,
                (GLsizeiptr)(sizeof (float) * ((gsize)m->n_morphs * 2 * m->n_ribbons * 3 + 1)),
                m->displacement, GL_STATIC_DRAW);
  glBindTexture (GL_TEXTURE_BUFFER, self->disp_texture);
  glTexBuffer (GL_TEXTURE_BUFFER, GL_R32F, self->disp_buffer);
  self->n_uploads++;
  self->geometry_dirty = FALSE;
}

/* The vertices and displacements of ribbons edited in place, range by range. */
static void
upload_changed_ribbons (TressFurPreview *self)
{
  TressFurMesh *m = self->mesh;
  float pts[2 * (TRESS_CHA_MAX_SECTIONS + 1) * 3];
  guint i, k;

  for (i = 0; i < self->changed_ribbons->len; i++)
    {
      guint g = g_array_index (self->changed_ribbons, guint, i);
      guint n = tress_fur_mesh_update_ribbon (m, g, pts);

      if (n == 0)
        continue;
      glBindBuffer (GL_ARRAY_BUFFER, self->vbo_pos);
      glBufferSubData (GL_ARRAY_BUFFER, (GLintptr)(3 * sizeof (float) * m->ribbon_vertex[g]),
                       (GLsizeiptr)(3 * sizeof (float) * n), pts);
      glBindBuffer (GL_TEXTURE_BUFFER, self->disp_buffer);
      for (k = 0; k < m->n_morphs; k++)
        {
          gsize first = ((gsize)k * 2 * m->n_ribbons + 2 * g) * 3;

          glBufferSubData (GL_TEXTURE_BUFFER, (GLintptr)(sizeof (float) * first),
                           (GLsizeiptr)(sizeof (float) * 6), m->displacement + first);
        }
    }
  g_array_set_size (self->changed_ribbons, 0);
  self->n_uploads++;
}

static guint8 *
problem_marks (TressFurPreview *self)
{
  guint8 *marks = g_new0 (guint8, self->mesh->n_ribbons + 1);

  tress_fur_mesh_mark_problems (self->mesh, tress_cha_document_get_ribbon_problems (self->doc),
                                marks);
  return marks;
}

static void
upload_colours (TressFurPreview *self)
{
  const TressFurMesh *m = self->mesh;
  TressChaFile *file = get_file (self);
  guint8 *per_ribbon;
  g_autofree guint8 *marks = NULL;

  g_free (self->colours);
  self->colours = per_ribbon = g_new0 (guint8, 4 * (gsize)m->n_ribbons + 4);
  self->n_colours = m->n_ribbons;

  if (self->colour_mode == TRESS_FUR_COLOUR_PROBLEMS)
    marks = problem_marks (self);
  if (file != NULL && m->n_ribbons > 0)
    tress_fur_mesh_colours (m, file, self->colour_mode, self->colour_part, marks, per_ribbon);
  glBindBuffer (GL_TEXTURE_BUFFER, self->colour_buffer);
  glBufferData (GL_TEXTURE_BUFFER, (GLsizeiptr)(4 * (gsize)m->n_ribbons + 4), per_ribbon,
                GL_STATIC_DRAW);
  glBindTexture (GL_TEXTURE_BUFFER, self->colour_texture);
  glTexBuffer (GL_TEXTURE_BUFFER, GL_RGBA8, self->colour_buffer);
  self->n_uploads++;
  self->colours_dirty = FALSE;
  clear_recoloured (self);
  self->base_dirty = TRUE;
}

/* The new colours of the ribbons listed in recoloured: computed for those
 * alone, sent as one span of the buffer. Ribbons whose colour came out the
 * same (a brush over lines it leaves alone) leave the list: nothing to draw. */
static void
upload_recoloured (TressFurPreview *self)
{
  const TressFurMesh *m = self->mesh;
  TressChaFile *file = get_file (self);
  g_autofree guint8 *marks = NULL;
  guint lo = G_MAXUINT, hi = 0, kept = 0;

  if (self->colours == NULL || self->n_colours != m->n_ribbons)
    {
      upload_colours (self);
      return;
    }
  if (self->colour_mode == TRESS_FUR_COLOUR_PROBLEMS)
    marks = problem_marks (self);
  for (guint i = 0; i < self->recoloured->len; i++)
    {
      guint g = g_array_index (self->recoloured, guint, i);
      guint8 rgba[4];

      tress_fur_mesh_ribbon_colour (m, file, self->colour_mode, self->colour_part, marks, g, rgba);
      if (memcmp (rgba, self->colours + 4 * (gsize)g, 4) == 0)
        continue;
      memcpy (self->colours + 4 * (gsize)g, rgba, 4);
      g_array_index (self->recoloured, guint, kept++) = g;
      lo = MIN (lo, g);
      hi = MAX (hi, g);
    }
  g_array_set_size (self->recoloured, kept);
  if (lo <= hi)
    {
      glBindBuffer (GL_TEXTURE_BUFFER, self->colour_buffer);
      glBufferSubData (GL_TEXTURE_BUFFER, (GLintptr)(4 * (gsize)lo),
                       (GLsizeiptr)(4 * ((gsize)hi - lo + 1)), self->colours + 4 * (gsize)lo);
    }
  self->n_uploads++;
}

static void
upload_selection (TressFurPreview *self)
{
  const TressFurMesh *m = self->mesh;
  g_autofree guint8 *sel = g_new0 (guint8, (gsize)m->n_ribbons + 1);
  const TressChaRibbonId *ids;
  guint n, i;

  ids = tress_cha_document_get_selection (self->doc, &n);
  for (i = 0; i < n; i++)
    {
      guint g = tress_fur_mesh_global (m, ids[i].material, ids[i].ribbon);

      if (g != G_MAXUINT)
        sel[g] = 255;
    }
  glBindBuffer (GL_TEXTURE_BUFFER, self->sel_buffer);
  glBufferData (GL_TEXTURE_BUFFER, (GLsizeiptr)m->n_ribbons + 1, sel, GL_STATIC_DRAW);
  glBindTexture (GL_TEXTURE_BUFFER, self->sel_texture);
  glTexBuffer (GL_TEXTURE_BUFFER, GL_R8, self->sel_buffer);
  self->n_uploads++;
  self->selection_dirty = FALSE;
  /* Isolating dims by the selection: the base shows it. */
  if (self->isolate)
    self->base_dirty = TRUE;
}

/* The selected ribbons as strips (first vertex, count) for the top layer. */
static void
collect_selection (TressFurPreview *self)
{
  const TressChaRibbonId *ids;
  guint n;

  g_array_set_size (self->sel_first, 0);
  g_array_set_size (self->sel_count, 0);
  self->n_selected = 0;
  if (self->mesh == NULL)
    return;
  ids = tress_cha_document_get_selection (self->doc, &n);
  for (guint i = 0; i < n; i++)
    {
      guint g = tress_fur_mesh_global (self->mesh, ids[i].material, ids[i].ribbon);
      GLint first;
      GLsizei count;

      if (g == G_MAXUINT)
        continue;
      first = (GLint)self->mesh->ribbon_vertex[g];
      count = (GLsizei)(self->mesh->ribbon_vertex[g + 1] - self->mesh->ribbon_vertex[g]);
      self->n_selected++;
      if (count < 4)
        continue;
      g_array_append_val (self->sel_first, first);
      g_array_append_val (self->sel_count, count);
    }
}

static gboolean on_lod_idle (gpointer data);

/* The program with the view's uniforms, the mesh's buffers bound. */
static void
use_program (TressFurPreview *self, const float mvp[16], int w, int h)
{
  glUseProgram (self->program);
  glUniformMatrix4fv (self->u_mvp, 1, GL_FALSE, mvp);
  glUniform1i (self->u_n_morphs, (GLint)self->mesh->n_morphs);
  glUniform1i (self->u_n_points, (GLint)(2 * self->mesh->n_ribbons));
  glUniform1fv (self->u_morph, TRESS_FUR_MESH_MAX_MORPHS, self->morph_weights);
  glUniform1i (self->u_mode, 0);
  glUniform1f (self->u_dim, 0);
  glUniform1f (self->u_tint, 0);
  glUniform4f (self->u_background, TRESS_FUR_BACKGROUND_R / 255.f, TRESS_FUR_BACKGROUND_G / 255.f,
               TRESS_FUR_BACKGROUND_B / 255.f, 1.f);
  glUniform2f (self->u_offset, 0, 0);
  glUniform2f (self->u_viewport, (float)MAX (w, 1), (float)MAX (h, 1));
  glActiveTexture (GL_TEXTURE0);
  glBindTexture (GL_TEXTURE_BUFFER, self->disp_texture);
  glUniform1i (self->u_disp, 0);
  glActiveTexture (GL_TEXTURE1);
  glBindTexture (GL_TEXTURE_BUFFER, self->colour_texture);
  glUniform1i (self->u_colours, 1);
  glActiveTexture (GL_TEXTURE2);
  glBindTexture (GL_TEXTURE_BUFFER, self->sel_texture);
  glUniform1i (self->u_selected, 2);
  glActiveTexture (GL_TEXTURE0);
  glBindVertexArray (self->vao);
}

/* The offscreen colour and depth buffers at the area's size. */
static gboolean
ensure_base (TressFurPreview *self, int w, int h)
{
  if (self->base_fbo != 0 && self->base_w == w && self->base_h == h)
    return TRUE;
  if (self->base_fbo == 0)
    {
      glGenFramebuffers (1, &self->base_fbo);
      glGenRenderbuffers (1, &self->base_colour);
      glGenRenderbuffers (1, &self->base_depth);
    }
  glBindRenderbuffer (GL_RENDERBUFFER, self->base_colour);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_RGBA8, w, h);
  glBindRenderbuffer (GL_RENDERBUFFER, self->base_depth);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, w, h);
  glBindRenderbuffer (GL_RENDERBUFFER, 0);
  glBindFramebuffer (GL_FRAMEBUFFER, self->base_fbo);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                             self->base_colour);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER,
                             self->base_depth);
  self->base_w = w;
  self->base_h = h;
  self->base_dirty = TRUE;
  return glCheckFramebufferStatus (GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
}

static void
draw_base (TressFurPreview *self, const float mvp[16], int w, int h, gboolean reduced)
{
  glViewport (0, 0, w, h);
  glClearColor (TRESS_FUR_BACKGROUND_R / 255.f, TRESS_FUR_BACKGROUND_G / 255.f,
                TRESS_FUR_BACKGROUND_B / 255.f, 1.f);
  glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  {
    float eye[3];

    tress_gl_camera_eye (&self->cam, eye);
    tress_fur_body_view_draw (self->body_view, mvp, eye, self->morph_weights, self->mesh->n_morphs,
                              self->isolate && self->n_selected > 0 ? ISOLATE_DIM / 2 : 0.f);
  }
  use_program (self, mvp, w, h);
  glUniform1f (self->u_dim, self->isolate && self->n_selected > 0 ? ISOLATE_DIM : 0.f);
  glEnable (GL_PRIMITIVE_RESTART);
  glPrimitiveRestartIndex (TRESS_FUR_MESH_RESTART);
  if (reduced)
    {
      glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, self->ebo_lod);
      glDrawElements (GL_TRIANGLE_STRIP, (GLsizei)self->n_lod_indices, GL_UNSIGNED_INT, NULL);
    }
  else
    {
      glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, self->ebo);
      if (self->n_indices_uploaded > 0)
        glDrawElements (GL_TRIANGLE_STRIP, (GLsizei)self->n_indices_uploaded, GL_UNSIGNED_INT,
                        NULL);
    }
  glDisable (GL_PRIMITIVE_RESTART);
  self->n_base_draws++;
}

/* Ribbons drawn again into the base where they are (their colour changed). */
static void
draw_into_base (TressFurPreview *self, const float mvp[16], int w, int h, const GArray *ribbons)
{
  g_autofree GLint *first = g_new (GLint, ribbons->len + 1);
  g_autofree GLsizei *count = g_new (GLsizei, ribbons->len + 1);
  guint n = 0;

  for (guint i = 0; i < ribbons->len; i++)
    {
      guint g = g_array_index (ribbons, guint, i);

      first[n] = (GLint)self->mesh->ribbon_vertex[g];
      count[n] = (GLsizei)(self->mesh->ribbon_vertex[g + 1] - self->mesh->ribbon_vertex[g]);
      if (count[n] >= 4)
        n++;
    }
  glViewport (0, 0, w, h);
  use_program (self, mvp, w, h);
  glUniform1f (self->u_dim, self->isolate && self->n_selected > 0 ? ISOLATE_DIM : 0.f);
  if (n > 0)
    glMultiDrawArrays (GL_TRIANGLE_STRIP, first, count, (GLsizei)n);
}

/* The top layer: the selection over everything, outlined, and the hovered ribbon. */
static void
draw_top (TressFurPreview *self, const float mvp[16], int w, int h)
{
  GLsizei n = (GLsizei)self->sel_first->len;
  const GLint *first = (const GLint *)(gpointer)self->sel_first->data;
  const GLsizei *count = (const GLsizei *)(gpointer)self->sel_count->data;

  use_program (self, mvp, w, h);
  glClear (GL_DEPTH_BUFFER_BIT);
  /* The hovered ribbon first: the selection stays on top of it. */
  if (self->hover >= 0 && (guint)self->hover < self->mesh->n_ribbons && self->stroke == NULL)
    {
      guint v0 = self->mesh->ribbon_vertex[self->hover];
      guint nv = self->mesh->ribbon_vertex[self->hover + 1] - v0;

      glDisable (GL_DEPTH_TEST);
      glUniform1i (self->u_mode, 2);
      glUniform1f (self->u_tint, HOVER_TINT);
      if (nv >= 4)
        glDrawArrays (GL_TRIANGLE_STRIP, (GLint)v0, (GLsizei)nv);
    }
  if (n > 0)
    {
      if (self->sel_first->len <= OUTLINE_MAX_RIBBONS)
        {
          static const float offsets[8][2]
              = { { 2, 0 },     { -2, 0 },     { 0, 2 },      { 0, -2 },
                  { 1.5, 1.5 }, { -1.5, 1.5 }, { 1.5, -1.5 }, { -1.5, -1.5 } };
          int scale = gtk_widget_get_scale_factor (self->area);

          glDisable (GL_DEPTH_TEST);
          glUniform1i (self->u_mode, 1);
          glUniform4f (self->u_flat, TRESS_FUR_OUTLINE_R / 255.f, TRESS_FUR_OUTLINE_G / 255.f,
                       TRESS_FUR_OUTLINE_B / 255.f, 1.f);
          for (guint k = 0; k < G_N_ELEMENTS (offsets); k++)
            {
              glUniform2f (self->u_offset, offsets[k][0] * scale, offsets[k][1] * scale);
              glMultiDrawArrays (GL_TRIANGLE_STRIP, first, count, n);
            }
          glUniform2f (self->u_offset, 0, 0);
        }
      glEnable (GL_DEPTH_TEST);
      glDepthFunc (GL_LEQUAL);
      glUniform1i (self->u_mode, 1);
      glUniform4f (self->u_flat, TRESS_FUR_HIGHLIGHT_R / 255.f, TRESS_FUR_HIGHLIGHT_G / 255.f,
                   TRESS_FUR_HIGHLIGHT_B / 255.f, 1.f);
      glMultiDrawArrays (GL_TRIANGLE_STRIP, first, count, n);
    }
}

/* What the base depends on besides its flags: the view and the morphs. */
static void
view_key (TressFurPreview *self, const float mvp[16], float key[16 + TRESS_FUR_MESH_MAX_MORPHS])
{
  memcpy (key, mvp, 16 * sizeof (float));
  memcpy (key + 16, self->morph_weights, sizeof self->morph_weights);
}

/* Draws a whole frame into the framebuffer bound now (the area's). */
static void
draw_scene (TressFurPreview *self)
{
  float mvp[16], key[16 + TRESS_FUR_MESH_MAX_MORPHS];
  int scale = gtk_widget_get_scale_factor (self->area);
  int w = gtk_widget_get_width (self->area) * scale, h = gtk_widget_get_height (self->area) * scale;
  GLint target = 0;
  gboolean reduced;

  glGetIntegerv (GL_DRAW_FRAMEBUFFER_BINDING, &target);
  glViewport (0, 0, w, h);
  glClearColor (TRESS_FUR_BACKGROUND_R / 255.f, TRESS_FUR_BACKGROUND_G / 255.f,
                TRESS_FUR_BACKGROUND_B / 255.f, 1.f);
  if (self->mesh == NULL || self->program == 0 || w <= 0 || h <= 0 || !ensure_base (self, w, h))
    {
      glBindFramebuffer (GL_FRAMEBUFFER, (GLuint)target);
      glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
      return;
    }
  if (self->geometry_dirty)
    {
      upload_geometry (self);
      g_array_set_size (self->changed_ribbons, 0);
      self->base_dirty = TRUE;
    }
  else if (self->changed_ribbons->len > 0)
    {
      upload_changed_ribbons (self);
      self->base_dirty = TRUE;
    }
  if (self->colours_dirty)
    upload_colours (self);
  if (self->selection_dirty)
    upload_selection (self);
  if (self->recoloured->len > 0)
    upload_recoloured (self);
  /* Most of the mesh recoloured: drawing it whole costs no more. */
  if (self->recoloured->len > self->mesh->n_ribbons / 2)
    self->base_dirty = TRUE;

  compute_mvp (self, mvp);
  view_key (self, mvp, key);
  reduced = (self->interacting || self->first_frame_pending) && self->n_lod_indices > 0;
  if (memcmp (key, self->base_key, sizeof key) != 0 || reduced != self->base_reduced)
    self->base_dirty = TRUE;

  glEnable (GL_DEPTH_TEST);
  glDepthFunc (GL_LEQUAL);
  glDisable (GL_CULL_FACE);
  glDisable (GL_BLEND);
  glBindFramebuffer (GL_FRAMEBUFFER, self->base_fbo);
  if (self->base_dirty)
    {
      draw_base (self, mvp, w, h, reduced);
      memcpy (self->base_key, key, sizeof key);
      self->base_reduced = reduced;
      self->base_dirty = FALSE;
      self->n_ribbons_drawn = reduced ? self->n_lod_ribbons : self->mesh->n_ribbons;
      if (!reduced)
        self->full_frame_drawn = TRUE;
      if (reduced && self->first_frame_pending && !self->interacting)
        {
          /* The full picture follows as soon as this one is shown. */
          g_clear_handle_id (&self->lod_timeout, g_source_remove);
          self->lod_timeout = g_idle_add_full (G_PRIORITY_DEFAULT, on_lod_idle, self, NULL);
        }
    }
  else if (self->recoloured->len > 0)
    draw_into_base (self, mvp, w, h, self->recoloured);
  clear_recoloured (self);
  self->first_frame_pending = FALSE;

  /* The base onto the screen, the top layer over it. */
  glBindFramebuffer (GL_READ_FRAMEBUFFER, self->base_fbo);
  glBindFramebuffer (GL_DRAW_FRAMEBUFFER, (GLuint)target);
  glBlitFramebuffer (0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer (GL_FRAMEBUFFER, (GLuint)target);
  glViewport (0, 0, w, h);
  draw_top (self, mvp, w, h);
  glBindVertexArray (0);
  glUseProgram (0);
}

static gboolean
on_render (GtkGLArea *area, GdkGLContext *context, TressFurPreview *self)
{
  draw_scene (self);
  g_signal_emit (self, signals[SIGNAL_FRAME_DRAWN], 0);
  return TRUE;
}

static void
show_gl_error (TressFurPreview *self, const char *message)
{
  g_free (self->gl_error);
  self->gl_error = tress_gl_fallback_show (self->stack, message);
}

static void
on_realize (GtkGLArea *area, TressFurPreview *self)
{
  g_autoptr (GError) error = NULL;

  if (!tress_gl_area_begin (area, &error))
    {
      show_gl_error (self, error->message);
      return;
    }
  if (!create_program (self, &error))
    {
      gtk_gl_area_set_error (area, error);
      show_gl_error (self, error->message);
      return;
    }
  if (!tress_fur_body_view_realize (self->body_view, &error))
    g_warning ("The body under the fur is not drawn: %s", error->message);
  glGenVertexArrays (1, &self->vao);
  glGenBuffers (1, &self->vbo_pos);
  glGenBuffers (1, &self->vbo_pid);
  glGenBuffers (1, &self->ebo);
  glGenBuffers (1, &self->ebo_lod);
  glGenBuffers (1, &self->disp_buffer);
  glGenBuffers (1, &self->colour_buffer);
  glGenBuffers (1, &self->sel_buffer);
  glGenTextures (1, &self->disp_texture);
  glGenTextures (1, &self->colour_texture);
  glGenTextures (1, &self->sel_texture);
  self->gl_ready = TRUE;
  self->geometry_dirty = self->colours_dirty = self->selection_dirty = TRUE;
  self->base_dirty = TRUE;
}

static void
on_unrealize (GtkGLArea *area, TressFurPreview *self)
{
  gtk_gl_area_make_current (area);
  if (self->gl_ready && gtk_gl_area_get_error (area) == NULL)
    {
      GLuint buffers[7] = { self->vbo_pos,     self->vbo_pid,       self->ebo,       self->ebo_lod,
                            self->disp_buffer, self->colour_buffer, self->sel_buffer };
      GLuint textures[3] = { self->disp_texture, self->colour_texture, self->sel_texture };
      GLuint renderbuffers[2] = { self->base_colour, self->base_depth };

      tress_fur_body_view_unrealize (self->body_view);
      glDeleteBuffers (7, buffers);
      glDeleteTextures (3, textures);
      glDeleteVertexArrays (1, &self->vao);
      glDeleteProgram (self->program);
      if (self->base_fbo != 0)
        {
          glDeleteFramebuffers (1, &self->base_fbo);
          glDeleteRenderbuffers (2, renderbuffers);
        }
    }
  self->base_fbo = self->base_colour = self->base_depth = 0;
  self->base_w = self->base_h = 0;
  self->program = 0;
  self->gl_ready = FALSE;
}

/* ---- model ---------------------------------------------------------------- */

static void update_legend (TressFurPreview *self);
static void update_info (TressFurPreview *self);

static void
drop_screen (TressFurPreview *self)
{
  g_clear_pointer (&self->screen, tress_fur_screen_free);
}

/* The mesh as the view shows it now (made when the view changed). */
static TressFurScreen *
get_screen (TressFurPreview *self)
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
  clear_recoloured (self);
  collect_selection (self);
  queue_render (self);
}

static char *
part_label (TressFurPreview *self, guint32 part)
{
  return tress_fur_names_label (self->names, part);
}

static int
compare_u32 (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *)a, y = *(const guint32 *)b;

  return x < y ? -1 : x > y;
}

typedef struct
{
  guint32 part;
  guint count;
} PartCount;

/* More ribbons first, then the lower part. */
static int
compare_part_counts (gconstpointer a, gconstpointer b)
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
      g_autofree char *label = part_label (self, part);

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
  update_legend (self);
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
          add_recoloured (self, &g, 1);
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
      update_legend (self);
    }
  /* "Painted 214 lines…" was about the last stroke; after an undo or another
   * edit it would be about something no longer there. */
  if (self->paint_status != NULL && !self->ending_stroke)
    {
      g_clear_pointer (&self->paint_status, g_free);
      update_info (self);
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
      update_legend (self);
      queue_render (self);
    }
}

static void
on_selection_changed (TressChaDocument *doc, gpointer origin, TressFurPreview *self)
{
  collect_selection (self);
  self->selection_dirty = TRUE;
  update_legend (self);
  queue_render (self);
}

static void
on_names_changed (TressFurNames *names, guint part, TressFurPreview *self)
{
  fill_parts (self);
  update_legend (self);
  update_info (self);
}

/* ---- legend and information ----------------------------------------------- */

static void
update_legend (TressFurPreview *self)
{
  TressFurOverlay *overlay = TRESS_FUR_OVERLAY (self->overlay);
  TressChaFile *file = get_file (self);
  g_autoptr (GArray) entries = g_array_new (FALSE, TRUE, sizeof (TressFurLegendEntry));
  g_autoptr (GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *title = NULL;
  TressFurLegendEntry e;

#define ADD(r, g, b, text)                                                                         \
  G_STMT_START                                                                                     \
  {                                                                                                \
    e.rgb[0] = (r);                                                                                \
    e.rgb[1] = (g);                                                                                \
    e.rgb[2] = (b);                                                                                \
    e.label = (text);                                                                              \
    g_ptr_array_add (labels, e.label);                                                             \
    g_array_append_val (entries, e);                                                               \
  }                                                                                                \
  G_STMT_END

  if (self->mesh == NULL || file == NULL)
    {
      tress_fur_overlay_set_legend (overlay, NULL, NULL, 0);
      return;
    }
  switch (self->colour_mode)
    {
    case TRESS_FUR_COLOUR_WEIGHT:
      {
        g_autofree char *part = part_label (self, self->colour_part);

        /* Translators: the legend of the weight colouring; %s is a body part. */
        title = g_strdup_printf (_ ("Weight on %s"), part);
        for (int w = 255; w >= 0; w -= 85)
          {
            guint8 rgb[3];

            tress_fur_weight_colour (w / 255.0, rgb);
            ADD (rgb[0], rgb[1], rgb[2],
                 w == 255 ? g_strdup (_ ("255 (all of it)"))
                 : w == 0 ? g_strdup (_ ("0 (none)"))
                          : g_strdup_printf ("%d", w));
          }
      }
      break;
    case TRESS_FUR_COLOUR_QUALITY:
      {
        static const char *const names[]
            = { N_ ("0 low"), N_ ("1 medium"), N_ ("2 high"), N_ ("3 or more: invalid") };

        title = g_strdup (_ ("Texture quality"));
        for (guint q = 0; q < 4; q++)
          {
            guint8 rgb[3];

            tress_fur_quality_colour (q, rgb);
            ADD (rgb[0], rgb[1], rgb[2], g_strdup (_ (names[q])));
          }
      }
      break;
    case TRESS_FUR_COLOUR_PROBLEMS:
      {
        g_autofree guint8 *marks = problem_marks (self);
        guint n = 0;
        guint8 rgb[3];

        for (guint g = 0; g < self->mesh->n_ribbons; g++)
          n += marks[g] != 0;
        title = g_strdup (_ ("Problems"));
        tress_fur_problem_colour (TRUE, rgb);
        ADD (rgb[0], rgb[1], rgb[2],
             g_strdup_printf (
                 ngettext ("with problems (%u ribbon)", "with problems (%u ribbons)", n), n));
        tress_fur_problem_colour (FALSE, rgb);
        ADD (rgb[0], rgb[1], rgb[2], g_strdup (_ ("without")));
      }
      break;
    case TRESS_FUR_COLOUR_BODY_PART:
    default:
      {
        /* The parts ribbons are attached to, as the colours show them: those
         * with the most ribbons (the colours one sees most) first. */
        g_autoptr (GHashTable) counts = g_hash_table_new (g_direct_hash, g_direct_equal);
        g_autoptr (GArray) attached = g_array_new (FALSE, FALSE, sizeof (PartCount));
        const guint max_rows = 6;
        GHashTableIter iter;
        gpointer key, value;

        for (guint mi = 0; file->radeon != NULL && mi < file->radeon->n_materials; mi++)
          {
            const TressChaMaterial *m = &file->radeon->materials[mi];

            for (guint r = 0; m->attach != NULL && r < m->n_ribbons; r++)
              {
                gpointer k = GUINT_TO_POINTER (m->attach[r] + 1);

                g_hash_table_insert (
                    counts, k,
                    GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, k)) + 1));
              }
          }
        g_hash_table_iter_init (&iter, counts);
        while (g_hash_table_iter_next (&iter, &key, &value))
          {
            PartCount pc = { GPOINTER_TO_UINT (key) - 1, GPOINTER_TO_UINT (value) };

            g_array_append_val (attached, pc);
          }
        g_array_sort (attached, compare_part_counts);
        title = g_strdup (_ ("Attached to"));
        for (guint i = 0; i < attached->len && i < max_rows; i++)
          {
            guint32 part = g_array_index (attached, PartCount, i).part;
            guint8 rgb[3];

            tress_fur_body_part_colour (part, rgb);
            ADD (rgb[0], rgb[1], rgb[2], part_label (self, part));
          }
        if (attached->len > max_rows)
          {
            guint more = attached->len - max_rows;

            ADD (TRESS_FUR_BACKGROUND_R, TRESS_FUR_BACKGROUND_G, TRESS_FUR_BACKGROUND_B,
                 g_strdup_printf (ngettext ("and %u more part", "and %u more parts", more), more));
          }
      }
      break;
    }
  if (self->n_selected > 0)
    ADD (TRESS_FUR_HIGHLIGHT_R, TRESS_FUR_HIGHLIGHT_G, TRESS_FUR_HIGHLIGHT_B,
         self->isolate ? g_strdup_printf (ngettext ("selected (%u ribbon, the others dimmed)",
                                                    "selected (%u ribbons, the others dimmed)",
                                                    self->n_selected),
                                          self->n_selected)
                       : g_strdup_printf (ngettext ("selected (%u ribbon)", "selected (%u ribbons)",
                                                    self->n_selected),
                                          self->n_selected));
#undef ADD
  tress_fur_overlay_set_legend (overlay, title,
                                (const TressFurLegendEntry *)(gpointer)entries->data, entries->len);
}

/* The information line: what is under the pointer, or what painting does. */
static void
update_info (TressFurPreview *self)
{
  TressFurOverlay *overlay = TRESS_FUR_OVERLAY (self->overlay);
  TressChaFile *file = get_file (self);
  guint mi, r;

  if (self->paint_mode)
    {
      g_autofree char *part = part_label (self, self->colour_part);
      g_autofree char *hint = NULL;

      if (self->paint_status != NULL)
        {
          tress_fur_overlay_set_info (overlay, self->paint_status);
          return;
        }
      switch (self->tool)
        {
        case TRESS_CHA_PAINT_ADD:
          /* Translators: %s is a body part. */
          hint = g_strdup_printf (_ ("Paint toward %s (Ctrl: away, Shift: smooth)"), part);
          break;
        case TRESS_CHA_PAINT_SUBTRACT:
          hint = g_strdup_printf (_ ("Paint away from %s (Ctrl: toward, Shift: smooth)"), part);
          break;
        case TRESS_CHA_PAINT_SMOOTH:
        default:
          hint = g_strdup (_ ("Smooth weights with the neighbouring lines"));
          break;
        }
      tress_fur_overlay_set_info (overlay, hint);
      return;
    }
  if (self->hover < 0 || self->mesh == NULL || file == NULL
      || !tress_fur_mesh_ribbon_id (self->mesh, (guint)self->hover, &mi, &r) || file->radeon == NULL
      || mi >= file->radeon->n_materials || r >= file->radeon->materials[mi].n_ribbons)
    {
      tress_fur_overlay_set_info (overlay, NULL);
      return;
    }
  {
    g_autofree char *part = part_label (self, file->radeon->materials[mi].attach[r]);
    /* Translators: the ribbon under the pointer: material, ribbon, the body part it is on. */
    g_autofree char *text = g_strdup_printf (_ ("Material %u, ribbon %u: on %s"), mi, r, part);

    tress_fur_overlay_set_info (overlay, text);
  }
}

/* ---- pointer -------------------------------------------------------------- */

static void
set_hover (TressFurPreview *self, int g)
{
  if (self->hover == g)
    return;
  self->hover = g;
  update_info (self);
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
  screen = get_screen (self);
  set_hover (self, screen != NULL ? tress_fur_screen_pick (screen, self->pointer_x, self->pointer_y)
                                  : -1);
  return G_SOURCE_REMOVE;
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, TressFurPreview *self)
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

static void
on_leave (GtkEventControllerMotion *motion, TressFurPreview *self)
{
  self->pointer_inside = FALSE;
  g_clear_handle_id (&self->hover_timeout, g_source_remove);
  tress_fur_overlay_set_brush (TRESS_FUR_OVERLAY (self->overlay), FALSE, 0, 0, 0);
  set_hover (self, -1);
}

/* ---- painting ------------------------------------------------------------- */

/* One dab at (@x, @y): the lines under the brush, their new colours. Costs
 * what is under the brush: the screen grid finds the lines, the stroke looks
 * each up directly, and only the touched ribbons are recoloured. */
static void
dab (TressFurPreview *self, double x, double y)
{
  TressFurScreen *screen = get_screen (self);
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
  add_recoloured (self, (const guint *)(gpointer)ribbons->data, ribbons->len);
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

      dab (self, p[0], p[1]);
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
  set_hover (self, -1);
  dab (self, x, y);
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
    g_autofree char *part = part_label (self, target);
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
  update_info (self);
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

static void
on_paint_begin (GtkGestureDrag *gesture, double x, double y, TressFurPreview *self)
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

static void
on_paint_update (GtkGestureDrag *gesture, double dx, double dy, TressFurPreview *self)
{
  double x = self->drag_x + dx, y = self->drag_y + dy;

  tress_fur_overlay_set_brush (TRESS_FUR_OVERLAY (self->overlay), TRUE, x, y, self->brush_radius);
  tress_fur_preview_paint_to (self, x, y);
}

static void
on_paint_end (GtkGestureDrag *gesture, double dx, double dy, TressFurPreview *self)
{
  tress_fur_preview_paint_end (self);
}

/* ---- controls and gestures ------------------------------------------------ */

static gboolean
on_lod_idle (gpointer data)
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
  self->lod_timeout = g_timeout_add (LOD_IDLE_MS, on_lod_idle, self);
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
    set_hover (self, -1);
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
  g_signal_connect (self->area, "realize", G_CALLBACK (on_realize), self);
  g_signal_connect (self->area, "unrealize", G_CALLBACK (on_unrealize), self);
  g_signal_connect (self->area, "render", G_CALLBACK (on_render), self);
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
  g_signal_connect (self->paint_drag, "drag-begin", G_CALLBACK (on_paint_begin), self);
  g_signal_connect (self->paint_drag, "drag-update", G_CALLBACK (on_paint_update), self);
  g_signal_connect (self->paint_drag, "drag-end", G_CALLBACK (on_paint_end), self);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (self->paint_drag));
  tress_gl_camera_attach (&self->cam, self->area, on_camera_moved, self);
  g_signal_connect (click, "released", G_CALLBACK (on_click), self);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (click));
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "enter", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
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
  update_legend (self);
  update_info (self);
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
  update_legend (self);
  update_info (self);
  queue_render (self);
}

TressFurColourMode
tress_fur_preview_get_colour_mode (TressFurPreview *self, guint32 *part)
{
  if (part != NULL)
    *part = self->colour_part;
  return self->colour_mode;
}

static void
frame (TressFurPreview *self, const guint *globals, guint n)
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
  frame (self, NULL, 0);
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
  frame (self, globals, k);
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
  update_legend (self);
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
  TressFurScreen *screen = get_screen (self);

  set_hover (self, screen != NULL ? tress_fur_screen_pick (screen, x, y) : -1);
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
  set_hover (self, -1);
  tress_fur_overlay_set_brush (TRESS_FUR_OVERLAY (self->overlay), paint && self->pointer_inside,
                               self->pointer_x, self->pointer_y, self->brush_radius);
  /* Painting shows the weights it paints, live. */
  if (paint)
    tress_fur_preview_set_colour_mode (self, TRESS_FUR_COLOUR_WEIGHT, self->colour_part);
  else
    gtk_widget_set_sensitive (self->part_dropdown, self->colour_mode == TRESS_FUR_COLOUR_WEIGHT);
  update_info (self);
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
  update_info (self);
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
  TressFurScreen *screen = get_screen (self);
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
  TressFurScreen *screen = get_screen (self);
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

static gboolean
begin_direct (TressFurPreview *self)
{
  if (!self->gl_ready || !gtk_widget_get_realized (self->area)
      || gtk_widget_get_width (self->area) <= 0 || gtk_widget_get_height (self->area) <= 0)
    return FALSE;
  gtk_gl_area_make_current (GTK_GL_AREA (self->area));
  gtk_gl_area_attach_buffers (GTK_GL_AREA (self->area));
  return TRUE;
}

GBytes *
tress_fur_preview_grab (TressFurPreview *self, int *width, int *height)
{
  if (!begin_direct (self))
    return NULL;
  draw_scene (self);
  return tress_gl_area_read_pixels (GTK_GL_AREA (self->area), width, height);
}

double
tress_fur_preview_draw_now (TressFurPreview *self)
{
  gint64 start;

  if (!begin_direct (self))
    return -1;
  start = g_get_monotonic_time ();
  draw_scene (self);
  glFinish ();
  return (g_get_monotonic_time () - start) / 1e6;
}

double
tress_fur_preview_time_frames (TressFurPreview *self, guint n)
{
  gint64 start;
  guint i;

  if (!begin_direct (self) || n == 0)
    return -1;
  draw_scene (self); /* uploads, outside the timing */
  glFinish ();
  start = g_get_monotonic_time ();
  for (i = 0; i < n; i++)
    {
      self->cam.yaw += 360.0 / n;
      draw_scene (self);
      glFinish ();
    }
  return (g_get_monotonic_time () - start) / 1e6 / n;
}

guint
tress_fur_preview_get_n_uploads (TressFurPreview *self)
{
  return self->n_uploads;
}

guint
tress_fur_preview_get_n_base_draws (TressFurPreview *self)
{
  return self->n_base_draws;
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
