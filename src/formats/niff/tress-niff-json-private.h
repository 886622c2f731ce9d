/* tress-niff-json-private.h: what the pieces of the NIFF dump and build share
 *
 * tress-niff-json.c dumps the file; tress-niff-json-read.c reads the
 * records, extensions, AnimGroups and lists of a dump;
 * tress-niff-json-build.c checks the stored form, puts the file back
 * together and is the build's entry point.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tress-niff-private.h"
#include "tress-niff-scene.h"

G_BEGIN_DECLS

#define NIFF_JSON_VERSION 1

/* The record kinds' names in the JSON and their tags, in the same order
 * (tress-niff-json.c). */
extern const char *const _tress_niff_json_record_kinds[4];
extern const guint32 _tress_niff_json_record_tags[4];

typedef struct
{
  guint32 tag;
  GBytes *bytes; /* NULL: the AnimList */
  guint32 nin, usr;
  GBytes *ext;
} ListIn;

typedef struct
{
  TressNiffGroup *group;
  char *digest;
  char *path;
} GroupIn;

void _tress_niff_json_group_digest (const TressNiffGroup *g, char out[17]);
void _tress_niff_json_list_in_clear (gpointer p);
void _tress_niff_json_group_in_clear (gpointer p);
void _tress_niff_json_read_group (TressJsonReader *r, GroupIn *gi);
void _tress_niff_json_read_lists (TressJsonReader *r, GArray *lists);

G_END_DECLS
