/* tress-fur-panes.h: the fur editor's tree divider, kept across runs
 *
 * The tree's width (the divider between the ribbon tree and the preview / UV
 * map) comes from the "io.github.tress.Tress.FurEditor" settings and is
 * written back as the user drags it. Without the schema installed it starts
 * at its default and is not kept.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TRESS_FUR_EDITOR_SCHEMA "io.github.tress.Tress.FurEditor"

void tress_fur_panes_init (GtkPaned *tree_paned);

G_END_DECLS
