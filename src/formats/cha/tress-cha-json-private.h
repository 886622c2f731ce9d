/* tress-cha-json-private.h: what the pieces of the creature fur dump and build share
 *
 * tress-cha-json.c names places in the file by JSON Pointer and dumps the
 * file; tress-cha-json-read.c reads the names, lines and ribbons of a dump;
 * tress-cha-json-material.c puts a material together from them;
 * tress-cha-json-build.c reads the sections and problems and is the
 * build's entry point.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-cha-private.h"

G_BEGIN_DECLS

#define CHA_JSON_VERSION 1

typedef struct
{
  guint32 body_parts[3];
  gboolean has_body_parts;
  gboolean bp_null[3];
  gboolean has_refs;
  gboolean has_section;
  gint64 section; /* -1: null */
} LineExtra;

typedef struct
{
  TressJsonReader *r;
  gboolean have_morphs, have_moralities;
  guint32 n_morphs, n_moralities;
  guint8 (*morph_names)[TRESS_CHA_NAME_SIZE];
  guint8 (*morality_names)[TRESS_CHA_NAME_SIZE];
  GArray *materials; /* TressChaMaterial */
  gboolean materials_read;
  gboolean materials_broken; /* one could not be put together */
} Build;

typedef struct
{
  GArray *n_sections, *n_lines, *first_line, *quality, *attach, *base, *zsort;
  GArray **morph;         /* n_morphs arrays of 6 floats a ribbon */
  GArray **lengths;       /* n_moralities + 1 */
  GArray *explicit_first; /* gboolean per ribbon */
} Ribbons;

GPtrArray *_tress_cha_json_problems_with_pointers (const TressChaFile *file);
const char *_tress_cha_json_hint_for (const char *name);
gboolean _tress_cha_json_read_fixed_text (TressJsonReader *r, guint8 *out, gsize n);
GArray *_tress_cha_json_read_names (Build *b);
void _tress_cha_json_read_line (Build *b, TressChaLine *l, LineExtra *x);
void _tress_cha_json_read_ribbon (Build *b, Ribbons *rb);
gpointer _tress_cha_json_take (GArray *a);
void _tress_cha_json_read_materials (Build *b);

G_END_DECLS
