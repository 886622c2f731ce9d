/* tress-scene-preview.h: the 3D preview of a TressScene (GtkGLArea, GL 3.3)
 *
 * One widget for every format with a scene (BFRES models, NIFF objects):
 * the meshes skinned on the GPU and lit, the skeleton as sticks over them,
 * orbit (drag), pan (Shift+drag or the middle button), zoom (scroll) and
 * "frame all"; toggles for the mesh and the bones. A click on a bone, or on
 * a mesh away from the bones, emits "node-clicked" (the mesh's node); nodes
 * given to set_highlight() are drawn in the highlight colour, and so are the
 * vertices they move. Hovering a bone or a mesh names its node.
 *
 * The scene is borrowed: call pose_changed() after posing it, set_scene()
 * again when it is replaced (or NULL before freeing it). set_message() puts
 * a text (why there is no picture: the model does not parse, …) in the
 * picture's place; set_note() a line under it. Without GL (GDK_DEBUG=
 * gl-disable, no driver) the pane says so; nothing else depends on GL.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "formats/tress-scene.h"

G_BEGIN_DECLS

#define TRESS_TYPE_SCENE_PREVIEW (tress_scene_preview_get_type ())
G_DECLARE_FINAL_TYPE (TressScenePreview, tress_scene_preview, TRESS, SCENE_PREVIEW, GtkWidget)

GtkWidget *tress_scene_preview_new (void);

/* Shows @scene (borrowed; NULL: nothing); a different scene is framed. */
void tress_scene_preview_set_scene (TressScenePreview *self, TressScene *scene);
TressScene *tress_scene_preview_get_scene (TressScenePreview *self);
/* The same, keeping the camera where it is (the same model made again). */
void tress_scene_preview_replace_scene (TressScenePreview *self, TressScene *scene);
/* The scene's pose (world matrices, visibility) changed: draw again. */
void tress_scene_preview_pose_changed (TressScenePreview *self);
/* A text in the picture's place (NULL: the picture again). */
void tress_scene_preview_set_message (TressScenePreview *self, const char *message);
const char *tress_scene_preview_get_message (TressScenePreview *self);
/* A line under the picture (NULL: none). */
void tress_scene_preview_set_note (TressScenePreview *self, const char *note);
/* Nodes drawn highlighted (replaces the previous set). */
void tress_scene_preview_set_highlight (TressScenePreview *self, const guint *nodes, guint n);
gboolean tress_scene_preview_is_highlighted (TressScenePreview *self, guint node);
/* Adds @widget at the end of the preview's tool bar. */
void tress_scene_preview_add_tool (TressScenePreview *self, GtkWidget *widget);
/* Adds @widget at the end of the line under the picture (beside the note;
 * small tools: they set how narrow the preview may get). */
void tress_scene_preview_add_status_tool (TressScenePreview *self, GtkWidget *widget);

void tress_scene_preview_set_show_mesh (TressScenePreview *self, gboolean show);
gboolean tress_scene_preview_get_show_mesh (TressScenePreview *self);
void tress_scene_preview_set_show_bones (TressScenePreview *self, gboolean show);
gboolean tress_scene_preview_get_show_bones (TressScenePreview *self);

/* Points the camera at the whole posed scene. */
void tress_scene_preview_frame_all (TressScenePreview *self);
/* Orbit by angles in degrees; zoom by a factor (< 1 closer). */
void tress_scene_preview_orbit (TressScenePreview *self, double yaw, double pitch);
void tress_scene_preview_zoom (TressScenePreview *self, double factor);

/* The node at widget point (@x, @y), or −1. */
int tress_scene_preview_pick (TressScenePreview *self, double x, double y);
/* Widget position of node @node's origin; FALSE when not in front of the eye. */
gboolean tress_scene_preview_node_position (TressScenePreview *self, guint node, double *x,
                                            double *y);

/* FALSE until realized, and when GL is unavailable. */
gboolean tress_scene_preview_get_gl_ready (TressScenePreview *self);
/* Why there is no picture, or NULL while GL works. */
const char *tress_scene_preview_get_gl_error (TressScenePreview *self);
/* Draws a frame now and reads it back: RGBA rows top to bottom, *width ×
 * *height device pixels. NULL when GL is not ready. */
GBytes *tress_scene_preview_grab (TressScenePreview *self, int *width, int *height);
/* Draws @n frames now (glFinish after each), turning the camera a little
 * each time and calling @before_each (may be NULL; e.g. to pose the scene)
 * before each; returns the mean seconds per frame, @before_each included,
 * or −1 without GL. */
typedef void (*TressScenePreviewFrameFunc) (gpointer user_data, guint frame);
double tress_scene_preview_time_frames (TressScenePreview *self, guint n,
                                        TressScenePreviewFrameFunc before_each, gpointer user_data);
/* Frames drawn so far (tests wait for the next one). */
guint tress_scene_preview_get_n_frames (TressScenePreview *self);

/* The GL area the picture is drawn in (tools that take the pointer add
 * their controllers there). */
GtkWidget *tress_scene_preview_get_area (TressScenePreview *self);
/* The camera's world-to-clip matrix now and the picture's size in widget pixels. */
void tress_scene_preview_get_mvp (TressScenePreview *self, float mvp[16], double *width,
                                  double *height);
/* Appends to @out (TressStickVertex triangles, clip space) what is drawn over
 * the scene, each frame. */
typedef void (*TressScenePreviewOverlayFunc) (gpointer user_data, const float mvp[16], double width,
                                              double height, GArray *out);
void tress_scene_preview_set_overlay (TressScenePreview *self, TressScenePreviewOverlayFunc func,
                                      gpointer user_data);

/* Signal "node-clicked" (int node, GdkModifierType state): a click on a bone,
 * node −1 for a click beside every bone. */

G_END_DECLS
