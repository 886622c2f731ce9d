/* tress-fur-body-view.c: the fitted body drawn under the fur (GL)
 *
 * One unit sphere (latitude × longitude, indexed triangles) drawn once per
 * body part: the vertex shader maps it onto the part's ellipsoid (centre +
 * axes × radii) and carries the ellipsoid's normal (axes ÷ radii); the
 * fragment shader lights it from the eye, so the side facing the viewer is
 * brightest whichever way the view turns.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-fur-body-view.h"

#include <glib/gi18n-lib.h>

#include "app/gl/tress-gl-area.h"
#include "tress-fur-body.h"
#include "tress-fur-mesh.h"
#include "tress-fur-panes.h"
#include "tress-fur-preview.h"

#define SLICES 32
#define STACKS 16

struct _TressFurBodyView
{
  const TressChaFile *file;
  TressFurBody *body; /* NULL when stale */
  gboolean visible;
  guint n_drawn;

  gboolean ready;
  GLuint program, vao, vbo, ebo;
  GLsizei n_indices;
  GLint u_mvp, u_centre, u_axes, u_normal, u_eye, u_colour, u_background, u_dim;
};

static const char *vertex_source = "#version 330 core\n"
                                   "layout(location = 0) in vec3 a_pos;\n"
                                   "uniform mat4 u_mvp;\n"
                                   "uniform vec3 u_centre;\n"
                                   "uniform mat3 u_axes;\n"   /* columns: axis × radius */
                                   "uniform mat3 u_normal;\n" /* columns: axis ÷ radius */
                                   "out vec3 v_world;\n"
                                   "out vec3 v_normal;\n"
                                   "void main () {\n"
                                   "  v_world = u_centre + u_axes * a_pos;\n"
                                   "  v_normal = u_normal * a_pos;\n"
                                   "  gl_Position = u_mvp * vec4 (v_world, 1.0);\n"
                                   "}\n";

static const char *fragment_source
    = "#version 330 core\n"
      "in vec3 v_world;\n"
      "in vec3 v_normal;\n"
      "uniform vec3 u_eye;\n"
      "uniform vec3 u_colour;\n"
      "uniform vec3 u_background;\n"
      "uniform float u_dim;\n"
      "out vec4 out_colour;\n"
      "void main () {\n"
      "  vec3 n = normalize (v_normal);\n"
      "  vec3 to_eye = normalize (u_eye - v_world);\n"
      "  float light = 0.25 + 0.6 * max (dot (n, to_eye), 0.0) + 0.15 * max (n.y, 0.0);\n"
      "  vec3 c = mix (u_colour * light, u_background, u_dim);\n"
      "  out_colour = vec4 (c, 1.0);\n"
      "}\n";

TressFurBodyView *
tress_fur_body_view_new (void)
{
  TressFurBodyView *view = g_new0 (TressFurBodyView, 1);

  view->visible = TRUE;
  return view;
}

void
tress_fur_body_view_free (TressFurBodyView *view)
{
  if (view == NULL)
    return;
  g_clear_pointer (&view->body, tress_fur_body_free);
  g_free (view);
}

void
tress_fur_body_view_set_file (TressFurBodyView *view, const TressChaFile *file)
{
  view->file = file;
  tress_fur_body_view_invalidate (view);
}

void
tress_fur_body_view_invalidate (TressFurBodyView *view)
{
  g_clear_pointer (&view->body, tress_fur_body_free);
}

gboolean
tress_fur_body_view_realize (TressFurBodyView *view, GError **error)
{
  g_autofree float *vertices = g_new (float, 3 * (SLICES + 1) * (STACKS + 1));
  g_autofree guint16 *indices = g_new (guint16, 6 * SLICES * STACKS);
  guint nv = 0, ni = 0;

  view->program = tress_gl_program_new (vertex_source, fragment_source, error);
  if (view->program == 0)
    return FALSE;
#define UNIFORM(name) view->name = glGetUniformLocation (view->program, #name)
  UNIFORM (u_mvp);
  UNIFORM (u_centre);
  UNIFORM (u_axes);
  UNIFORM (u_normal);
  UNIFORM (u_eye);
  UNIFORM (u_colour);
  UNIFORM (u_background);
  UNIFORM (u_dim);
#undef UNIFORM

  for (guint i = 0; i <= STACKS; i++)
    {
      double lat = G_PI * ((double)i / STACKS - 0.5);

      for (guint j = 0; j <= SLICES; j++)
        {
          double lon = 2 * G_PI * (double)j / SLICES;

          vertices[nv++] = (float)(cos (lat) * cos (lon));
          vertices[nv++] = (float)sin (lat);
          vertices[nv++] = (float)(cos (lat) * sin (lon));
        }
    }
  for (guint i = 0; i < STACKS; i++)
    for (guint j = 0; j < SLICES; j++)
      {
        guint16 a = (guint16)(i * (SLICES + 1) + j), b = (guint16)(a + SLICES + 1);

        indices[ni++] = a, indices[ni++] = b, indices[ni++] = (guint16)(a + 1);
        indices[ni++] = (guint16)(a + 1), indices[ni++] = b, indices[ni++] = (guint16)(b + 1);
      }
  view->n_indices = (GLsizei)ni;
  glGenVertexArrays (1, &view->vao);
  glGenBuffers (1, &view->vbo);
  glGenBuffers (1, &view->ebo);
  glBindVertexArray (view->vao);
  glBindBuffer (GL_ARRAY_BUFFER, view->vbo);
  glBufferData (GL_ARRAY_BUFFER, (GLsizeiptr)(nv * sizeof (float)), vertices, GL_STATIC_DRAW);
  glEnableVertexAttribArray (0);
  glVertexAttribPointer (0, 3, GL_FLOAT, GL_FALSE, 3 * sizeof (float), NULL);
  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, view->ebo);
  glBufferData (GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(ni * sizeof (guint16)), indices,
                GL_STATIC_DRAW);
  glBindVertexArray (0);
  view->ready = TRUE;
  return TRUE;
}

void
tress_fur_body_view_unrealize (TressFurBodyView *view)
{
  if (view->ready)
    {
      GLuint buffers[2] = { view->vbo, view->ebo };

      glDeleteBuffers (2, buffers);
      glDeleteVertexArrays (1, &view->vao);
      glDeleteProgram (view->program);
    }
  view->program = view->vao = view->vbo = view->ebo = 0;
  view->ready = FALSE;
}

void
tress_fur_body_view_draw (TressFurBodyView *view, const float mvp[16], const float eye[3],
                          const float *weights, guint n_weights, float dim)
{
  view->n_drawn = 0;
  if (!view->ready || !view->visible || view->file == NULL)
    return;
  if (view->body == NULL)
    view->body = tress_fur_body_new (view->file);
  tress_fur_body_fit (view->body, weights, n_weights);

  glUseProgram (view->program);
  glUniformMatrix4fv (view->u_mvp, 1, GL_FALSE, mvp);
  glUniform3fv (view->u_eye, 1, eye);
  glUniform3f (view->u_background, TRESS_FUR_BACKGROUND_R / 255.f, TRESS_FUR_BACKGROUND_G / 255.f,
               TRESS_FUR_BACKGROUND_B / 255.f);
  glUniform1f (view->u_dim, dim);
  glBindVertexArray (view->vao);
  for (guint i = 0; i < tress_fur_body_get_n_parts (view->body); i++)
    {
      const TressFurBodyPart *part = tress_fur_body_get_part (view->body, i);
      float axes[9], normal[9];
      guint8 rgb[3];

      if (!(part->radius[0] > 0 && part->radius[2] > 0))
        continue; /* a single root: nothing to draw */
      for (guint a = 0; a < 3; a++)
        for (guint k = 0; k < 3; k++)
          {
            axes[3 * a + k] = part->axis[a][k] * part->radius[a];
            normal[3 * a + k] = part->axis[a][k] / part->radius[a];
          }
      tress_fur_body_part_colour (part->part, rgb);
      glUniform3fv (view->u_centre, 1, part->centre);
      glUniformMatrix3fv (view->u_axes, 1, GL_FALSE, axes);
      glUniformMatrix3fv (view->u_normal, 1, GL_FALSE, normal);
      glUniform3f (view->u_colour, rgb[0] / 255.f, rgb[1] / 255.f, rgb[2] / 255.f);
      glDrawElements (GL_TRIANGLES, view->n_indices, GL_UNSIGNED_SHORT, NULL);
      view->n_drawn++;
    }
  glBindVertexArray (0);
  glUseProgram (0);
}

guint
tress_fur_body_view_get_n_drawn (const TressFurBodyView *view)
{
  return view->n_drawn;
}

void
tress_fur_body_view_set_visible (TressFurBodyView *view, gboolean visible)
{
  view->visible = visible;
}

gboolean
tress_fur_body_view_get_visible (const TressFurBodyView *view)
{
  return view->visible;
}

GtkWidget *
tress_fur_body_view_toggle_new (void)
{
  GtkWidget *button = gtk_toggle_button_new_with_label (_ ("Body"));
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema
      = source != NULL ? g_settings_schema_source_lookup (source, TRESS_FUR_EDITOR_SCHEMA, TRUE)
                       : NULL;

  gtk_widget_set_name (button, "show body");
  gtk_widget_set_tooltip_text (button, _ ("Show a body under the fur: one ellipsoid per body part, "
                                          "fitted to its ribbons (not the creature's real mesh)"));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), TRUE);
  if (schema != NULL && g_settings_schema_has_key (schema, "show-body"))
    {
      g_autoptr (GSettings) settings = g_settings_new_full (schema, NULL, NULL);

      /* (the binding holds the settings for as long as the button lives) */
      g_settings_bind (settings, "show-body", button, "active", G_SETTINGS_BIND_DEFAULT);
    }
  return button;
}
