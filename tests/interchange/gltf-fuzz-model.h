/* gltf-fuzz-model.h: the BFRES the glTF fuzz target imports into
 *
 * A small file of the builder's: a model "F" (bones Root → Arm → Hand and
 * Root → Tail, Euler XYZ, standard scaling) and its skeletal animation
 * "Wave" (cubic curves on Arm and Hand). fuzz-gltf.c imports each input
 * into it; make-gltf-corpus.c exports it for seeds, so that the seeds' joint
 * names and animation name are the ones the import looks for.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

GBytes *gltf_fuzz_model (void);

G_END_DECLS
