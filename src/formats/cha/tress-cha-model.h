/* tress-cha-model.h: the creature-fur (.cha) model
 *
 * A flat model of a Black & White 2 creature-fur file (format page:
 * shared/formats/cha.md). The file is a header followed by named sections; the
 * `radeon` section is decoded, every other section (`hybrid`, unknown ones) is
 * kept as opaque bytes. The decoded part mirrors the file's parallel arrays
 * (struct-of-arrays): a material holds one packed array of 36-byte lines and
 * one plain C array per per-ribbon field, so parsing is bounds checks plus bulk
 * copies and a view can index everything directly.
 *
 * Everything here may be read freely. Change the model only through the edit
 * operations of tress-cha-edit.h (undoable, invariant-keeping); the fields are
 * public so views and the serializer can read them without accessor overhead.
 *
 * Every value the file holds is kept, including values that break a rule
 * (repeated counts that disagree, weights that do not sum to 255, …): validate
 * reports them and serialize writes them back, so open → save is byte-identical.
 *
 * Indices: a ribbon is (material, ribbon index); a line is (material, index in
 * the material's line array). A ribbon's lines are lines[first_line[r] …
 * first_line[r] + n_lines[r]) when those indices are in range (validate checks;
 * use tress_cha_material_ribbon_lines() for a checked lookup).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "core/tress-error.h"
#include "formats/tress-problem.h"

G_BEGIN_DECLS

#define TRESS_CHA_MAGIC_SIZE 40
#define TRESS_CHA_NAME_SIZE 32
#define TRESS_CHA_DESCRIPTION_SIZE 384
#define TRESS_CHA_LINE_SIZE 36
#define TRESS_CHA_MAX_SECTIONS 7
#define TRESS_CHA_WEIGHT_SUM 255

/* One 36-byte line ("hair-ribbon section line"), laid out exactly as in the
 * file (little-endian; on a big-endian host the multi-byte fields are swapped
 * when read and written). */
typedef struct
{
  float direction[3];  /*  0: model-space direction of the section */
  guint8 ambient;      /* 12: ambient pick-up (retail steps 0, 64, 112, …) */
  guint8 colour[2];    /* 13, 14: unknown colour / luminosity bytes, kept */
  guint8 ambient_copy; /* 15: copy of byte 12 */
  guint16 refs[3];     /* 16, 18, 20: body-part references, 3 × applied-list index */
  guint8 unknown[2];   /* 22, 23: unknown, kept */
  guint8 weights[3];   /* 24..26: REVERSED: weights[2] weights refs[0], weights[0] refs[2] */
  guint8 pad;          /* 27: padding, kept */
  guint8 mask[8];      /* 28..35: section mask, one byte 255 (see tress_cha_mask_byte) */
} TressChaLine;

G_STATIC_ASSERT (sizeof (TressChaLine) == TRESS_CHA_LINE_SIZE);

/* Whether a section's size field counts the bytes after it (BODY, what the
 * project writes) or the whole section including its 36-byte name+size prefix
 * (WHOLE). Detected per file and kept. */
typedef enum
{
  TRESS_CHA_SIZE_BODY,
  TRESS_CHA_SIZE_WHOLE,
} TressChaSizeConvention;

typedef struct
{
  /* Values the format page says are fixed, kept as read. */
  guint32 always_one; /* warn if ≠ 1 */
  guint8 description[TRESS_CHA_DESCRIPTION_SIZE];

  guint32 n_applied;
  guint32 *applied; /* body parts this material is on; references index this list */

  guint32 line_size;       /* LINE_SIZE as read; lines are decoded only when 36 */
  guint32 n_lines;         /* LINE_COUNT */
  guint32 line_array_size; /* byte size field as read (should be line_size × n_lines) */
  TressChaLine *lines;     /* n_lines decoded lines, or NULL when line_size ≠ 36 */
  guint8 *raw_lines;       /* line_size × n_lines bytes when not decoded, else NULL */

  guint32 n_ribbons;       /* RIBBON_COUNT (the first one; it sets the array sizes) */
  guint32 morphs_plus_one; /* as read, should be n_morphs + 1 */
  float *base_points;      /* 6 × n_ribbons: two points (x,y,z) per ribbon */
  float **morph_points; /* n_morphs arrays of 6 × n_ribbons displacements; NULL without ribbons */

  guint32 n_ribbons_again; /* second RIBBON_COUNT, as read */
  guint32 *n_sections;     /* n_ribbons: sections per ribbon (1…7) */
  guint32 *quality;        /* n_ribbons: texture quality 0…2 */

  guint32 uv_rows, uv_groups, uv_pieces;
  guint32 n_uv_floats; /* 2 × tress_cha_uv_points (rows, groups, pieces) */
  float *uv;           /* (u,v) pairs: row, group, piece, point */

  guint32 moralities_plus_one; /* as read, should be n_moralities + 1 */
  float **lengths; /* n_moralities + 1 arrays of n_ribbons: base, then per morality; NULL without
                      ribbons */

  guint32 n_ribbons_third; /* third RIBBON_COUNT, as read */
  float *zsort;            /* 3 × n_ribbons: z-sort point */
  guint32 *attach;         /* n_ribbons: body part (real number) the ribbon is attached to */
  guint32 *first_line;     /* n_ribbons: first line of each ribbon */
  guint32 *n_ribbon_lines; /* n_ribbons: lines per ribbon (2 per section) */
  guint32 n_lines_again;   /* trailing LINE_COUNT, as read */
} TressChaMaterial;

typedef struct
{
  guint32 n_morphs;
  guint8 (*morph_names)[TRESS_CHA_NAME_SIZE]; /* raw NUL-padded names */
  guint32 n_moralities;                       /* 0 is legal (gorilla) */
  guint8 (*morality_names)[TRESS_CHA_NAME_SIZE];
  guint32 always_three; /* warn if ≠ 3 */
  guint32 body_part_max;
  guint32 n_materials;
  TressChaMaterial *materials;
  /* Bytes after the last material inside the section (unknown, kept); may be empty. */
  guint8 *tail;
  gsize tail_size;
} TressChaRadeon;

typedef struct
{
  guint8 name[TRESS_CHA_NAME_SIZE]; /* raw NUL-padded name */
  TressChaRadeon *radeon;           /* decoded `radeon` section, or NULL */
  GBytes *opaque;                   /* body of any other section, kept verbatim */
} TressChaSection;

typedef struct _TressChaFile TressChaFile;
typedef struct _TressChaChange TressChaChange;

/* Called after every application of an edit command (perform, undo, redo). */
typedef void (*TressChaChangeFunc) (TressChaFile *file, const TressChaChange *change, gboolean undo,
                                    gpointer user_data);

struct _TressChaFile
{
  guint8 magic[TRESS_CHA_MAGIC_SIZE]; /* "LiOnHeAdCreature" (any case) NUL-padded, kept exactly */
  guint32 header_four;                /* always 4 */
  guint32 version;                    /* always 9035 */
  TressChaSizeConvention size_convention;
  gboolean size_convention_ambiguous; /* both readings fit this file; BODY was taken */
  guint n_sections;
  TressChaSection *sections;
  TressChaRadeon *radeon; /* the first decoded `radeon` section, or NULL */

  /* private */
  TressChaChangeFunc change_func;
  gpointer change_data;
  GDestroyNotify change_destroy;
};

/* ---- parse, serialize, validate ------------------------------------------ */

/* TRUE if the data starts with "lionheadcreature" in any case. */
gboolean tress_cha_probe (const guint8 *data, gsize size);
/* Parses a whole file. Errors (TRESS_ERROR) name the field and byte offset. */
TressChaFile *tress_cha_file_parse (GBytes *bytes, GError **error);
void tress_cha_file_free (TressChaFile *file);
/* A deep copy (without the change callback). */
TressChaFile *tress_cha_file_copy (const TressChaFile *file);
/* The file's bytes. Never fails for a model built by parse and the edit API. */
GBytes *tress_cha_file_serialize (const TressChaFile *file);
/* Size serialize would produce, without building it. */
gsize tress_cha_file_serialized_size (const TressChaFile *file);

/* Every broken rule as a TressProblem (location "radeon/material 0/ribbon 12/line 3",
 * byte offset in the file as it would be written (= as read before any edit),
 * message, and the fix when one applies; fix_id is a TressChaFix). */
GPtrArray *tress_cha_file_validate (const TressChaFile *file);
/* How many problems validate finds on each ribbon and its lines, every one
 * counted (validate lists a rule only so many times per material, then sums
 * it up): a set of gint64[2] { material << 32 | ribbon, count }, the ribbons
 * without problems left out. Read it with tress_cha_ribbon_problems_lookup().
 * @problems (may be NULL): validate's list for @file; where it sums nothing
 * up the counts are read off it, otherwise the file is checked once more. */
GHashTable *tress_cha_file_count_ribbon_problems (const TressChaFile *file, GPtrArray *problems);
guint tress_cha_ribbon_problems_lookup (GHashTable *counts, guint material, guint ribbon);

/* Sets the callback run after each edit command is applied or undone. */
void tress_cha_file_set_change_func (TressChaFile *file, TressChaChangeFunc func,
                                     gpointer user_data, GDestroyNotify destroy);

/* ---- helpers for views ---------------------------------------------------- */

/* Checked lookup of a ribbon's line range; FALSE if the ribbon or its range is
 * outside the line array, or the lines are not decoded. */
gboolean tress_cha_material_ribbon_lines (const TressChaMaterial *material, guint ribbon,
                                          guint *first, guint *n);
/* Whether the ribbons' line counts add up to LINE_COUNT: only then can the
 * first-line indices be recomputed from them (otherwise a count is as likely
 * to be the damaged field as the indices). */
gboolean tress_cha_material_line_counts_fit (const TressChaMaterial *material);
/* The ribbon whose line range holds @line, or -1 (binary search: first-line
 * indices are sorted in a file that keeps the running-sum rule). */
int tress_cha_material_find_ribbon_of_line (const TressChaMaterial *material, guint line);
/* Index of @body_part in the applied list, or -1. */
int tress_cha_material_find_applied (const TressChaMaterial *material, guint32 body_part);
/* Body part a line reference points at (ref/3 into the applied list), or -1
 * when the reference is not a multiple of 3 or out of range. @k is 0…2. */
gint64 tress_cha_material_ref_body_part (const TressChaMaterial *material, const TressChaLine *line,
                                         guint k);

/* Weight of reference @k (0…2) — byte 26 − k. */
static inline guint8
tress_cha_line_get_weight (const TressChaLine *line, guint k)
{
  return line->weights[2 - k];
}

/* The mask byte (0…6) that stands for section @section (1…7): 3,2,1,4,7,6,5. */
guint tress_cha_mask_byte (guint section);
/* The section (1…7) a one-hot mask stands for, or 0 when the mask is not one-hot. */
guint tress_cha_line_section (const TressChaLine *line);
/* Retail ambient step for a section (1…7): 0, 64, 112, 147, 174, 194, 210. */
guint8 tress_cha_ambient_step (guint section);
/* Maximum ribbon length for @n_sections sections: the retail table for 2…7
 * ((s−1)/7); 1 section has no documented maximum and gets the 2-section one. */
float tress_cha_max_length (guint n_sections);
/* UV points per table: (rows² + 3·rows) × groups × pieces (retail 7×3×4: 840);
 * G_MAXUINT64 on overflow. */
guint64 tress_cha_uv_points (guint32 rows, guint32 groups, guint32 pieces);
/* Section name as a string (up to the first NUL). */
char *tress_cha_section_get_name (const TressChaSection *section);

/* The fixes validate offers (TressProblem.fix_id); tress-cha-edit.h applies them. */
typedef enum
{
  TRESS_CHA_FIX_WEIGHTS,      /* rescale weight triples to sum to 255 */
  TRESS_CHA_FIX_AMBIENT_COPY, /* copy ambient byte 12 to byte 15 */
  TRESS_CHA_FIX_FIRST_LINES,  /* recompute first-line indices as the running sum */
  TRESS_CHA_FIX_ZSORT,        /* z-sort point = first base point */
  TRESS_CHA_FIX_COUNTS,       /* repeated counts, line array size, fixed header values */
  TRESS_CHA_FIX_LENGTHS,      /* clamp lengths to the maximum for the section count */
  TRESS_CHA_FIX_MASKS,        /* standard one-hot masks: line k → section k/2 + 1 */
  TRESS_CHA_FIX_QUALITY,      /* clamp texture quality to 0…2 */
  TRESS_CHA_FIX_UV,           /* clamp UV coordinates to 0…1 */
  TRESS_CHA_FIX_ATTACH,       /* add the attachment body part to the applied list */
  TRESS_CHA_N_FIXES
} TressChaFix;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TressChaFile, tress_cha_file_free)

G_END_DECLS
