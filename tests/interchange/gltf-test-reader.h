/* gltf-test-reader.h: a glTF 2.0 reader of the tests' own
 *
 * Written from the glTF 2.0 specification, not from the writer: the GLB
 * container (12-byte header; a JSON chunk, then a BIN chunk), a .gltf with
 * its buffer in a file beside it, buffer views and accessors of any
 * component type, and world matrices composed from the nodes by glTF's rule.
 * Structural mistakes fail the test at once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef struct
{
  JsonParser *parser;
  JsonObject *root;
  GBytes *bin; /* buffer 0 */
} Gltf;

void gltf_clear (Gltf *g);
/* GLB: magic, version 2, total length; chunks of (length, type, data). */
void gltf_read_glb (Gltf *g, GBytes *file);
/* .gltf: the JSON, its one buffer a file beside it named by a relative URI. */
void gltf_read_gltf (Gltf *g, const char *path);
JsonObject *gltf_get (Gltf *g, const char *array, guint i);
guint gltf_count (Gltf *g, const char *array);
/* Accessor @i as doubles (any component type), *n elements of *comps. */
double *gltf_accessor (Gltf *g, guint i, guint *n, guint *comps);

/* 4×4 matrices, column vectors, m[row][col]. */
typedef struct
{
  double m[4][4];
} M4;

void m4_mul (const M4 *a, const M4 *b, M4 *out);
/* T · R(q) · S, as the glTF specification composes a node. */
void m4_trs (const double t[3], const double q[4], const double s[3], M4 *out);
double m4_distance (const M4 *a, const M4 *b);
/* Every node's world matrix by glTF's rule, from its TRS (or @local when
 * given: per node, overriding the TRS). */
void gltf_worlds (Gltf *g, const M4 *local, M4 *world, guint n_nodes);

/* The sample of @times (scalars) at frame @f, or −1. */
int sample_at (const double *times, guint n, double f, double fps);
/* The sampler output of animation @anim for node @node and @path (LINEAR
 * asserted); *times gets its input when non-NULL. */
double *channel (Gltf *g, JsonObject *anim, guint node, const char *path, guint *n, double **times);

G_END_DECLS
