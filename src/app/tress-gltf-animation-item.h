/* tress-gltf-animation-item.h: one animation in the Export as glTF dialog's list
 *
 * Its name, what the list shows beside it ("60 frames · 2 s") and whether it
 * is to be exported ("active", bound to the row's check button).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define TRESS_TYPE_GLTF_ANIMATION_ITEM (tress_gltf_animation_item_get_type ())
G_DECLARE_FINAL_TYPE (TressGltfAnimationItem, tress_gltf_animation_item, TRESS, GLTF_ANIMATION_ITEM,
                      GObject)

/* @index: the animation's number in its file (TressGltfExportAnimation.index). */
TressGltfAnimationItem *tress_gltf_animation_item_new (guint index, const char *name,
                                                       double frame_count);
guint tress_gltf_animation_item_get_index (TressGltfAnimationItem *self);
const char *tress_gltf_animation_item_get_name (TressGltfAnimationItem *self);
double tress_gltf_animation_item_get_frame_count (TressGltfAnimationItem *self);
/* Property "active": the animation is to be exported (TRUE at first). */
gboolean tress_gltf_animation_item_get_active (TressGltfAnimationItem *self);
void tress_gltf_animation_item_set_active (TressGltfAnimationItem *self, gboolean active);

G_END_DECLS
