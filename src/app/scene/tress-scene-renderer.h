/* tress-scene-renderer.h: draws a TressScene with GL 3.3
 *
 * The meshes go to the GPU once (one vertex buffer: position, normal, colour,
 * four joints and weights per vertex; one index buffer) and are skinned there:
 * each frame only the joint matrices change, one texture-buffer entry per
 * joint (three rows of the skinning matrix and a highlight amount). A rigid
 * mesh follows a joint of its own (its node, identity inverse bind). Lighting
 * is a light from the eye and one from above; a mesh without normals is shaded
 * flat from its triangles. Vertices weighted to highlighted nodes are tinted.
 * The skeleton overlay (tress-scene-sticks.h) is drawn over the meshes.
 *
 * Every call needs the GL context current. GTK-free (epoxy and graphene).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <epoxy/gl.h>

#include "app/gl/tress-gl-camera.h"
#include "formats/tress-scene.h"

G_BEGIN_DECLS

typedef struct _TressSceneRenderer TressSceneRenderer;

typedef struct
{
  gboolean show_mesh;
  gboolean show_bones;
  const guint8 *highlight; /* one byte per node, or NULL */
  int hover;               /* a node, or −1 */
  float background[3];
  /* Drawn over everything (TressStickVertex triangles, tress-scene-sticks.h;
   * a pose gizmo), or NULL. */
  const GArray *overlay;
} TressSceneDrawOptions;

/* The background and highlight colours, exact in the picture. */
#define TRESS_SCENE_BACKGROUND_R 40
#define TRESS_SCENE_BACKGROUND_G 42
#define TRESS_SCENE_BACKGROUND_B 48
#define TRESS_SCENE_HIGHLIGHT_R 255
#define TRESS_SCENE_HIGHLIGHT_G 200
#define TRESS_SCENE_HIGHLIGHT_B 0

/* Compiles the shaders; NULL with @error when the driver refuses them. */
TressSceneRenderer *tress_scene_renderer_new (GError **error);
void tress_scene_renderer_free (TressSceneRenderer *renderer);

/* Draws @scene (may be NULL: background only) into the current framebuffer of
 * @fb_width × @fb_height device pixels, seen by @camera in a widget of
 * @width × @height. Geometry is uploaded again when the scene or its
 * geometry_serial changed. */
void tress_scene_renderer_draw (TressSceneRenderer *renderer, const TressScene *scene,
                                const TressGlCamera *camera, int fb_width, int fb_height,
                                double width, double height, const TressSceneDrawOptions *options);

/* Uploads the geometry again at the next draw (a new scene may sit where
 * the old one was freed). */
void tress_scene_renderer_forget (TressSceneRenderer *renderer);

/* Uploads so far (geometry only; joint matrices go up every frame). */
guint tress_scene_renderer_get_n_uploads (TressSceneRenderer *renderer);

G_END_DECLS
