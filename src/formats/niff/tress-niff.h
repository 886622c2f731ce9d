/* tress-niff.h: N64 NIFF animation (.niff, .nif)
 *
 * The model keeps every byte outside the AnimList as read and the AnimList as
 * plain records (NIFF1 STATIC/FULL/KEY/BILLBOARD) and NIFF2 channel keys;
 * serialize copies the rest and rebuilds the AnimList, updating every size the
 * format page lists. Curves are exposed through tress_format_niff.curves.
 *
 * NIFF1 KEY curves have limits.slopes_derived set: a KEY record stores no
 * slopes, they follow from its interpolation (LINEAR, STATIC, and the SLOW
 * kinds drawn with an assumed ease). NIFF1 KEY and FULL curves say so in
 * limits.no_slopes, so that the edits that set slopes are refused with that
 * reason (tress_curve_key_has_slopes()). set_curve on such a curve stores each
 * key's frame, value and interpolation and refuses nothing for its slopes
 * (broken or any other value is accepted); the slopes themselves are dropped.
 * It does not claim they were kept: *max_error is at least the largest
 * difference, sampled inside every segment, between the curve as given and the
 * curve as stored, and get_curve afterwards returns the derived slopes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "formats/tress-format.h"

G_BEGIN_DECLS

extern const TressFormat tress_format_niff;

typedef struct _TressNiffFile TressNiffFile;

typedef enum
{
  TRESS_NIFF_ANIM_STATIC = 0,
  TRESS_NIFF_ANIM_FULL = 2,
  TRESS_NIFF_ANIM_KEY = 3,
  TRESS_NIFF_ANIM_BILLBOARD = 4,
} TressNiffAnimType;

#define TRESS_NIFF_RECORD_STATIC 0x000c0101u
#define TRESS_NIFF_RECORD_FULL 0x000c0103u
#define TRESS_NIFF_RECORD_KEY 0x000c0104u
#define TRESS_NIFF_RECORD_BILLBOARD 0x000c0105u

/* NIFF1 KEY record interpolation. */
typedef enum
{
  TRESS_NIFF_KEY_STATIC = 0,
  TRESS_NIFF_KEY_LINEAR = 1,
  TRESS_NIFF_KEY_SLOWIN = 2,
  TRESS_NIFF_KEY_SLOWOUT = 4,
  TRESS_NIFF_KEY_SLOW = 6,
} TressNiffKeyInterp;

/* NIFF2 channel key interpolation. */
typedef enum
{
  TRESS_NIFF_CHANNEL_CONST = 0,
  TRESS_NIFF_CHANNEL_FULL = 1,
  TRESS_NIFF_CHANNEL_LINEAR = 2,
  TRESS_NIFF_CHANNEL_HERMITE = 3,
} TressNiffChannelInterp;

/* The eight NIFF2 channels, in file order; bit = 1 << channel. */
typedef enum
{
  TRESS_NIFF_ROTATE_AXIS,
  TRESS_NIFF_ROTATE_X,
  TRESS_NIFF_ROTATE_Y,
  TRESS_NIFF_ROTATE_Z,
  TRESS_NIFF_ORIENTATION_XY,
  TRESS_NIFF_TRANSLATION,
  TRESS_NIFF_UNIQUE_SCALE,
  TRESS_NIFF_CLASSICAL_SCALE,
  TRESS_NIFF_N_CHANNELS
} TressNiffChannel;

/* Constraint bits 0x100 … 0x4000, in the order of the (kind, node) pairs. */
#define TRESS_NIFF_N_CONSTRAINTS 7

/* The automatic fixes (TressProblem.fix_id) that validate offers and
 * tress_format_niff.fix_all applies. */
typedef enum
{
  TRESS_NIFF_FIX_HEADER_LIST_SIZE, /* a file header list size field: the list's real size */
  TRESS_NIFF_FIX_GROUP_INDEX,      /* an AnimGroup's index field: its place in the AnimList */
  TRESS_NIFF_FIX_ANIM_TYPE,        /* the anim type: the kind every one of its records has */
  TRESS_NIFF_FIX_RECORD_INDEX,     /* a record's index field: its place in the group */
  TRESS_NIFF_FIX_NEXT_KEY,         /* a KEY record's next key: the next record's frame */
  TRESS_NIFF_FIX_EXTENSION,        /* NIFF2 group without the block: an empty block */
  TRESS_NIFF_FIX_CHANNEL_BITS,     /* a channel bit: set exactly when the channel has keys */
  TRESS_NIFF_N_FIXES
} TressNiffFix;

/* Model access (tests, CLI). */
guint32 tress_niff_file_get_version (const TressNiffFile *file);
guint tress_niff_file_get_n_groups (const TressNiffFile *file);
/* The AnimList's place in the file as read: FALSE when the file has none. */
gboolean tress_niff_file_get_anim_list_span (const TressNiffFile *file, gsize *offset, gsize *size);
/* Name of NameList entry @index, or NULL. */
const char *tress_niff_file_get_name (const TressNiffFile *file, guint32 index);
guint tress_niff_group_get_n_records (const TressNiffFile *file, guint group);
guint tress_niff_group_get_n_channel_keys (const TressNiffFile *file, guint group,
                                           TressNiffChannel channel);
guint32 tress_niff_group_get_channel_bits (const TressNiffFile *file, guint group);
/* The AnimGroup curve @curve belongs to (objects link AnimGroups: this is how
 * the preview and the curve tree select each other). */
guint tress_niff_curve_get_group (const TressNiffFile *file, guint curve);
/* The last frame any record or channel key of AnimGroup @group is at. */
double tress_niff_group_get_frame_count (const TressNiffFile *file, guint group);

/* What an AnimGroup's header says. */
typedef struct
{
  const char *name;   /* from the NameList (owned by @file), or NULL */
  guint32 anim_type;  /* TressNiffAnimType, as stored */
  guint32 frame_rate; /* as stored (0, 1, 2 and 30 are seen: not always frames per second) */
  guint32 loop;       /* loop count, 0 = endless */
} TressNiffGroupInfo;

/* FALSE when there is no AnimGroup @group. */
gboolean tress_niff_group_get_info (const TressNiffFile *file, guint group,
                                    TressNiffGroupInfo *out);

/* A builder of valid NIFF1 (@niff2 FALSE) and NIFF2 files from nothing: a scene
 * of objects, each using one AnimGroup, with the lists a NIFF reader expects
 * (empty where the animation needs nothing). */
typedef struct _TressNiffBuilder TressNiffBuilder;

TressNiffBuilder *tress_niff_builder_new (gboolean niff2, guint32 version);
void tress_niff_builder_free (TressNiffBuilder *builder);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressNiffBuilder, tress_niff_builder_free)
/* Adds a NameList entry and returns its index (the first one names the scene). */
guint tress_niff_builder_add_name (TressNiffBuilder *builder, const char *name);
/* Adds an AnimGroup and returns its index. */
guint tress_niff_builder_add_group (TressNiffBuilder *builder, guint name_index,
                                    TressNiffAnimType type, guint32 frame_rate, guint32 loop);
/* Sets the group's anim_rot_mtx_order (XYZ 0x00010203 by default). */
void tress_niff_builder_set_rotation_order (TressNiffBuilder *builder, guint group, guint32 order);
/* Adds an object of the scene that uses @group (NIFF_NONE for none). */
guint tress_niff_builder_add_object (TressNiffBuilder *builder, guint name_index, guint32 group);
/* Makes object @obj a child of @parent (an object added before it). */
void tress_niff_builder_set_parent (TressNiffBuilder *builder, guint obj, guint parent);
/* Gives object @obj a shape: @n_vtx vertices (@xyz, 3 floats each) and
 * @n_tris triangles (@tris, 3 vertex indices each, counter-clockwise in
 * front), one colour, lit, @smooth or flat shaded. The file gets its
 * TriGroup, Vtx, Color and Vector groups (face and vertex normals computed)
 * and a material. */
guint tress_niff_builder_add_shape (TressNiffBuilder *builder, guint obj, guint name_index,
                                    const float *xyz, guint n_vtx, const guint32 *tris,
                                    guint n_tris, const float rgba[4], gboolean smooth);
/* Records: @trs is translate xyz, rotate xyz (radians), scale xyz. KEY records
 * get their next-key chain when the file is finished. */
void tress_niff_builder_add_static (TressNiffBuilder *builder, guint group, const float trs[9]);
void tress_niff_builder_add_full (TressNiffBuilder *builder, guint group, const float trs[9]);
void tress_niff_builder_add_key (TressNiffBuilder *builder, guint group, guint32 frame,
                                 TressNiffKeyInterp interp, const float trs[9]);
void tress_niff_builder_add_billboard (TressNiffBuilder *builder, guint group, guint32 look_at,
                                       guint32 up);
/* A NIFF2 channel key: @values and @diffs hold the channel's component count. */
void tress_niff_builder_add_channel_key (TressNiffBuilder *builder, guint group,
                                         TressNiffChannel channel, TressNiffChannelInterp interp,
                                         guint32 frame, const float *values, const float *diffs);
/* Sets constraint @which (0 … 6) to (@kind, @node) and its bit. */
void tress_niff_builder_set_constraint (TressNiffBuilder *builder, guint group, guint which,
                                        guint32 kind, guint32 node);
/* Appends "other extension data" to a NIFF2 group (kept verbatim by readers). */
void tress_niff_builder_add_other_data (TressNiffBuilder *builder, guint group, const guint8 *data,
                                        gsize size);
GBytes *tress_niff_builder_finish (TressNiffBuilder *builder, GError **error);

/* The demo file: a few objects with Hermite channels (NIFF2). */
GBytes *tress_niff_build_demo (void);

G_END_DECLS
