/* tress-scene-renderer.c: draws a TressScene with GL 3.3
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-scene-renderer.h"

#include <string.h>

#include "app/gl/tress-gl-area.h"
#include "tress-scene-sticks.h"

/* Texels per joint in the joint texture buffer: three matrix rows, then the
 * highlight amount. */
#define JOINT_TEXELS 4

typedef struct
{
  float pos[3];
  float normal[3];
  guint8 colour[4];
  guint16 joints[4];
  float weights[4];
} Vertex;

typedef struct
{
  GLuint program;
  GLint u_mvp, u_joints, u_rigid_joint, u_highlight, u_eye;
} MeshProgram;

typedef struct
{
  gsize first_index; /* into the index buffer */
  guint n_indices;
  int rigid_joint; /* the renderer's joint for a rigid mesh, else −1 */
  gboolean flat;
} MeshRange;

struct _TressSceneRenderer
{
  MeshProgram smooth, flat; /* meshes with normals, and shaded from their triangles */
  GLuint stick_program;
  GLuint vao, vbo, ebo, joint_buffer, joint_texture;
  GLuint stick_vao, stick_vbo;

  const TressScene *scene; /* the geometry uploaded */
  guint geometry_serial;
  GArray *ranges;      /* MeshRange per scene mesh */
  GArray *rigid_nodes; /* int: the node of each extra joint */
  GArray *joint_rows;  /* float: JOINT_TEXELS × 4 per joint, rebuilt each frame */
  GArray *sticks;      /* TressStickVertex */
  guint n_uploads;
};

/* Skinning works on the rows of each joint's 3×4 matrix (dot products, no
 * matrix built per vertex): what llvmpipe spends a frame on is this shader. */
static const char *mesh_vertex_source
    = "#version 330 core\n"
      "layout(location = 0) in vec3 a_pos;\n"
      "layout(location = 1) in vec3 a_normal;\n"
      "layout(location = 2) in vec4 a_colour;\n"
      "layout(location = 3) in uvec4 a_joints;\n"
      "layout(location = 4) in vec4 a_weights;\n"
      "uniform mat4 u_mvp;\n"
      "uniform samplerBuffer u_joints;\n"
      "uniform int u_rigid_joint;\n"
      "uniform vec4 u_highlight;\n"
      "out vec3 v_world;\n"
      "out vec3 v_normal;\n"
      "out vec4 v_colour;\n"
      "void add_joint (int j, float w, vec4 p, vec3 n, inout vec3 pos, inout vec3 nrm,\n"
      "                inout float hi) {\n"
      "  vec4 r0 = texelFetch (u_joints, 4 * j);\n"
      "  vec4 r1 = texelFetch (u_joints, 4 * j + 1);\n"
      "  vec4 r2 = texelFetch (u_joints, 4 * j + 2);\n"
      "  pos += w * vec3 (dot (r0, p), dot (r1, p), dot (r2, p));\n"
      "  nrm += w * vec3 (dot (r0.xyz, n), dot (r1.xyz, n), dot (r2.xyz, n));\n"
      "  hi += w * texelFetch (u_joints, 4 * j + 3).x;\n"
      "}\n"
      "void main () {\n"
      "  vec4 p = vec4 (a_pos, 1.0);\n"
      "  vec3 pos = vec3 (0.0), nrm = vec3 (0.0);\n"
      "  float hi = 0.0, total = 0.0;\n"
      "  if (u_rigid_joint >= 0) {\n"
      "    add_joint (u_rigid_joint, 1.0, p, a_normal, pos, nrm, hi);\n"
      "    total = 1.0;\n"
      "  } else {\n"
      "    for (int k = 0; k < 4; k++) {\n"
      "      float w = a_weights[k];\n"
      "      if (w > 0.0) {\n"
      "        add_joint (int (a_joints[k]), w, p, a_normal, pos, nrm, hi);\n"
      "        total += w;\n"
      "      }\n"
      "    }\n"
      "  }\n"
      "  if (total > 0.0) {\n"
      "    pos /= total;\n"
      "    hi /= total;\n"
      "  } else {\n"
      "    pos = a_pos;\n"
      "    nrm = a_normal;\n"
      "  }\n"
      "  v_world = pos;\n"
      "  v_normal = nrm;\n"
      "  v_colour = mix (a_colour, u_highlight, 0.55 * clamp (hi, 0.0, 1.0));\n"
      "  gl_Position = u_mvp * vec4 (pos, 1.0);\n"
      "}\n";

/* Compiled twice: with FLAT the normal comes from the triangle (derivatives),
 * a cost the meshes with normals do not pay. */
static const char *mesh_fragment_source
    = "in vec3 v_world;\n"
      "in vec3 v_normal;\n"
      "in vec4 v_colour;\n"
      "uniform vec3 u_eye;\n"
      "out vec4 out_colour;\n"
      "void main () {\n"
      "#ifdef FLAT\n"
      "  vec3 n = cross (dFdx (v_world), dFdy (v_world));\n"
      "#else\n"
      "  vec3 n = v_normal;\n"
      "#endif\n"
      "  float len = length (n);\n"
      "  vec3 view = normalize (u_eye - v_world);\n"
      "  n = len > 1e-20 ? n / len : view;\n"
      "  if (dot (n, view) < 0.0)\n"
      "    n = -n;\n"
      "  float light = 0.28 + 0.6 * max (dot (n, view), 0.0)\n"
      "                + 0.22 * max (dot (n, vec3 (0.0, 1.0, 0.0)), 0.0);\n"
      "  out_colour = vec4 (min (v_colour.rgb * light, vec3 (1.0)), 1.0);\n"
      "}\n";

static const char *stick_vertex_source = "#version 330 core\n"
                                         "layout(location = 0) in vec4 a_clip;\n"
                                         "layout(location = 1) in vec4 a_colour;\n"
                                         "out vec4 v_colour;\n"
                                         "void main () {\n"
                                         "  v_colour = a_colour;\n"
                                         "  gl_Position = a_clip;\n"
                                         "}\n";

static const char *stick_fragment_source = "#version 330 core\n"
                                           "in vec4 v_colour;\n"
                                           "out vec4 out_colour;\n"
                                           "void main () {\n"
                                           "  out_colour = v_colour;\n"
                                           "}\n";

static gboolean
mesh_program_init (MeshProgram *p, gboolean flat, GError **error)
{
  g_autofree char *fragment = g_strconcat ("#version 330 core\n", flat ? "#define FLAT 1\n" : "",
                                           mesh_fragment_source, NULL);

  p->program = tress_gl_program_new (mesh_vertex_source, fragment, error);
  if (p->program == 0)
    return FALSE;
  p->u_mvp = glGetUniformLocation (p->program, "u_mvp");
  p->u_joints = glGetUniformLocation (p->program, "u_joints");
  p->u_rigid_joint = glGetUniformLocation (p->program, "u_rigid_joint");
  p->u_highlight = glGetUniformLocation (p->program, "u_highlight");
  p->u_eye = glGetUniformLocation (p->program, "u_eye");
  return TRUE;
}

TressSceneRenderer *
tress_scene_renderer_new (GError **error)
{
  TressSceneRenderer *r = g_new0 (TressSceneRenderer, 1);

  if (!mesh_program_init (&r->smooth, FALSE, error) || !mesh_program_init (&r->flat, TRUE, error)
      || (r->stick_program
          = tress_gl_program_new (stick_vertex_source, stick_fragment_source, error))
             == 0)
    {
      if (r->smooth.program != 0)
        glDeleteProgram (r->smooth.program);
      if (r->flat.program != 0)
        glDeleteProgram (r->flat.program);
      g_free (r);
      return NULL;
    }
  glGenVertexArrays (1, &r->vao);
  glGenVertexArrays (1, &r->stick_vao);
  glGenBuffers (1, &r->vbo);
  glGenBuffers (1, &r->ebo);
  glGenBuffers (1, &r->joint_buffer);
  glGenBuffers (1, &r->stick_vbo);
  glGenTextures (1, &r->joint_texture);
  r->ranges = g_array_new (FALSE, FALSE, sizeof (MeshRange));
  r->rigid_nodes = g_array_new (FALSE, FALSE, sizeof (int));
  r->joint_rows = g_array_new (FALSE, FALSE, sizeof (float));
  r->sticks = g_array_new (FALSE, FALSE, sizeof (TressStickVertex));

  glBindVertexArray (r->stick_vao);
  glBindBuffer (GL_ARRAY_BUFFER, r->stick_vbo);
  glVertexAttribPointer (0, 4, GL_FLOAT, GL_FALSE, sizeof (TressStickVertex),
                         (void *)G_STRUCT_OFFSET (TressStickVertex, clip));
  glEnableVertexAttribArray (0);
  glVertexAttribPointer (1, 4, GL_FLOAT, GL_FALSE, sizeof (TressStickVertex),
                         (void *)G_STRUCT_OFFSET (TressStickVertex, colour));
  glEnableVertexAttribArray (1);
  glBindVertexArray (0);
  return r;
}

void
tress_scene_renderer_free (TressSceneRenderer *r)
{
  GLuint buffers[4];

  if (r == NULL)
    return;
  buffers[0] = r->vbo, buffers[1] = r->ebo, buffers[2] = r->joint_buffer, buffers[3] = r->stick_vbo;
  glDeleteBuffers (4, buffers);
  glDeleteTextures (1, &r->joint_texture);
  glDeleteVertexArrays (1, &r->vao);
  glDeleteVertexArrays (1, &r->stick_vao);
  glDeleteProgram (r->smooth.program);
  glDeleteProgram (r->flat.program);
  glDeleteProgram (r->stick_program);
  g_array_unref (r->ranges);
  g_array_unref (r->rigid_nodes);
  g_array_unref (r->joint_rows);
  g_array_unref (r->sticks);
  g_free (r);
}

static void
upload_geometry (TressSceneRenderer *r, const TressScene *scene)
{
  gsize n_vertices = 0, n_indices = 0, v = 0, ix = 0;
  Vertex *vertices;
  guint32 *indices;

  g_array_set_size (r->ranges, 0);
  g_array_set_size (r->rigid_nodes, 0);
  for (guint i = 0; i < scene->meshes->len; i++)
    {
      const TressSceneMesh *m = tress_scene_get_mesh (scene, i);

      n_vertices += m->n_vertices;
      n_indices += 3 * (gsize)m->n_triangles;
    }
  vertices = g_new0 (Vertex, MAX (n_vertices, 1));
  indices = g_new0 (guint32, MAX (n_indices, 1));
  for (guint i = 0; i < scene->meshes->len; i++)
    {
      const TressSceneMesh *m = tress_scene_get_mesh (scene, i);
      MeshRange range = { ix, 3 * m->n_triangles, -1, m->normals == NULL };
      guint8 colour[4];

      for (guint k = 0; k < 4; k++)
        colour[k] = (guint8)CLAMP (m->colour[k] * 255 + 0.5f, 0, 255);
      if (m->joints == NULL)
        {
          range.rigid_joint = (int)(scene->joints->len + r->rigid_nodes->len);
          g_array_append_val (r->rigid_nodes, m->node);
        }
      for (guint k = 0; k < m->n_vertices; k++)
        {
          Vertex *out = &vertices[v + k];

          memcpy (out->pos, m->positions + 3 * (gsize)k, sizeof out->pos);
          if (m->normals != NULL)
            memcpy (out->normal, m->normals + 3 * (gsize)k, sizeof out->normal);
          memcpy (out->colour, m->colours != NULL ? m->colours + 4 * (gsize)k : colour, 4);
          if (m->joints != NULL)
            for (guint j = 0; j < 4; j++)
              {
                guint16 joint = m->joints[4 * (gsize)k + j];
                float w = m->weights[4 * (gsize)k + j];

                /* A joint outside the table weighs nothing. */
                out->joints[j] = joint < scene->joints->len ? joint : 0;
                out->weights[j] = joint < scene->joints->len ? w : 0;
              }
        }
      for (gsize t = 0; t < 3 * (gsize)m->n_triangles; t++)
        indices[ix + t]
            = (guint32)(v + MIN (m->triangles[t], m->n_vertices ? m->n_vertices - 1 : 0));
      g_array_append_val (r->ranges, range);
      v += m->n_vertices;
      ix += 3 * (gsize)m->n_triangles;
    }
  glBindVertexArray (r->vao);
  glBindBuffer (GL_ARRAY_BUFFER, r->vbo);
  glBufferData (GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof (Vertex) * MAX (n_vertices, 1)), vertices,
                GL_STATIC_DRAW);
  glVertexAttribPointer (0, 3, GL_FLOAT, GL_FALSE, sizeof (Vertex),
                         (void *)G_STRUCT_OFFSET (Vertex, pos));
  glEnableVertexAttribArray (0);
  glVertexAttribPointer (1, 3, GL_FLOAT, GL_FALSE, sizeof (Vertex),
                         (void *)G_STRUCT_OFFSET (Vertex, normal));
  glEnableVertexAttribArray (1);
  glVertexAttribPointer (2, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof (Vertex),
                         (void *)G_STRUCT_OFFSET (Vertex, colour));
  glEnableVertexAttribArray (2);
  glVertexAttribIPointer (3, 4, GL_UNSIGNED_SHORT, sizeof (Vertex),
                          (void *)G_STRUCT_OFFSET (Vertex, joints));
  glEnableVertexAttribArray (3);
  glVertexAttribPointer (4, 4, GL_FLOAT, GL_FALSE, sizeof (Vertex),
                         (void *)G_STRUCT_OFFSET (Vertex, weights));
  glEnableVertexAttribArray (4);
  glBindBuffer (GL_ELEMENT_ARRAY_BUFFER, r->ebo);
  glBufferData (GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(sizeof (guint32) * MAX (n_indices, 1)),
                indices, GL_STATIC_DRAW);
  glBindVertexArray (0);
  g_free (vertices);
  g_free (indices);
  r->scene = scene;
  r->geometry_serial = scene->geometry_serial;
  r->n_uploads++;
}

static void
push_joint (TressSceneRenderer *r, const graphene_matrix_t *m, float highlight)
{
  float row[JOINT_TEXELS * 4] = { 0 };

  /* Rows of the column-vector matrix: M[i][j] = graphene (j, i). */
  for (guint i = 0; i < 3; i++)
    for (guint j = 0; j < 4; j++)
      row[4 * i + j] = graphene_matrix_get_value (m, j, i);
  row[12] = highlight;
  g_array_append_vals (r->joint_rows, row, G_N_ELEMENTS (row));
}

static void
upload_joints (TressSceneRenderer *r, const TressScene *scene, const guint8 *highlight)
{
  guint n_nodes = tress_scene_get_n_nodes (scene);

  g_array_set_size (r->joint_rows, 0);
  for (guint j = 0; j < scene->joints->len; j++)
    {
      graphene_matrix_t m;
      int node = tress_scene_get_joint (scene, j)->node;

      tress_scene_joint_matrix (scene, j, &m);
      push_joint (r, &m,
                  highlight != NULL && node >= 0 && (guint)node < n_nodes && highlight[node] ? 1
                                                                                             : 0);
    }
  for (guint k = 0; k < r->rigid_nodes->len; k++)
    {
      int node = g_array_index (r->rigid_nodes, int, k);
      graphene_matrix_t m;

      if (node >= 0 && (guint)node < n_nodes)
        m = tress_scene_get_node (scene, (guint)node)->world;
      else
        graphene_matrix_init_identity (&m);
      push_joint (r, &m,
                  highlight != NULL && node >= 0 && (guint)node < n_nodes && highlight[node] ? 1
                                                                                             : 0);
    }
  if (r->joint_rows->len == 0)
    {
      graphene_matrix_t id;

      graphene_matrix_init_identity (&id);
      push_joint (r, &id, 0);
    }
  glBindBuffer (GL_TEXTURE_BUFFER, r->joint_buffer);
  glBufferData (GL_TEXTURE_BUFFER, (GLsizeiptr)(sizeof (float) * r->joint_rows->len),
                r->joint_rows->data, GL_STREAM_DRAW);
  glBindTexture (GL_TEXTURE_BUFFER, r->joint_texture);
  glTexBuffer (GL_TEXTURE_BUFFER, GL_RGBA32F, r->joint_buffer);
}

static void
draw_meshes (TressSceneRenderer *r, const TressScene *scene, const TressGlCamera *camera,
             const float mvp[16], const guint8 *highlight)
{
  float eye[3];

  upload_joints (r, scene, highlight);
  tress_gl_camera_eye (camera, eye);
  glEnable (GL_DEPTH_TEST);
  glDepthFunc (GL_LEQUAL);
  glDisable (GL_CULL_FACE);
  glActiveTexture (GL_TEXTURE0);
  glBindTexture (GL_TEXTURE_BUFFER, r->joint_texture);
  glBindVertexArray (r->vao);
  for (guint pass = 0; pass < 2; pass++)
    {
      const MeshProgram *p = pass == 0 ? &r->smooth : &r->flat;
      gboolean used = FALSE;

      for (guint i = 0; i < r->ranges->len && i < scene->meshes->len; i++)
        {
          const MeshRange *range = &g_array_index (r->ranges, MeshRange, i);

          if (!tress_scene_get_mesh (scene, i)->visible || range->n_indices == 0
              || range->flat != (pass == 1))
            continue;
          if (!used)
            {
              glUseProgram (p->program);
              glUniformMatrix4fv (p->u_mvp, 1, GL_FALSE, mvp);
              glUniform4f (p->u_highlight, TRESS_SCENE_HIGHLIGHT_R / 255.f,
                           TRESS_SCENE_HIGHLIGHT_G / 255.f, TRESS_SCENE_HIGHLIGHT_B / 255.f, 1);
              glUniform3f (p->u_eye, eye[0], eye[1], eye[2]);
              glUniform1i (p->u_joints, 0);
              used = TRUE;
            }
          glUniform1i (p->u_rigid_joint, range->rigid_joint);
          glDrawElements (GL_TRIANGLES, (GLsizei)range->n_indices, GL_UNSIGNED_INT,
                          (void *)(range->first_index * sizeof (guint32)));
        }
    }
  glBindVertexArray (0);
  glUseProgram (0);
}

/* Clip-space triangles (TressStickVertex) over what is drawn. */
static void
draw_triangles (TressSceneRenderer *r, const GArray *triangles)
{
  if (triangles->len == 0)
    return;
  glDisable (GL_DEPTH_TEST);
  glUseProgram (r->stick_program);
  glBindVertexArray (r->stick_vao);
  glBindBuffer (GL_ARRAY_BUFFER, r->stick_vbo);
  glBufferData (GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof (TressStickVertex) * triangles->len),
                triangles->data, GL_STREAM_DRAW);
  glDrawArrays (GL_TRIANGLES, 0, (GLsizei)triangles->len);
  glBindVertexArray (0);
  glUseProgram (0);
}

static void
draw_sticks (TressSceneRenderer *r, const TressScene *scene, const float mvp[16], double width,
             double height, const TressSceneDrawOptions *options)
{
  static const TressStickColours colours = {
    { 0.55f, 0.85f, 1.0f, 1 },
    { TRESS_SCENE_HIGHLIGHT_R / 255.f, TRESS_SCENE_HIGHLIGHT_G / 255.f,
      TRESS_SCENE_HIGHLIGHT_B / 255.f, 1 },
    { 1.0f, 1.0f, 1.0f, 1 },
  };

  g_array_set_size (r->sticks, 0);
  tress_scene_sticks_build (scene, mvp, width, height, options->highlight, options->hover, &colours,
                            r->sticks);
  draw_triangles (r, r->sticks);
}

void
tress_scene_renderer_draw (TressSceneRenderer *r, const TressScene *scene,
                           const TressGlCamera *camera, int fb_width, int fb_height, double width,
                           double height, const TressSceneDrawOptions *options)
{
  float mvp[16];

  glViewport (0, 0, fb_width, fb_height);
  glClearColor (options->background[0], options->background[1], options->background[2], 1);
  glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  if (scene == NULL)
    return;
  if (scene != r->scene || scene->geometry_serial != r->geometry_serial)
    upload_geometry (r, scene);
  tress_gl_camera_mvp (camera, width, height, mvp);
  if (options->show_mesh)
    draw_meshes (r, scene, camera, mvp, options->highlight);
  if (options->show_bones)
    draw_sticks (r, scene, mvp, width, height, options);
  if (options->overlay != NULL)
    draw_triangles (r, options->overlay);
}

guint
tress_scene_renderer_get_n_uploads (TressSceneRenderer *r)
{
  return r->n_uploads;
}

void
tress_scene_renderer_forget (TressSceneRenderer *r)
{
  r->scene = NULL;
}
