/* tress-gltf-animation-item.c: one animation in the Export as glTF dialog's list
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "tress-gltf-animation-item.h"

struct _TressGltfAnimationItem
{
  GObject parent_instance;

  guint index;
  char *name;
  double frame_count;
  gboolean active;
};

G_DEFINE_FINAL_TYPE (TressGltfAnimationItem, tress_gltf_animation_item, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_NAME,
  PROP_ACTIVE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

TressGltfAnimationItem *
tress_gltf_animation_item_new (guint index, const char *name, double frame_count)
{
  TressGltfAnimationItem *self = g_object_new (TRESS_TYPE_GLTF_ANIMATION_ITEM, NULL);

  self->index = index;
  self->name = g_strdup (name);
  self->frame_count = frame_count;
  return self;
}

guint
tress_gltf_animation_item_get_index (TressGltfAnimationItem *self)
{
  g_return_val_if_fail (TRESS_IS_GLTF_ANIMATION_ITEM (self), 0);
  return self->index;
}

const char *
tress_gltf_animation_item_get_name (TressGltfAnimationItem *self)
{
  g_return_val_if_fail (TRESS_IS_GLTF_ANIMATION_ITEM (self), NULL);
  return self->name;
}

double
tress_gltf_animation_item_get_frame_count (TressGltfAnimationItem *self)
{
  g_return_val_if_fail (TRESS_IS_GLTF_ANIMATION_ITEM (self), 0);
  return self->frame_count;
}

gboolean
tress_gltf_animation_item_get_active (TressGltfAnimationItem *self)
{
  g_return_val_if_fail (TRESS_IS_GLTF_ANIMATION_ITEM (self), FALSE);
  return self->active;
}

void
tress_gltf_animation_item_set_active (TressGltfAnimationItem *self, gboolean active)
{
  g_return_if_fail (TRESS_IS_GLTF_ANIMATION_ITEM (self));
  active = !!active;
  if (self->active == active)
    return;
  self->active = active;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ACTIVE]);
}

static void
tress_gltf_animation_item_finalize (GObject *object)
{
  TressGltfAnimationItem *self = TRESS_GLTF_ANIMATION_ITEM (object);

  g_free (self->name);
  G_OBJECT_CLASS (tress_gltf_animation_item_parent_class)->finalize (object);
}

static void
tress_gltf_animation_item_get_property (GObject *object, guint prop_id, GValue *value,
                                        GParamSpec *pspec)
{
  TressGltfAnimationItem *self = TRESS_GLTF_ANIMATION_ITEM (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_ACTIVE:
      g_value_set_boolean (value, self->active);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tress_gltf_animation_item_set_property (GObject *object, guint prop_id, const GValue *value,
                                        GParamSpec *pspec)
{
  TressGltfAnimationItem *self = TRESS_GLTF_ANIMATION_ITEM (object);

  switch (prop_id)
    {
    case PROP_ACTIVE:
      tress_gltf_animation_item_set_active (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tress_gltf_animation_item_class_init (TressGltfAnimationItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tress_gltf_animation_item_finalize;
  object_class->get_property = tress_gltf_animation_item_get_property;
  object_class->set_property = tress_gltf_animation_item_set_property;

  properties[PROP_NAME]
      = g_param_spec_string ("name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_ACTIVE]
      = g_param_spec_boolean ("active", NULL, NULL, TRUE,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tress_gltf_animation_item_init (TressGltfAnimationItem *self)
{
  self->active = TRUE;
}
