/* tress-cha-private.h: pieces shared by the cha sources, not for views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "core/tress-history.h"
#include "core/tress-writer.h"
#include "tress-cha-edit.h"
#include "formats/tress-format.h"
#include "tress-cha-model.h"

G_BEGIN_DECLS

#define CHA_HEADER_SIZE 0x30
#define CHA_SECTION_PREFIX 36
#define CHA_HEADER_FOUR 4
#define CHA_VERSION 9035

/* Where each field of a material lands in the file, for problem offsets. */
typedef struct
{
  gsize start;
  gsize always_one;
  gsize n_applied;
  gsize applied;
  gsize line_size;
  gsize n_lines;
  gsize line_array_size;
  gsize lines;
  gsize n_ribbons;
  gsize morphs_plus_one;
  gsize base_points;
  gsize morph_points;
  gsize n_ribbons_again;
  gsize n_sections;
  gsize quality;
  gsize uv_rows;
  gsize uv;
  gsize moralities_plus_one;
  gsize lengths;
  gsize n_ribbons_third;
  gsize zsort;
  gsize attach;
  gsize first_line;
  gsize n_ribbon_lines;
  gsize n_lines_again;
  gsize end;
} ChaMaterialLayout;

typedef struct
{
  gsize radeon_body;  /* offset of the radeon body, G_MAXSIZE if none */
  gsize always_three; /* offset of the "always 3" field */
  gsize tail;         /* offset of the bytes after the last material */
  guint n_materials;
  ChaMaterialLayout *materials;
  gsize *section_starts; /* n_sections + 1 (the last one is the file size) */
} ChaLayout;

void cha_layout_compute (const TressChaFile *file, ChaLayout *layout);
void cha_layout_clear (ChaLayout *layout);
/* Bytes of a material as written. */
gsize cha_material_size (const TressChaMaterial *m, guint32 n_morphs, guint32 n_moralities);
gsize cha_radeon_body_size (const TressChaRadeon *radeon);

void cha_material_clear (TressChaMaterial *m, guint32 n_morphs, guint32 n_moralities);
void cha_material_copy (TressChaMaterial *dst, const TressChaMaterial *src, guint32 n_morphs,
                        guint32 n_moralities);
void cha_radeon_free (TressChaRadeon *radeon);
TressChaRadeon *cha_radeon_copy (const TressChaRadeon *radeon);

/* Swaps a line's multi-byte fields (the direction's three floats, the three
 * references) between file and host order: a big-endian host reads and
 * writes lines through it. Swapping twice gives the line back. */
void cha_line_swap_bytes (TressChaLine *line);

/* Serializes only a radeon body (the demo's hybrid section reuses it). */
void cha_radeon_write_body (const TressChaRadeon *radeon, TressWriter *w);

/* Records lines already changed in place (a paint stroke) as one command:
 * @before[i] is line @lines[i] as it was, the model holds the after state.
 * Lines equal to their before state are left out; consecutive lines become
 * one patch. Runs the change callback once, then pushes the command onto
 * @history (may be NULL: nothing recorded). Returns the lines recorded. */
guint cha_record_line_edits (TressChaFile *file, TressHistory *history, const TressChaLineId *lines,
                             const TressChaLine *before, guint n, const char *label);

/* tress_cha_file_validate without the limit on problems of one rule per
 * material: every broken place is listed (build compares them one by one). */
GPtrArray *cha_file_validate_all (const TressChaFile *file);

/* The format's dump (tress-cha-json.c) and build (tress-cha-json-build.c). */
void cha_dump_json (gpointer model, TressJsonWriter *w);
gboolean cha_build_json (TressJsonReader *r, TressJsonBuild *out);
/* The format's diff (tress-cha-diff.c). */
void cha_diff (gpointer a, gpointer b, TressDiff *out);

/* "material 0/ribbon 12/line 3" style names */
gboolean cha_name_is_plausible (const guint8 *name);

G_END_DECLS
