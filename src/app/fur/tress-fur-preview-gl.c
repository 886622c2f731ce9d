/* tress-fur-preview-gl.c: the GL ribbon preview's drawing: programs, uploads, the two layers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fur-preview-private.h"

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

/* Empties the list of recoloured ribbons. */
void
fur_preview_clear_recoloured (TressFurPreview *self)
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
void
fur_preview_add_recoloured (TressFurPreview *self, const guint *g, guint n)
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

guint8 *
fur_preview_problem_marks (TressFurPreview *self)
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
    marks = fur_preview_problem_marks (self);
  if (file != NULL && m->n_ribbons > 0)
    tress_fur_mesh_colours (m, file, self->colour_mode, self->colour_part, marks, per_ribbon);
  glBindBuffer (GL_TEXTURE_BUFFER, self->colour_buffer);
  glBufferData (GL_TEXTURE_BUFFER, (GLsizeiptr)(4 * (gsize)m->n_ribbons + 4), per_ribbon,
                GL_STATIC_DRAW);
  glBindTexture (GL_TEXTURE_BUFFER, self->colour_texture);
  glTexBuffer (GL_TEXTURE_BUFFER, GL_RGBA8, self->colour_buffer);
  self->n_uploads++;
  self->colours_dirty = FALSE;
  fur_preview_clear_recoloured (self);
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
    marks = fur_preview_problem_marks (self);
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
void
fur_preview_collect_selection (TressFurPreview *self)
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
          self->lod_timeout
              = g_idle_add_full (G_PRIORITY_DEFAULT, fur_preview_on_lod_idle, self, NULL);
        }
    }
  else if (self->recoloured->len > 0)
    draw_into_base (self, mvp, w, h, self->recoloured);
  fur_preview_clear_recoloured (self);
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

gboolean
fur_preview_on_render (GtkGLArea *area, GdkGLContext *context, TressFurPreview *self)
{
  draw_scene (self);
  fur_preview_emit_frame_drawn (self);
  return TRUE;
}

static void
show_gl_error (TressFurPreview *self, const char *message)
{
  g_free (self->gl_error);
  self->gl_error = tress_gl_fallback_show (self->stack, message);
}

void
fur_preview_on_realize (GtkGLArea *area, TressFurPreview *self)
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

void
fur_preview_on_unrealize (GtkGLArea *area, TressFurPreview *self)
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
