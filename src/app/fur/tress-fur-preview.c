/* tress-fur-preview.c: the GL ribbon preview
 *
 * Per vertex the GPU holds a position and a point id (ribbon × 2 + side); per
 * ribbon a colour and a selected flag (texture buffers looked up by ribbon),
 * per point the morph displacements. Ribbons are triangle strips joined by
 * primitive restart; the index lists are written straight into mapped GL
 * buffers, so no CPU copy of them exists.
 *
 * Level of detail: while the user orbits, pans or zooms a file of more than
 * lod_limit ribbons, only every k-th ribbon is drawn (a second, short index
 * list); LOD_IDLE_MS after the last movement the full mesh is drawn again.
 * Resizing counts as moving. The first frame of a newly opened file is drawn
 * the same way, and the full one right after it, so the picture appears before
 * the whole mesh is drawn.
 * Picking always uses the full mesh on the CPU, so it is exact either way.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fur-preview.h"

#include <glib/gi18n-lib.h>

#include <math.h>

#include "app/gl/tress-gl-area.h"

/* Ribbons drawn at most while the view moves, and the pause that ends a move. */
#define LOD_DEFAULT_LIMIT 3000
#define LOD_IDLE_MS 250

struct _TressFurPreview
{
  GtkWidget parent_instance;
  TressChaDocument *doc;

  GtkWidget *box;
  GtkWidget *stack; /* the picture, or why there is none */
  GtkWidget *area;
  GtkWidget *morality_dropdown;
  GtkWidget *colour_dropdown;
  GtkWidget *part_spin;
  GtkWidget *morph_box;
  char *gl_error;

  TressFurMesh *mesh;
  TressChaFile *mesh_file; /* the model the mesh was built from */
  guint morality;
  TressFurColourMode colour_mode;
  guint32 colour_part;
  float morph_weights[TRESS_FUR_MESH_MAX_MORPHS];

  TressGlCamera cam;

  /* GL objects */
  gboolean gl_ready;
  GLuint program, vao, vbo_pos, vbo_pid, ebo, ebo_lod;
  GLuint disp_buffer, disp_texture, colour_buffer, colour_texture, sel_buffer, sel_texture;
  GLint u_mvp, u_disp, u_colours, u_selected, u_n_morphs, u_n_points, u_morph, u_highlight;
  gboolean geometry_dirty, colours_dirty, selection_dirty;
  GArray *changed_ribbons; /* guint: global ribbons whose points changed, to upload */
  guint n_uploads;
  guint n_mesh_builds;
  gsize n_indices_uploaded, n_lod_indices;
  guint n_lod_ribbons;

  /* level of detail */
  guint lod_limit;
  gboolean interacting;
  gboolean first_frame_pending; /* a new file: its first frame is drawn reduced */
  gboolean full_frame_drawn;    /* of the current mesh */
  guint lod_timeout;
  guint n_ribbons_drawn; /* in the last frame */
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
      "uniform vec4 u_highlight;\n"
      "flat out vec4 v_colour;\n"
      "void main () {\n"
      "  vec3 p = a_pos;\n"
      "  for (int m = 0; m < u_n_morphs; m++) {\n"
      "    if (u_morph[m] != 0.0) {\n"
      "      int b = (m * u_n_points + int (a_pid)) * 3;\n"
      "      p += u_morph[m] * vec3 (texelFetch (u_disp, b).r, texelFetch (u_disp, b + 1).r,\n"
      "                              texelFetch (u_disp, b + 2).r);\n"
      "    }\n"
      "  }\n"
      "  gl_Position = u_mvp * vec4 (p, 1.0);\n"
      "  int ribbon = int (a_pid / 2u);\n"
      "  v_colour = texelFetch (u_selected, ribbon).r > 0.5 ? u_highlight\n"
      "                                                    : texelFetch (u_colours, ribbon);\n"
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

/* ---- GL ------------------------------------------------------------------- */

static gboolean
create_program (TressFurPreview *self, GError **error)
{
  self->program = tress_gl_program_new (vertex_source, fragment_source, error);
  if (self->program == 0)
    return FALSE;
  self->u_mvp = glGetUniformLocation (self->program, "u_mvp");
  self->u_disp = glGetUniformLocation (self->program, "u_disp");
  self->u_colours = glGetUniformLocation (self->program, "u_colours");
  self->u_selected = glGetUniformLocation (self->program, "u_selected");
  self->u_n_morphs = glGetUniformLocation (self->program, "u_n_morphs");
  self->u_n_points = glGetUniformLocation (self->program, "u_n_points");
  self->u_morph = glGetUniformLocation (self->program, "u_morph");
  self->u_highlight = glGetUniformLocation (self->program, "u_highlight");
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

static void
upload_colours (TressFurPreview *self)
{
  const TressFurMesh *m = self->mesh;
  TressChaFile *file = get_file (self);
  g_autofree guint8 *per_ribbon = g_new0 (guint8, 4 * (gsize)m->n_ribbons + 4);
  g_autofree guint8 *marks = NULL;

  if (self->colour_mode == TRESS_FUR_COLOUR_PROBLEMS)
    {
      marks = g_new0 (guint8, m->n_ribbons + 1);
      tress_fur_mesh_mark_problems (m, tress_document_get_problems (TRESS_DOCUMENT (self->doc)),
                                    marks);
    }
  if (file != NULL && m->n_ribbons > 0)
    tress_fur_mesh_colours (m, file, self->colour_mode, self->colour_part, marks, per_ribbon);
  glBindBuffer (GL_TEXTURE_BUFFER, self->colour_buffer);
  glBufferData (GL_TEXTURE_BUFFER, (GLsizeiptr)(4 * (gsize)m->n_ribbons + 4), per_ribbon,
                GL_STATIC_DRAW);
  glBindTexture (GL_TEXTURE_BUFFER, self->colour_texture);
  glTexBuffer (GL_TEXTURE_BUFFER, GL_RGBA8, self->colour_buffer);
  self->n_uploads++;
  self->colours_dirty = FALSE;
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
}

static gboolean on_lod_idle (gpointer data);

static void
draw_scene (TressFurPreview *self)
{
  float mvp_f[16];
  int scale = gtk_widget_get_scale_factor (self->area);

  glViewport (0, 0, gtk_widget_get_width (self->area) * scale,
              gtk_widget_get_height (self->area) * scale);
  glClearColor (TRESS_FUR_BACKGROUND_R / 255.f, TRESS_FUR_BACKGROUND_G / 255.f,
                TRESS_FUR_BACKGROUND_B / 255.f, 1.f);
  glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  if (self->mesh == NULL || self->program == 0)
    return;
  if (self->geometry_dirty)
    {
      upload_geometry (self);
      g_array_set_size (self->changed_ribbons, 0);
    }
  else if (self->changed_ribbons->len > 0)
    upload_changed_ribbons (self);
  if (self->colours_dirty)
    upload_colours (self);
  if (self->selection_dirty)
    upload_selection (self);

  compute_mvp (self, mvp_f);
  glEnable (GL_DEPTH_TEST);
  glDepthFunc (GL_LEQUAL);
  glDisable (GL_CULL_FACE);
  glDisable (GL_BLEND);
  glUseProgram (self->program);
  glUniformMatrix4fv (self->u_mvp, 1, GL_FALSE, mvp_f);
  glUniform1i (self->u_n_morphs, (GLint)self->mesh->n_morphs);
  glUniform1i (self->u_n_points, (GLint)(2 * self->mesh->n_ribbons));
  glUniform1fv (self->u_morph, TRESS_FUR_MESH_MAX_MORPHS, self->morph_weights);
  glUniform4f (self->u_highlight, TRESS_FUR_HIGHLIGHT_R / 255.f, TRESS_FUR_HIGHLIGHT_G / 255.f,
               TRESS_FUR_HIGHLIGHT_B / 255.f, 1.f);
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
  glEnable (GL_PRIMITIVE_RESTART);
  glPrimitiveRestartIndex (TRESS_FUR_MESH_RESTART);
  glBindVertexArray (self->vao);
  if ((self->interacting || self->first_frame_pending) && self->n_lod_indices > 0)
    {
      glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, self->ebo_lod);
      glDrawElements (GL_TRIANGLE_STRIP, (GLsizei)self->n_lod_indices, GL_UNSIGNED_INT, NULL);
      self->n_ribbons_drawn = self->n_lod_ribbons;
      if (self->first_frame_pending && !self->interacting)
        {
          /* The full picture follows as soon as this one is shown. */
          g_clear_handle_id (&self->lod_timeout, g_source_remove);
          self->lod_timeout = g_idle_add_full (G_PRIORITY_DEFAULT, on_lod_idle, self, NULL);
        }
    }
  else
    {
      glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, self->ebo);
      if (self->n_indices_uploaded > 0)
        glDrawElements (GL_TRIANGLE_STRIP, (GLsizei)self->n_indices_uploaded, GL_UNSIGNED_INT,
                        NULL);
      self->n_ribbons_drawn = self->mesh->n_ribbons;
      self->full_frame_drawn = TRUE;
    }
  self->first_frame_pending = FALSE;
  glBindVertexArray (0);
  glDisable (GL_PRIMITIVE_RESTART);
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

      glDeleteBuffers (7, buffers);
      glDeleteTextures (3, textures);
      glDeleteVertexArrays (1, &self->vao);
      glDeleteProgram (self->program);
    }
  self->program = 0;
  self->gl_ready = FALSE;
}

/* ---- model ---------------------------------------------------------------- */

static void
rebuild_mesh (TressFurPreview *self)
{
  TressChaFile *file = get_file (self);

  g_clear_pointer (&self->mesh, tress_fur_mesh_free);
  self->mesh = tress_fur_mesh_new (file, self->morality);
  self->n_mesh_builds++;
  if (file != self->mesh_file)
    {
      self->first_frame_pending = TRUE;
      self->full_frame_drawn = FALSE;
    }
  self->mesh_file = file;
  self->geometry_dirty = self->colours_dirty = self->selection_dirty = TRUE;
  gtk_gl_area_queue_render (GTK_GL_AREA (self->area));
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
  return TRUE;
}

static void
on_fur_changed (TressChaDocument *doc, const TressChaChange *change, gboolean undo,
                TressFurPreview *self)
{
  if ((change->flags
       & (TRESS_CHA_CHANGE_LINES | TRESS_CHA_CHANGE_RIBBONS | TRESS_CHA_CHANGE_STRUCTURE))
      && !update_ribbons (self, change))
    rebuild_mesh (self);
  else
    {
      self->colours_dirty = TRUE;
      gtk_gl_area_queue_render (GTK_GL_AREA (self->area));
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
}

static void
on_selection_changed (TressChaDocument *doc, gpointer origin, TressFurPreview *self)
{
  self->selection_dirty = TRUE;
  gtk_gl_area_queue_render (GTK_GL_AREA (self->area));
}

/* ---- controls and gestures ------------------------------------------------ */

static gboolean
on_lod_idle (gpointer data)
{
  TressFurPreview *self = data;

  self->lod_timeout = 0;
  self->interacting = FALSE;
  gtk_gl_area_queue_render (GTK_GL_AREA (self->area));
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

  if (sel == GTK_INVALID_LIST_POSITION)
    return;
  gtk_widget_set_sensitive (self->part_spin, sel == TRESS_FUR_COLOUR_WEIGHT);
  tress_fur_preview_set_colour_mode (
      self, (TressFurColourMode)sel,
      (guint32)gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->part_spin)));
}

static void
on_camera_moved (gpointer data, TressGlCameraEvent event)
{
  TressFurPreview *self = data;

  /* A press without movement is a click: nothing was drawn reduced. */
  if (event == TRESS_GL_CAMERA_MOVED || self->interacting)
    view_moving (self);
  gtk_gl_area_queue_render (GTK_GL_AREA (self->area));
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

  tress_fur_preview_pick (self, x, y, (mods & GDK_CONTROL_MASK) != 0);
}

static void
on_frame_clicked (GtkButton *button, TressFurPreview *self)
{
  tress_fur_preview_frame_selection (self);
}

/* ---- GObject -------------------------------------------------------------- */

static void
tress_fur_preview_dispose (GObject *object)
{
  TressFurPreview *self = TRESS_FUR_PREVIEW (object);

  if (self->doc != NULL)
    g_signal_handlers_disconnect_by_data (self->doc, self);
  g_clear_object (&self->doc);
  g_clear_handle_id (&self->lod_timeout, g_source_remove);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (tress_fur_preview_parent_class)->dispose (object);
}

static void
tress_fur_preview_finalize (GObject *object)
{
  TressFurPreview *self = TRESS_FUR_PREVIEW (object);

  g_clear_pointer (&self->mesh, tress_fur_mesh_free);
  g_array_unref (self->changed_ribbons);
  g_free (self->gl_error);
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

static void
tress_fur_preview_init (TressFurPreview *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *frame = gtk_button_new_from_icon_name ("zoom-fit-best-symbolic");
  const char *modes[]
      = { _ ("Body part"), _ ("Weight of part"), _ ("Quality"), _ ("Problems"), NULL };
  GtkGesture *click = gtk_gesture_click_new ();

  self->lod_limit = LOD_DEFAULT_LIMIT;
  self->changed_ribbons = g_array_new (FALSE, FALSE, sizeof (guint));
  tress_gl_camera_init (&self->cam, 3, 35, 20);
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->morality_dropdown = gtk_drop_down_new (NULL, NULL);
  gtk_widget_set_tooltip_text (self->morality_dropdown, _ ("Length from"));
  self->colour_dropdown = gtk_drop_down_new_from_strings (modes);
  gtk_widget_set_tooltip_text (self->colour_dropdown, _ ("Colour by"));
  self->part_spin = gtk_spin_button_new_with_range (0, 65535, 1);
  gtk_widget_set_tooltip_text (self->part_spin, _ ("Body part for weight colouring"));
  gtk_widget_set_sensitive (self->part_spin, FALSE);
  gtk_widget_set_tooltip_text (frame, _ ("Frame the whole creature"));
  gtk_box_append (GTK_BOX (bar), self->morality_dropdown);
  gtk_box_append (GTK_BOX (bar), self->colour_dropdown);
  gtk_box_append (GTK_BOX (bar), self->part_spin);
  gtk_box_append (GTK_BOX (bar), frame);
  gtk_box_append (GTK_BOX (self->box), bar);
  g_signal_connect (self->morality_dropdown, "notify::selected", G_CALLBACK (on_morality_selected),
                    self);
  g_signal_connect (self->colour_dropdown, "notify::selected", G_CALLBACK (on_colour_selected),
                    self);
  g_signal_connect (self->part_spin, "notify::value", G_CALLBACK (on_colour_selected), self);
  g_signal_connect (frame, "clicked", G_CALLBACK (on_frame_clicked), self);

  self->area = tress_gl_area_new ();
  g_signal_connect (self->area, "realize", G_CALLBACK (on_realize), self);
  g_signal_connect (self->area, "unrealize", G_CALLBACK (on_unrealize), self);
  g_signal_connect (self->area, "render", G_CALLBACK (on_render), self);
  g_signal_connect (self->area, "resize", G_CALLBACK (on_resize), self);
  self->stack = tress_gl_fallback_new (self->area);
  gtk_widget_set_vexpand (self->stack, TRUE);
  gtk_box_append (GTK_BOX (self->box), self->stack);

  self->morph_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  gtk_box_append (GTK_BOX (self->box), self->morph_box);

  tress_gl_camera_attach (&self->cam, self->area, on_camera_moved, self);
  g_signal_connect (click, "released", G_CALLBACK (on_click), self);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (click));
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
  tress_fur_preview_frame_selection (self);
  return GTK_WIDGET (self);
}

/* ---- public --------------------------------------------------------------- */

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
  gtk_gl_area_queue_render (GTK_GL_AREA (self->area));
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
  self->colour_mode = mode;
  self->colour_part = part;
  if (gtk_drop_down_get_selected (GTK_DROP_DOWN (self->colour_dropdown)) != (guint)mode)
    gtk_drop_down_set_selected (GTK_DROP_DOWN (self->colour_dropdown), (guint)mode);
  self->colours_dirty = TRUE;
  gtk_gl_area_queue_render (GTK_GL_AREA (self->area));
}

void
tress_fur_preview_frame_selection (TressFurPreview *self)
{
  const TressChaRibbonId *ids;
  g_autofree guint *globals = NULL;
  guint n, i, k = 0;
  float lo[3], hi[3];

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
  if (!tress_fur_mesh_bounds (self->mesh, globals, k, self->morph_weights, lo, hi))
    return;
  tress_gl_camera_frame (&self->cam, lo, hi);
  gtk_gl_area_queue_render (GTK_GL_AREA (self->area));
}

void
tress_fur_preview_orbit (TressFurPreview *self, double yaw, double pitch)
{
  tress_gl_camera_orbit (&self->cam, yaw, pitch);
  gtk_gl_area_queue_render (GTK_GL_AREA (self->area));
}

void
tress_fur_preview_zoom (TressFurPreview *self, double factor)
{
  tress_gl_camera_zoom (&self->cam, factor);
  gtk_gl_area_queue_render (GTK_GL_AREA (self->area));
}

int
tress_fur_preview_pick (TressFurPreview *self, double x, double y, gboolean extend)
{
  float f[16];
  int g;
  guint material, ribbon;

  if (self->mesh == NULL)
    return -1;
  compute_mvp (self, f);
  g = tress_fur_mesh_pick (self->mesh, f, self->morph_weights, gtk_widget_get_width (self->area),
                           gtk_widget_get_height (self->area), x, y);
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
      guint n;
      g_autofree TressChaRibbonId *next = NULL;

      ids = tress_cha_document_get_selection (self->doc, &n);
      next = g_new (TressChaRibbonId, n + 1);
      if (n > 0)
        memcpy (next, ids, n * sizeof *ids);
      next[n] = (TressChaRibbonId){ material, ribbon };
      tress_cha_document_set_selection (self->doc, next, n + 1, self);
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
  float mvp[16], a[3], b[3], c[3], d[3], mid[3];
  double out[3];
  guint v, k;

  if (self->mesh == NULL || global >= self->mesh->n_ribbons)
    return FALSE;
  v = self->mesh->ribbon_vertex[global];
  if (self->mesh->ribbon_vertex[global + 1] < v + 4)
    return FALSE;
  tress_fur_mesh_vertex (self->mesh, v, self->morph_weights, a);
  tress_fur_mesh_vertex (self->mesh, v + 1, self->morph_weights, b);
  tress_fur_mesh_vertex (self->mesh, v + 2, self->morph_weights, c);
  tress_fur_mesh_vertex (self->mesh, v + 3, self->morph_weights, d);
  for (k = 0; k < 3; k++)
    mid[k] = (a[k] + b[k] + c[k] + d[k]) / 4;
  compute_mvp (self, mvp);
  if (!tress_gl_project (mvp, mid, gtk_widget_get_width (self->area),
                         gtk_widget_get_height (self->area), out))
    return FALSE;
  *x = out[0];
  *y = out[1];
  return TRUE;
}

GBytes *
tress_fur_preview_grab (TressFurPreview *self, int *width, int *height)
{
  if (!self->gl_ready || !gtk_widget_get_realized (self->area)
      || gtk_widget_get_width (self->area) <= 0 || gtk_widget_get_height (self->area) <= 0)
    return NULL;
  gtk_gl_area_make_current (GTK_GL_AREA (self->area));
  gtk_gl_area_attach_buffers (GTK_GL_AREA (self->area));
  draw_scene (self);
  return tress_gl_area_read_pixels (GTK_GL_AREA (self->area), width, height);
}

double
tress_fur_preview_time_frames (TressFurPreview *self, guint n)
{
  gint64 start;
  guint i;

  if (!self->gl_ready || !gtk_widget_get_realized (self->area) || n == 0)
    return -1;
  gtk_gl_area_make_current (GTK_GL_AREA (self->area));
  gtk_gl_area_attach_buffers (GTK_GL_AREA (self->area));
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
  gtk_gl_area_queue_render (GTK_GL_AREA (self->area));
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
  gtk_gl_area_queue_render (GTK_GL_AREA (self->area));
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
