/* tress-niff-private.h: the NIFF model shared by the parser, writer, curve
 * adapter and builder (see shared/formats/niff.md)
 *
 * Floats are kept as their raw 32-bit patterns so that a file written back
 * without edits is byte-identical (negative zero, NaN payloads).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "core/tress-reader.h"
#include "tress-niff.h"

G_BEGIN_DECLS

#define NIFF_TAG_HEADER 0x00000000u
#define NIFF_TAG_SCENE 0x00010000u
#define NIFF_TAG_OBJ 0x00020000u
#define NIFF_TAG_OBJ_ELEMENT 0x00020100u
#define NIFF_TAG_COLOR 0x00050000u
#define NIFF_TAG_VECTOR 0x00060000u
#define NIFF_TAG_ANIM 0x000c0000u
#define NIFF_TAG_ANIM_GROUP 0x000c0100u
#define NIFF_TAG_NAME 0x00110000u
#define NIFF_TAG_NAME_ELEMENT 0x00110100u

#define NIFF_NONE 0xFFFFFFFFu
#define NIFF_GROUP_HEADER_SIZE 48u
#define NIFF_EXT_FIXED_SIZE 148u
#define NIFF1_HEADER_SIZE 100u
#define NIFF2_HEADER_SIZE 136u
#define NIFF_HEADER_ANIM_SIZE_OFFSET 0x4Cu

typedef struct
{
  guint32 tag;
  gsize offset; /* in the file as read */
  gsize size;
} TressNiffList;

typedef struct
{
  guint32 tag;
  guint32 index;
  guint32 key;    /* KEY: frame */
  guint32 next;   /* KEY: frame of the next record, NIFF_NONE on the last */
  guint32 interp; /* KEY: TressNiffKeyInterp */
  guint32 trs[9]; /* STATIC/FULL/KEY: translate xyz, rotate xyz, scale xyz (f32 bits) */
  guint32 expand;
  guint32 look_at; /* BILLBOARD */
  guint32 up;
} TressNiffRecord;

typedef struct
{
  guint32 interp; /* TressNiffChannelInterp */
  guint32 key;
  guint32 value[6]; /* f32 bits */
  guint32 diff[6];
} TressNiffChannelKey;

typedef struct
{
  gsize offset; /* in the file as read; G_MAXSIZE when built */
  guint32 index;
  guint32 header_size; /* kept as read (one writer stores 196) */
  guint32 name_index;
  guint32 anim_type;
  guint32 frame_rate;
  guint32 loop;
  guint32 rot_order;
  GArray *records; /* TressNiffRecord */
  gboolean has_ext;
  guint32 channel_bits;
  guint32 constraints[14];                 /* seven (kind, node) pairs */
  guint32 external_names[14];              /* seven (file, object) name index pairs */
  GArray *channels[TRESS_NIFF_N_CHANNELS]; /* TressNiffChannelKey */
  GBytes *other;                           /* "other extension data", verbatim */
  GBytes *user;                            /* user extension block, verbatim */
} TressNiffGroup;

typedef enum
{
  NIFF_CURVE_KEY,     /* NIFF1 KEY records */
  NIFF_CURVE_FULL,    /* NIFF1 FULL records */
  NIFF_CURVE_CHANNEL, /* a NIFF2 channel */
} TressNiffCurveSource;

typedef struct
{
  guint group;
  TressNiffCurveSource source;
  guint channel;   /* NIFF_CURVE_CHANNEL */
  guint component; /* 0..8 for records, 0..5 for channels */
} TressNiffCurveRef;

typedef struct
{
  guint32 index;
  guint32 name_index;
  guint32 anim_link;
} TressNiffObject;

typedef struct
{
  guint32 index;  /* the element's index field */
  guint32 offset; /* of the text in the file */
  guint32 length; /* up to the first NUL */
} TressNiffNameSpan;

struct _TressNiffFile
{
  GBytes *bytes; /* the file as read (or as built) */
  guint32 version;
  guint32 header_size;
  gboolean niff2;
  GArray *lists;         /* TressNiffList, physical order */
  int anim_list;         /* index in @lists, -1 when absent */
  GBytes *anim_list_ext; /* the AnimList's own nintendo + user extension blocks */
  guint32 anim_list_nin;
  guint32 anim_list_usr;
  GPtrArray *groups;       /* TressNiffGroup */
  GArray *name_spans;      /* TressNiffNameSpan, NameList order */
  char **name_texts;       /* per name_spans entry whose index is its place, on demand */
  GHashTable *name_cache;  /* other name indices → char*, filled on demand */
  GPtrArray *group_paths;  /* per group: its name as a curve path level */
  GPtrArray *group_owners; /* per group: the objects that use it, or NULL */
  GArray *objects;         /* TressNiffObject */
  GArray *curve_refs;      /* TressNiffCurveRef */
  double *group_frames;    /* per group: its last frame, or NAN until asked (see below) */
};

/* Forgets what is derived from AnimGroup @group (call after changing it). */
void tress_niff_group_changed (TressNiffFile *file, guint group);

/* Record sizes by tag; 0 for an unknown tag. */
guint tress_niff_record_size (guint32 tag);
/* Bytes of one key of channel @ch, and its component count. */
static inline guint
tress_niff_channel_n_components (guint ch)
{
  static const guint8 n[TRESS_NIFF_N_CHANNELS] = { 4, 1, 1, 1, 6, 3, 3, 3 };
  return ch < TRESS_NIFF_N_CHANNELS ? n[ch] : 0;
}

static inline guint
tress_niff_channel_key_size (guint ch)
{
  return 8 + 8 * tress_niff_channel_n_components (ch);
}

const char *tress_niff_channel_name (guint ch);
const char *tress_niff_channel_component_name (guint ch, guint component);

static inline float
niff_f32 (guint32 bits)
{
  union
  {
    guint32 u;
    float f;
  } v = { .u = bits };
  return v.f;
}

/* A big-endian word at a position already checked against the data. */
static inline guint32
niff_word (const guint8 *p)
{
  return tress_get_u32 (p, TRESS_BIG_ENDIAN);
}

static inline guint32
niff_bits (float f)
{
  union
  {
    guint32 u;
    float f;
  } v = { .f = f };
  return v.u;
}

TressNiffGroup *tress_niff_group_new (void);
void tress_niff_group_free (TressNiffGroup *group);
/* Size of @group once written. */
gsize tress_niff_group_size (const TressNiffGroup *group);
void tress_niff_group_write (const TressNiffGroup *group, GByteArray *out);
/* Writes exactly tress_niff_group_size() bytes at @p; returns the end. */
guint8 *tress_niff_group_write_to (const TressNiffGroup *group, guint8 *p);
/* Parses one AnimGroup from [@data, @data+@size); @base is its file offset for messages. */
TressNiffGroup *tress_niff_group_parse (const guint8 *data, gsize size, gsize base, GError **error);

/* Rebuilds the curve table (done once after parsing; it does not change with edits). */
void tress_niff_build_curve_refs (TressNiffFile *file);

/* TRUE when channels @a and @b may not both hold keys. */
gboolean tress_niff_channels_conflict (guint a, guint b);
/* Names of the objects that use AnimGroup @group, comma separated, or NULL. */
char *tress_niff_group_owner (const TressNiffFile *file, guint group);

extern const TressCurveOps tress_niff_curve_ops;

/* The file's own interpolation, as the curve editor draws it: component
 * @component (0…8: translate, rotate, scale) of a KEY record sequence, and of
 * a NIFF2 channel (its rest value when @keys is empty), at @frame. */
double tress_niff_key_records_eval (GArray *records, guint component, double frame);
double tress_niff_channel_eval (GArray *keys, guint channel, guint component, double frame);

/* Names for the dump: NULL (type, order) or "?" when there is none. */
const char *tress_niff_anim_type_name (guint32 type);
const char *tress_niff_rot_order_name (guint32 order);
const char *tress_niff_list_name (guint32 tag);
const char *tress_niff_constraint_name (guint k);

/* The format's dump (tress-niff-json.c) and build (tress-niff-json-build.c). */
void niff_dump_json (gpointer model, TressJsonWriter *w);
gboolean niff_build_json (TressJsonReader *r, TressJsonBuild *out);

G_END_DECLS
